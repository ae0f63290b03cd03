import CFacesLoader
import Synchronization

/// Finds faces in 8-bit gray images with OpenCV's Haar cascades (Debian's OpenCV 4.6 and the
/// cascades of `opencv-data`), through the shim `libCaptureKitFaces.so`, loaded on first use:
/// what `AVMetadataFaceObject` reports, less the face ID, which tracking across frames assigns.
///
/// Frontal faces (yaw 0) are found within about ±15° of upright. The profile pass adds faces
/// turned ±90°, the roll pass faces turned ±30° on screen; each multiplies the cost (see
/// ``Passes``). Images are scaled down to 640 pixels along the longer side first.
///
/// Thread safety: genuinely `Sendable`. OpenCV's classifier keeps scratch data while it detects,
/// so one instance runs one `detect` at a time behind a `Mutex`; callers on other threads wait.
/// Give each concurrent branch (or thread) its own detector to detect in parallel.
public final class FaceDetector: Sendable {
    /// A rectangle in pixels of the whole image.
    public struct Rect: Sendable, Hashable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// A detected face.
    public struct Face: Sendable, Hashable {
        /// The square the cascade fired on, from the eyebrows to below the mouth, in pixels of
        /// the whole image; for a turned face, the square of its upright frame about its centre.
        public var bounds: Rect
        /// Degrees the face is turned on screen, clockwise positive: 0 from upright passes (to
        /// about ±15°), ±30 from the roll pass; nil when unknown.
        public var rollAngle: Double?
        /// Degrees the face is turned about the vertical axis: 0 frontal, 90 looking toward the
        /// image's right, -90 toward its left (profile pass); nil when unknown.
        public var yawAngle: Double?
        /// How many overlapping raw detections OpenCV merged into this face (more is surer).
        public var score: Int

        public init(bounds: Rect, rollAngle: Double? = nil, yawAngle: Double? = nil, score: Int = 0) {
            self.bounds = bounds
            self.rollAngle = rollAngle
            self.yawAngle = yawAngle
            self.score = score
        }
    }

    /// Which cascade runs on which copy of the image.
    public struct Passes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The frontal cascade on the upright image.
        public static let frontal = Passes(rawValue: CK_FACES_PASS_FRONTAL)
        /// The profile cascade on the image and its mirror image (yaw ±90): about 4× the cost of
        /// the frontal pass.
        public static let profile = Passes(rawValue: CK_FACES_PASS_PROFILE)
        /// The other passes also on the image turned ±30° (roll ±30): about 4× their cost
        /// (with ``profile``, about 16× the frontal pass).
        public static let roll = Passes(rawValue: CK_FACES_PASS_ROLL)

        /// For camera frames: frontal faces only (about 30 ms for 1280 x 720 on 2 cores).
        public static let live: Passes = [.frontal]
        /// For still images: every pass (about 0.5 s for 1280 x 720 on 2 cores).
        public static let thorough: Passes = [.frontal, .profile, .roll]
    }

    /// Debian's cascade folder (package `opencv-data`).
    public static var defaultCascadeDirectory: String { "/usr/share/opencv4" }

    /// Whether the frontal cascade loads from ``defaultCascadeDirectory`` (checked once).
    public static var isAvailable: Bool { availability }
    private static let availability = FaceDetector() != nil

    /// The OpenCV version the shim was built against.
    public static var libraryVersion: String { String(cString: ck_faces_opencv_version()) }

    /// The passes this detector can run (``Passes/profile`` only when its cascade loaded).
    public let availablePasses: Passes

    private let handle: Mutex<OpaquePointer>

    /// Loads the cascades from `cascadeDirectory`: a folder holding `haarcascades/` (as
    /// Debian's `/usr/share/opencv4`) or the XML files themselves. Nil when the frontal
    /// cascade is missing or unreadable.
    public init?(cascadeDirectory: String = FaceDetector.defaultCascadeDirectory) {
        var detector: OpaquePointer?
        guard ck_faces_open(cascadeDirectory, &detector) == CK_FACES_OK, let detector else { return nil }
        availablePasses = Passes(rawValue: ck_faces_passes(detector))
        handle = Mutex(detector)
    }

    deinit {
        handle.withLock { ck_faces_close($0) }
    }

    /// The faces in a `width` x `height` gray image whose rows are `rowStride` bytes apart, surest
    /// first. Faces smaller than `minimumFaceSize` pixels are not searched for (nil: a twelfth of
    /// the shorter side; smaller sizes cost more). Empty for an invalid buffer.
    public func detect(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int,
                       minimumFaceSize: Int? = nil, passes: Passes = .live) -> [Face] {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max), rowStride >= width,
              rowStride <= Int(Int32.max), pixels.count >= rowStride * (height - 1) + width,
              let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), !passes.isEmpty else { return [] }
        let minimum = Int32(clamping: minimumFaceSize ?? 0)
        // The buffer crosses into the lock as an address: a pointer captured from the caller would
        // tie the handle's isolation region to the caller's, which `withLock` rejects. The buffer is
        // only read during this call, as `pixels` promises.
        let address = UInt(bitPattern: base)
        return handle.withLock { detector -> [Face] in
            var results: UnsafeMutablePointer<ck_face_results>?
            guard let gray = UnsafePointer<UInt8>(bitPattern: address),
                  ck_faces_detect(detector, gray, Int32(width), Int32(height), Int32(rowStride), minimum, passes.rawValue,
                                  &results) == CK_FACES_OK, let block = results else { return [] }
            defer { ck_face_results_free(block) }
            return (0..<Int(block.pointee.count)).map { index in
                let item = block.pointee.items[index]
                return Face(bounds: Rect(x: item.x, y: item.y, width: item.width, height: item.height),
                            rollAngle: item.has_roll ? item.roll : nil, yawAngle: item.has_yaw ? item.yaw : nil,
                            score: Int(item.score))
            }
        }
    }
}
