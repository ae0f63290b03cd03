import Foundation

/// The virtual camera's scene light, for tests, benchmarks and demos of the auto modes.
extension CaptureDevice {
    /// Changes the virtual scene's light level by `ev` stops from the metered level; for tests
    /// and demos of auto exposure, flash and HDR.
    @_spi(Benchmark)
    public func setVirtualSceneLight(ev: Double) {
        withState { state in
            state.sceneLight = pow(2, ev)
            state.sensor.changed(notifying: nil)
        }
    }

    /// Changes the virtual scene's light (kelvin); for tests and demos of white balance.
    @_spi(Benchmark)
    public func setVirtualIlluminant(temperature: Float) {
        withState { state in
            state.whiteBalance.illuminant = temperature
            state.sensor.changed(notifying: nil)
        }
    }
}
