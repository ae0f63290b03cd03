extension CaptureSession {
    /// Starts a batch of changes; nested calls need as many commits.
    public func beginConfiguration() {
        state.withLock { $0.configurationDepth += 1 }
    }

    /// Applies the batch when the outermost begin is committed. On a running session only what
    /// changed is changed in the running pipeline (outputs' branches added or removed, a camera's
    /// source swapped); the other outputs keep running without a gap.
    func checkedCommitConfiguration() throws(CaptureError) {
        let depth = try state.withLock { state throws(CaptureError) -> Int in
            guard state.configurationDepth > 0 else { throw .unbalancedConfiguration }
            state.configurationDepth -= 1
            return state.configurationDepth
        }
        if depth == 0 { try applyGraphIfRunning() }
    }

    /// The session's preset.
    public var sessionPreset: SessionPreset {
        get { state.withLock { $0.preset } }
        set { reportingFailure(of: "sessionPreset", newValue) { () throws(CaptureError) in try setSessionPreset(newValue) } }
    }

    /// Whether every video input's device has a format for `preset`.
    public func canSetSessionPreset(_ preset: SessionPreset) -> Bool {
        preset == .inputPriority || videoDevices.allSatisfy { $0.supportsSessionPreset(preset) }
    }

    /// Sets the preset, choosing each video device's best format for it; throws (naming the
    /// presets that would work) when an input cannot.
    public func setSessionPreset(_ preset: SessionPreset) throws(CaptureError) {
        guard canSetSessionPreset(preset) else {
            let supported = SessionPreset.allCases.filter(canSetSessionPreset)
            throw .unsupportedPreset(preset, supported: supported)
        }
        var changed = false
        try mutateGraph { state in
            changed = state.preset != preset
            state.preset = preset
        }
        // Seed 000: "Choosing a new preset for the capture session also resets this property to
        // its default value" (activeVideoMinFrameDuration and activeVideoMaxFrameDuration).
        if changed { for device in videoDevices { device.resetFrameDurations() } }
    }

    /// A camera joining a session whose preset chooses its format starts at that format's frame
    /// rate, whatever an earlier session or configuration left (AVFoundation resets both frame
    /// durations "when the receiver's AVCaptureDeviceInput is added to a session"). Under
    /// `.inputPriority` the device keeps the format and rate it was given.
    func resetFrameDurations(joining input: any CaptureInput) {
        guard let device = (input as? CaptureDeviceInput)?.device else { return }
        device.joined(self)
        guard device.hasMediaType(.video),
              state.withLock({ $0.preset }) != .inputPriority else { return }
        device.resetFrameDurations()
    }

    /// An output's settings changed its branch: a running session changes that branch (after the batch, if one is open).
    func outputBranchChanged() {
        // A failure is posted as a runtime error; the output's setter has nothing to return it to.
        try? mutateGraph { _ in }
    }

    var videoDevices: [CaptureDevice] {
        state.withLock { $0.inputs.compactMap { ($0 as? CaptureDeviceInput)?.device } }
    }

    /// Applies a change to the graph, then the preset to the devices, then runs `changed` (off
    /// the lock), then changes a running pipeline unless a configuration batch is open. `change`
    /// checks and changes in one hold of the lock, so two threads cannot both add one input.
    /// Throws what `change` throws (nothing changed), or when the running pipeline cannot
    /// follow: the change stays, the session has stopped and posted the error as a runtime error
    /// (as `commitConfiguration` does).
    func mutateGraph(_ change: (inout State) throws(CaptureError) -> Void, changed: () -> Void = {}) throws(CaptureError) {
        let open = try state.withLock { state throws(CaptureError) -> Bool in
            try change(&state)
            if state.preset != .inputPriority {
                for case let input as CaptureDeviceInput in state.inputs {
                    if let format = state.preset.bestFormat(among: input.device.formats) {
                        input.device.applyActiveFormat(format)
                    }
                }
            }
            return state.configurationDepth > 0
        }
        changed()
        if !open { try applyGraphIfRunning() }
    }
}
