extension CaptureDevice {
    /// Passed to the frame-duration setters to return to the format's default (AVFoundation's
    /// kCMTimeInvalid): 30 fps where the format offers it, else its highest rate.
    public static let defaultFrameDuration = CaptureTime.invalid

    /// The shortest time between frames: the device delivers frames at 1 / this rate unless
    /// `activeVideoMaxFrameDuration` lets it slow down.
    public var activeVideoMinFrameDuration: CaptureTime {
        get {
            observed(\.activeVideoMinFrameDuration)
            return FrameRateRange.duration(for: activeFrameRate)
        }
        set { reportingFailure(of: "activeVideoMinFrameDuration", newValue) { () throws(CaptureError) in try setActiveVideoMinFrameDuration(newValue) } }
    }

    /// The longest time between frames; defaults to `activeVideoMinFrameDuration` (a fixed
    /// rate).
    ///
    /// Longer than the minimum, it lets the device slow down in low light: auto exposure may
    /// lengthen the exposure up to this duration, and once an exposure outlasts the shortest
    /// frame the running source slows to the fastest rate the format offers whose frames hold
    /// it (a V4L2 camera: among the frame intervals its driver offers). Setting both durations
    /// to 1/15 s gives 15 fps. On the virtual camera a custom exposure is held to it too. A
    /// running session changes rate between two frames, without restarting its source.
    public var activeVideoMaxFrameDuration: CaptureTime {
        get {
            observed(\.activeVideoMaxFrameDuration)
            return readState { $0.maxFrameDuration } ?? activeVideoMinFrameDuration
        }
        set { reportingFailure(of: "activeVideoMaxFrameDuration", newValue) { () throws(CaptureError) in try setActiveVideoMaxFrameDuration(newValue) } }
    }

    /// Sets the frame interval, which must be one of the active format's frame-rate ranges
    /// (1 / duration within a range), or `defaultFrameDuration`; needs the configuration lock.
    /// A running session changes its source's rate between two frames; other outputs keep
    /// running. A maximum shorter than the new minimum returns to the minimum.
    public func setActiveVideoMinFrameDuration(_ duration: CaptureTime) throws(CaptureError) {
        try requireConfigurationLock()
        try requireVideo("activeVideoMinFrameDuration")
        let rate = try validatedFrameRate(duration, name: "activeVideoMinFrameDuration")
        withState { state in
            state.activeFrameRate = rate
            if let limit = state.maxFrameDuration, rate.map({ limit.seconds < 1 / $0 }) ?? false { state.maxFrameDuration = nil }
        }
        CaptureSession.deviceFormatChosen(self, formatChanged: false)
    }

    /// Returns both frame durations to the active format's defaults (a new session preset).
    func resetFrameDurations() {
        withState { state in
            state.activeFrameRate = nil
            state.maxFrameDuration = nil
        }
    }

    /// Sets the longest frame interval (validated like the minimum, and at least it), or
    /// `defaultFrameDuration` to follow the minimum; needs the configuration lock. A running
    /// session re-paces its source when the exposure in force needs it.
    public func setActiveVideoMaxFrameDuration(_ duration: CaptureTime) throws(CaptureError) {
        try requireConfigurationLock()
        try requireVideo("activeVideoMaxFrameDuration")
        let validated = try validatedFrameRate(duration, name: "activeVideoMaxFrameDuration")
        defer { CaptureSession.deviceFormatChosen(self, formatChanged: false) }
        guard let rate = validated else {
            withState { $0.maxFrameDuration = nil }
            return
        }
        let minimum = activeVideoMinFrameDuration
        guard 1 / rate >= minimum.seconds - 1e-9 else {
            throw .outOfRange(name: "activeVideoMaxFrameDuration", value: duration.seconds,
                              range: minimum.seconds...(activeFormat.videoSupportedFrameRateRanges.map(\.maxFrameDuration.seconds).max() ?? minimum.seconds))
        }
        withState { $0.maxFrameDuration = duration }
    }

    /// The frame rate `duration` stands for, nil for `defaultFrameDuration`; throws `outOfRange`
    /// with the format's duration range when no frame-rate range contains it.
    private func validatedFrameRate(_ duration: CaptureTime, name: String) throws(CaptureError) -> Double? {
        guard duration.timescale != 0 else { return nil }
        let format = activeFormat
        let rate = duration.seconds > 0 ? 1 / duration.seconds : .infinity
        guard format.videoSupportedFrameRateRanges.contains(where: { rate >= $0.minFrameRate - 1e-6 && rate <= $0.maxFrameRate + 1e-6 }) else {
            let shortest = format.videoSupportedFrameRateRanges.map(\.minFrameDuration.seconds).min() ?? 0
            let longest = format.videoSupportedFrameRateRanges.map(\.maxFrameDuration.seconds).max() ?? 0
            throw .outOfRange(name: name, value: duration.seconds, range: shortest...longest)
        }
        return rate
    }
}
