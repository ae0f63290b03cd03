extension CaptureDevice {
    /// Takes what the camera's own automatic switches reached: the exposure time and ISO while
    /// it exposes by itself, the lens position while it focuses by itself, the white-balance
    /// gains while it balances by itself (whoever turned the switch on), with whether each is
    /// still moving. Observers hear each property that changed; values the camera is not moving
    /// stay as CaptureKit set them.
    func applyAutoValues(_ values: AutoValues, adjusting: AutoAdjustment.Adjusting) {
        withState { state in
            if values.exposureIsAutomatic {
                if let duration = values.exposureDuration { state.exposure.duration = duration }
                if let iso = values.iso { state.exposure.iso = iso }
                state.exposure.isAdjusting = adjusting.exposure
            }
            if values.focusIsAutomatic, let lensPosition = values.lensPosition {
                state.focus.lensPosition = lensPosition
                state.focus.isAdjusting = adjusting.focus
            }
            if values.whiteBalanceIsAutomatic, let gains = values.whiteBalanceGains {
                state.whiteBalance.gains = gains
                state.whiteBalance.isAdjusting = adjusting.whiteBalance
            }
        }
    }
}
