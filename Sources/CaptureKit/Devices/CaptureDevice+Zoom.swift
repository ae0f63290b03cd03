import Foundation

extension CaptureDevice {
    /// The zoom factor: 1 shows the whole field; 2 crops the centre half and scales it up.
    public var videoZoomFactor: Double {
        get {
            observed(\.videoZoomFactor)
            return readState { $0.zoom.factor }
        }
        set { reportingFailure(of: "videoZoomFactor", newValue) { () throws(CaptureError) in try setVideoZoomFactor(newValue) } }
    }

    /// Sets the zoom factor, 1 … `activeFormat.videoMaxZoomFactor`; needs the configuration
    /// lock. The virtual camera (and, later, cameras without `zoom_absolute`) zooms digitally:
    /// crop around the centre and scale, from the next frame on.
    public func setVideoZoomFactor(_ factor: Double) throws(CaptureError) {
        try requireConfigurationLock()
        let maximum = maxZoomFactor
        guard maximum > 1 else { throw .unsupported(feature: "zoom", device: uniqueID) }
        guard (1...maximum).contains(factor) else { throw .outOfRange(name: "video zoom factor", value: factor, range: 1...maximum) }
        withState { state in
            state.zoom.factor = factor
            state.zoom.ramp = nil
            state.sensor.changed(notifying: nil)
        }
        try applyZoom(factor)
    }

    /// Whether zoom is digital in the pipeline (`DigitalZoom`): V4L2 cameras without
    /// zoom_absolute, and test patterns whose format zooms.
    var zoomsInPipeline: Bool { capabilities.bySoftware(.zoom, .digitalZoom) }

    /// Makes the camera zoom to `factor` (the virtual sensor zooms by itself): zoom_absolute
    /// (UVC counts 100 = 1×), or the running pipeline's crop.
    func applyZoom(_ factor: Double) throws(CaptureError) {
        if zoomsInPipeline {
            guard let running = readState({ $0.runningSource }) else { return }
            let format = activeFormat
            try running.setCrop(DigitalZoom.crop(width: format.width, height: format.height, factor: factor))
        } else {
            try applyControl(.zoom(factor))
        }
    }

    /// The largest zoom factor: what the device's capabilities say (a V4L2 camera's
    /// zoom_absolute span, or its digital zoom's), else the active format's.
    var maxZoomFactor: Double { capabilities.maxZoomFactor ?? activeFormat.videoMaxZoomFactor }

    /// Whether a `ramp(toVideoZoomFactor:withRate:)` is under way.
    public var isRampingVideoZoom: Bool {
        observed(\.isRampingVideoZoom)
        return readState { $0.zoom.ramp != nil }
    }

    /// Zooms smoothly to `factor` at `rate` powers of two per second (1: doubling each second),
    /// exponentially, frame by frame; needs the configuration lock. A rate of 0 is
    /// `cancelVideoZoomRamp()`: a ramp under way slows to a stop.
    func checkedRamp(toVideoZoomFactor factor: Double, withRate rate: Float) throws(CaptureError) {
        try requireConfigurationLock()
        let maximum = maxZoomFactor
        guard maximum > 1 else { throw .unsupported(feature: "zoom", device: uniqueID) }
        guard (1...maximum).contains(factor) else { throw .outOfRange(name: "video zoom factor", value: factor, range: 1...maximum) }
        guard rate.isFinite && rate >= 0 else { throw .outOfRange(name: "zoom ramp rate", value: Double(rate), range: 0...Double(Float.greatestFiniteMagnitude)) }
        guard rate > 0 else { return brakeZoomRamp() }
        withState { $0.zoom.ramp = ZoomState.Ramp(target: factor, rate: Double(rate), startFactor: $0.zoom.factor, startTime: nil) }
    }

    /// Slows a ramp under way to a stop over `ZoomState.Ramp.brakingTime` (its rate falling
    /// evenly to 0) rather than stopping it dead; the same as a ramp at rate 0. Needs the
    /// configuration lock.
    func checkedCancelVideoZoomRamp() throws(CaptureError) {
        try requireConfigurationLock()
        try requireVideo("zoom ramp")
        brakeZoomRamp()
    }

    private func brakeZoomRamp() {
        withState { state in
            guard var ramp = state.zoom.ramp, ramp.braking == nil else { return }
            guard ramp.startTime != nil else {
                state.zoom.ramp = nil  // it had not moved yet
                return
            }
            ramp.braking = .requested
            state.zoom.ramp = ramp
        }
    }

    /// Called once per frame, before the frame at `time` is painted (virtual sensor) or reaches
    /// the tee (other cameras): moves a ramp on to where it should be at that frame.
    func advanceZoomRamp(at time: CaptureTime) {
        guard readState({ $0.zoom.ramp != nil }) else { return }
        withState { state in
            guard var ramp = state.zoom.ramp else { return }
            let (factor, done) = ramp.advance(to: time)
            state.zoom.ramp = done ? nil : ramp
            if factor != state.zoom.factor {
                state.zoom.factor = factor
                state.sensor.changed(notifying: nil)
            }
        }
        guard completesByMetering else { return }
        let factor = readState { $0.zoom.factor }
        if zoomsInPipeline { try? applyZoom(factor) } else {
            loopWrites.async { try? self.applyZoom(factor) }
        }
    }
}

/// Zoom settings a device holds.
struct ZoomState {
    /// A zoom ramp: from `startFactor` at `startTime` (the first frame it applies to) towards
    /// `target` at `rate` powers of two per second.
    struct Ramp {
        /// How long a cancelled ramp takes to slow to a stop.
        static let brakingTime = 0.25

        /// A cancelled ramp slowing down: asked for, then from the factor and time of the first
        /// frame after the request.
        enum Braking {
            case requested
            case from(factor: Double, time: CaptureTime)
        }

        var target: Double
        var rate: Double
        var startFactor: Double
        var startTime: CaptureTime?
        var braking: Braking?

        /// The factor for the frame at `time`, and whether the
        /// ramp has ended: reached its target, or slowed to a stop. While braking, the rate falls
        /// evenly from `rate` to 0 over `brakingTime`, covering `rate × brakingTime / 2` stops.
        mutating func advance(to time: CaptureTime) -> (factor: Double, done: Bool) {
            let up = target >= startFactor
            func toward(_ base: Double, stops: Double) -> Double {
                up ? min(target, base * pow(2, stops)) : max(target, base / pow(2, stops))
            }
            switch braking {
            case nil, .requested?:
                let start = startTime ?? time
                startTime = start
                let factor = toward(startFactor, stops: rate * (time.seconds - start.seconds))
                if case .requested? = braking { braking = .from(factor: factor, time: time) }
                return (factor, factor == target)
            case .from(let factor, let start)?:
                let elapsed = min(Self.brakingTime, max(0, time.seconds - start.seconds))
                let stops = rate * (elapsed - elapsed * elapsed / (2 * Self.brakingTime))
                let next = toward(factor, stops: stops)
                return (next, next == target || elapsed >= Self.brakingTime)
            }
        }
    }

    var factor = 1.0
    var ramp: Ramp?
}
