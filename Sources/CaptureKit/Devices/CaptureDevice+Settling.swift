extension CaptureDevice {
    /// Waits until the auto modes CaptureKit runs have settled on a running device: no
    /// autofocus search, auto exposure and white balance no longer moving. Gives the loop two
    /// frames to notice a change first; returns false when `timeout` passes first. For one-shot
    /// captures after a change (`capture snap --ev`, `--focus auto`).
    public func waitForAutoModesToSettle(timeout: Duration = .seconds(2)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let frame = Duration.seconds(1 / max(activeFrameRate, 1))
        try? await Task.sleep(for: frame * 2)
        while clock.now < deadline {
            let adjusting = readState { $0.focus.isAdjusting || $0.exposure.isAdjusting || $0.whiteBalance.isAdjusting }
            if !adjusting { return true }
            try? await Task.sleep(for: frame / 2)
        }
        return false
    }
}
