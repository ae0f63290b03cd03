import Detectors
import Foundation
import GStreamerSwift
import Synchronization

/// Runs the detectors on GRAY8 frames: a metadata branch's, or a scanned file's.
///
/// Threading: `detect` runs on the appsink's thread, one frame at a time; it reads the settings
/// once per frame and hands the frame's objects to `deliver` on that thread (which must not
/// block: outputs pass them on to queues).
final class FrameDetector: Sendable {
    typealias Settings = @Sendable () -> (types: [MetadataObjectType], rectOfInterest: CGRect)

    private let passes: [BarcodeReader.Pass]
    private let facePasses: FaceDetector.Passes
    private let settings: Settings
    private let deliver: @Sendable ([any MetadataObject]) -> Void
    /// Whether the frame after the last object left is delivered, empty (AVFoundation's
    /// metadata output does this, so overlays clear).
    private let deliversEmptyAfterObjects: Bool
    /// Touched by the appsink thread only: the frame layout, object identities, the reader
    /// made for the types last asked for (rebuilt only when they change), and whether the last
    /// frame delivered had objects.
    private let memory = Mutex((layouts: LayoutCache(), tracker: ObjectTracker(), reader: (types: [MetadataObjectType]?.none, reader: BarcodeReader?.none),
                                 faces: FaceDetector?.none, hadObjects: false))

    init(passes: [BarcodeReader.Pass], facePasses: FaceDetector.Passes = .live, deliversEmptyAfterObjects: Bool = false,
         settings: @escaping Settings, deliver: @escaping @Sendable ([any MetadataObject]) -> Void) {
        self.passes = passes
        self.deliversEmptyAfterObjects = deliversEmptyAfterObjects
        self.facePasses = facePasses
        self.settings = settings
        self.deliver = deliver
    }

    func detect(_ sample: Sample) {
        let (types, rect) = settings()
        // Still images may come without a timestamp: they are time zero.
        let pts = sample.presentationTime ?? 0
        let prepared = memory.withLock { memory -> (VideoLayout, BarcodeReader?, FaceDetector?)? in
            if memory.reader.types != types {
                let symbologies = Set(types.compactMap(\.symbology))
                memory.reader = (types, symbologies.isEmpty ? nil : BarcodeReader(symbologies: symbologies, passes: passes))
                if types.contains(.face) && memory.faces == nil { memory.faces = FaceDetector() }
            }
            let faces = types.contains(.face) ? memory.faces : nil
            guard memory.reader.reader != nil || faces != nil, let layout = memory.layouts.layout(of: sample) else { return nil }
            return (layout, memory.reader.reader, faces)
        }
        guard let (layout, reader, faceDetector) = prepared else { return }
        let width = layout.width, height = layout.height
        let region = BarcodeReader.Region(rect, width: width, height: height)
        // The plane as mapped, honouring a driver's row padding (video meta) over the caps' layout.
        guard let (codes, faces) = try? sample.withPlanes({ planes in
            let plane = planes[0]
            return (reader?.read(plane.bytes, width: width, height: height, rowStride: plane.bytesPerRow, region: region) ?? [],
                    faceDetector?.detect(plane.bytes, width: width, height: height, rowStride: plane.bytesPerRow, passes: facePasses) ?? [])
        }) else { return }
        let time = CaptureTime(nanoseconds: pts)
        let (objects, hadObjects) = memory.withLock { memory -> ([any MetadataObject], Bool) in
            memory.tracker.forget(before: time)
            var objects: [any MetadataObject] = codes.compactMap { code -> MachineReadableCodeObject? in
                guard let type = MetadataObjectType(code.symbology) else { return nil }
                let duration = memory.tracker.seen("\(type.rawValue)\u{1F}\(code.text)", at: time)
                let corners = code.corners.map { CGPoint(x: $0.x / Double(width), y: $0.y / Double(height)) }
                return MachineReadableCodeObject(type: type, stringValue: code.text, corners: corners, time: time, duration: duration)
            }
            for face in faces {
                let box = CGRect(x: face.bounds.x / Double(width), y: face.bounds.y / Double(height),
                                 width: face.bounds.width / Double(width), height: face.bounds.height / Double(height))
                // Faces are searched in the whole frame; the rect of interest keeps those centred in it.
                guard rect.contains(CGPoint(x: box.midX, y: box.midY)) else { continue }
                let (id, duration) = memory.tracker.face(at: box, time: time)
                objects.append(FaceObject(faceID: id, bounds: box, rollAngle: face.rollAngle, yawAngle: face.yawAngle, time: time, duration: duration))
            }
            defer { memory.hadObjects = !objects.isEmpty }
            return (objects, memory.hadObjects)
        }
        guard !objects.isEmpty || (hadObjects && deliversEmptyAfterObjects) else { return }
        deliver(objects)
    }
}

extension BarcodeReader.Region {
    /// A normalised rect of a `width` x `height` frame in pixels; nil for the whole frame.
    init?(_ rect: CGRect, width: Int, height: Int) {
        guard rect != CGRect(x: 0, y: 0, width: 1, height: 1) else { return nil }
        self.init(x: Int((rect.minX * Double(width)).rounded(.down)), y: Int((rect.minY * Double(height)).rounded(.down)),
                  width: Int((rect.width * Double(width)).rounded(.up)), height: Int((rect.height * Double(height)).rounded(.up)))
    }
}
