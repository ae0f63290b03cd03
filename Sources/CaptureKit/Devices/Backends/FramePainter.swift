import GStreamerSwift

/// What a backend's `prepare` returns when its frames are painted in software rather than
/// captured (the virtual camera's sensor): it draws each frame at the source's caps filter,
/// with the device's settings applied on the frame they take effect on, and has the
/// auto-control loop meter what it painted. The core then knows the exact frame of each change
/// (`DeviceCapabilities.Timing.painted`) and meters nothing at the source's exit.
protocol FramePainter: Sendable {
    /// The mean luma, 0…255, that auto exposure aims at in `pixelFormat`.
    func targetLuma(pixelFormat: PixelFormat) -> Double
    /// Paints every buffer passing `pad` (the source's caps filter's src pad) and hands it to
    /// `loop` to meter; `source` is the element whose running time says how late a frame is.
    /// Threading: the probe runs on the source's streaming thread, once per buffer.
    func install(on pad: Pad, loop: AutoControlLoop?, source: Element)
}
