import Foundation

/// The virtual camera's scene light and codes, for tests, benchmarks and demos.
extension CaptureDevice {
    /// The codes the virtual camera's scene shows (by default a QR code and an EAN-13), for
    /// tests of the metadata output. Sessions started afterwards show them; nil restores the
    /// defaults.
    func setVirtualSceneCodes(_ codes: [VirtualScene.Code]?) {
        (backend as? VirtualCameraBackend)?.sceneCodes.value.withLock { $0 = codes }
    }

    /// Changes the virtual scene's light level by `ev` stops from the metered level; for tests
    /// and demos of auto exposure, flash and HDR.
    @_spi(Benchmark)
    public func setVirtualSceneLight(ev: Double) {
        withState { state in
            state.sceneLight = pow(2, ev)
            state.sensor.changed(notifying: nil)
            state.sceneChanges += 1
        }
    }

    /// Changes the virtual scene's light (kelvin); for tests and demos of white balance.
    @_spi(Benchmark)
    public func setVirtualIlluminant(temperature: Float) {
        withState { state in
            state.whiteBalance.illuminant = temperature
            state.sensor.changed(notifying: nil)
            state.sceneChanges += 1
        }
    }
}
