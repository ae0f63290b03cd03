import Foundation
/// How the device is held, so viewers rotate the image (AVCaptureVideoOrientation).
///
/// Orientation is metadata: pixels stay as the sensor delivers them (landscape), and the
/// orientation travels as the `image-orientation` tag (EXIF Orientation in stills) and as a
/// sample attachment.
///
/// Raw values are AVCaptureVideoOrientation's, so `VideoOrientation(rawValue: 1)` is portrait as
/// in a port of AVFoundation code; `description` and `init?(name:)` use the case names.
public enum VideoOrientation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case portrait = 1, portraitUpsideDown = 2, landscapeRight = 3, landscapeLeft = 4

    /// The orientation named as its case is ("portrait", "landscapeLeft", …).
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }

    /// Clockwise degrees a viewer rotates the sensor image by.
    public var rotationDegrees: Int {
        switch self {
        case .landscapeRight: 0
        case .portrait: 90
        case .landscapeLeft: 180
        case .portraitUpsideDown: 270
        }
    }

    /// The EXIF Orientation number (1–8) for this orientation and mirroring.
    public func exifOrientation(mirrored: Bool) -> Int {
        switch (self, mirrored) {
        case (.landscapeRight, false): 1
        case (.landscapeRight, true): 2
        case (.landscapeLeft, false): 3
        case (.landscapeLeft, true): 4
        case (.portraitUpsideDown, true): 5
        case (.portrait, false): 6
        case (.portrait, true): 7
        case (.portraitUpsideDown, false): 8
        }
    }

    /// videoflip's `video-direction` for turning the sensor's picture clockwise by
    /// ``rotationDegrees``, then mirroring it left to right; "identity" for neither.
    func videoFlipDirection(mirrored: Bool) -> String {
        switch (rotationDegrees, mirrored) {
        case (90, false): "90r"
        case (180, false): "180"
        case (270, false): "90l"
        case (0, true): "horiz"
        case (90, true): "ul-lr"
        case (180, true): "vert"
        case (270, true): "ur-ll"
        default: "identity"
        }
    }

    /// The orientation whose ``rotationDegrees`` is `angle` (0, 90, 180 or 270); nil for others.
    init?(rotationAngle angle: CGFloat) {
        guard let match = Self.allCases.first(where: { CGFloat($0.rotationDegrees) == angle }) else { return nil }
        self = match
    }

    /// Whether turning by this orientation swaps width and height.
    var swapsSides: Bool { self == .portrait || self == .portraitUpsideDown }

    public var description: String {
        switch self {
        case .portrait: "portrait"
        case .portraitUpsideDown: "portraitUpsideDown"
        case .landscapeRight: "landscapeRight"
        case .landscapeLeft: "landscapeLeft"
        }
    }
}
