/// The built-in synthetic cameras: always present, the default where no hardware exists. Each
/// `CaptureContext` has its own back and front camera (`VirtualCameraKind.makeContextDevices`).
///
/// Each is a live `videotestsrc` that sets the pace and stamps frames with the pipeline clock,
/// whose every buffer the `VirtualCameraSensor` paints with the `VirtualScene` on the
/// streaming thread, so per-frame settings apply exactly on frame boundaries.
enum VirtualCamera {
    static let manufacturer = "CaptureKit"
    static let model = "Virtual Camera"
    /// The simulated lens's f-number.
    static let aperture: Float = 2.0

    /// The sizes offered, each in BGRA at 1–60 fps (1–30 fps at 1920x1080), exposing for up
    /// to 1 s (the longest frame; `activeVideoMaxFrameDuration` bounds it in use).
    static let formats: [CaptureDevice.Format] = [
        (352, 288), (640, 480), (960, 540), (1280, 720), (1920, 1080),
    ].map { size in
        CaptureDevice.Format(pixelFormat: .bgra, width: size.0, height: size.1, videoSupportedFrameRateRanges: [
            .init(minFrameRate: 1, maxFrameRate: size.0 * size.1 > 1280 * 720 ? 30 : 60),
        ], minISO: 50, maxISO: 3200,
        minExposureDuration: CaptureTime(value: 1, timescale: 8000), maxExposureDuration: CaptureTime(value: 1, timescale: 1),
        videoMaxZoomFactor: 16)
    }

    /// The uniqueID of the virtual camera facing `position` (`virtual:back`, `virtual:front`).
    static func uniqueID(_ position: CaptureDevice.Position) -> String { "virtual:\(position)" }

    /// A new virtual camera facing `position`, with state of its own (each context has its
    /// own pair, `VirtualCameraKind.makeContextDevices`).
    static func make(position: CaptureDevice.Position) -> CaptureDevice {
        let initial = SessionPreset.high.bestFormat(among: formats)!
        let device = CaptureDevice(uniqueID: uniqueID(position), modelID: "capturekit:virtual",
                                   localizedName: "Virtual Camera (\(position))", manufacturer: manufacturer,
                                   position: position, formats: formats, activeFormat: initial, backend: VirtualCameraBackend(position: position))
        return device
    }
}
