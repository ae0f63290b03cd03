import Foundation
import GStreamerSwift

/// Files played as cameras: `file:PATH` (a video, an image, or a numbered image sequence) from
/// `find`, `-d file:PATH` and pipeline files' `device: file:PATH`. Found only when named, never
/// listed, never the default; the same file is the same device.
struct FileKind: DeviceKind {
    /// The prefix of references and uniqueIDs.
    static let scheme = "file:"

    /// `file:PATH`, a relative PATH against the working directory; kept by the registry as
    /// named only (never listed).
    func device(named reference: String, in registry: DeviceRegistry) throws(CaptureError) -> CaptureDevice? {
        guard reference.hasPrefix(Self.scheme) else { return nil }
        return registry.keep(try Self.candidate(path: String(reference.dropFirst(Self.scheme.count))), namedOnly: true)
    }

    /// The camera that plays the file at `path`.
    static func candidate(path: String) throws(CaptureError) -> DeviceCandidate {
        guard !path.isEmpty else { throw .fileUnreadable(path, reason: "no path after 'file:'") }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let file = try FileCameraDescription.probe(path: absolute)
        let id = FileCameraDescription.uniqueID(for: absolute)
        return DeviceCandidate(uniqueID: id, mediaType: .video, sameDevice: [], precedence: DevicePrecedence.only) {
            let rates = [CaptureDevice.FrameRateRange(minFrameRate: file.frameRate, maxFrameRate: file.frameRate)]
            let sizes = FileKind.scaledSizes(width: file.width, height: file.height) + [(file.width, file.height)]
            let formats = sizes.map { size in
                CaptureDevice.Format(pixelFormat: .bgra, width: size.width, height: size.height, videoSupportedFrameRateRanges: rates,
                                     videoMaxZoomFactor: DigitalZoom.maxFactor)
            }
            return CaptureDevice(uniqueID: id, modelID: "file:\(file.container)", localizedName: URL(fileURLWithPath: absolute).lastPathComponent,
                                 manufacturer: "CaptureKit", position: .unspecified, formats: formats, activeFormat: formats[formats.count - 1],
                                 backend: FileBackend(file: file))
        }
    }

    /// The common sizes below the native one with the same aspect ratio, smallest first.
    static func scaledSizes(width: Int, height: Int) -> [(width: Int, height: Int)] {
        [(320, 240), (640, 360), (640, 480), (960, 540), (1280, 720), (1920, 1080), (2560, 1440)]
            .filter { $0.0 < width && $0.0 * height == $0.1 * width }
    }
}
