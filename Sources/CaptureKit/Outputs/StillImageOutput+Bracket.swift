extension StillImageOutput {
    /// The most images one bracket may hold.
    public var maxBracketedCaptureStillImageCount: Int { 8 }

    /// Checks a bracket and readies the device for it; `completionHandler` gets whether it is
    /// ready, or the error that `captureStillImageBracket` would throw, on a CaptureKit queue.
    public func prepareToCaptureStillImageBracket(from connection: CaptureConnection,
                                                  withSettingsArray settings: [any BracketedStillImageSettings],
                                                  completionHandler: @escaping @Sendable (Bool, CaptureError?) -> Void) {
        do throws(CaptureError) {
            _ = try bracketPlan(connection, settings)
            callbackQueue.async { completionHandler(true, nil) }
        } catch {
            callbackQueue.async { completionHandler(false, error) }
        }
    }

    /// Captures one still per settings, in order. Each overrides the device's exposure for its
    /// image only (the device's own settings return after the bracket). A V4L2 camera takes
    /// each image's exposure through its manual controls (exposure time, gain), and its image
    /// is taken once a frame shows it: the camera applies controls a few frames late, so
    /// CaptureKit meters the frames for the change (as the completion handler of
    /// `CaptureDevice.setExposureModeCustom` does) rather than counting them. Auto-exposure images are
    /// offset from the exposure auto exposure meters when the bracket begins, and the flash does
    /// not fire (seed 003: flash settings are ignored during a bracket); the handler runs once
    /// per image, in order, with the settings it used, on the output's queue (after the handlers
    /// of earlier requests). Throws at once for
    /// an empty or mixed bracket, more than `maxBracketedCaptureStillImageCount` images, values
    /// out of range, a device with neither manual exposure nor a gain control, or an inactive connection.
    public func captureStillImageBracket(from connection: CaptureConnection,
                                         withSettingsArray settings: [any BracketedStillImageSettings],
                                         completionHandler: @escaping @Sendable (SampleBuffer?, (any BracketedStillImageSettings)?, CaptureError?) -> Void) throws(CaptureError) {
        let (device, overrides) = try bracketPlan(connection, settings)
        let completions = self.completions
        let tickets = settings.map { _ in completions.ticket() }
        Task {
            for ((setting, override), ticket) in zip(zip(settings, overrides), tickets) {
                await device.applyBracketOverride(override)
                do {
                    // Seed 003: flash settings are ignored during a bracket.
                    let sample = try await captureUnlitStillImage(from: connection)
                    completions.complete(ticket) { completionHandler(sample, setting, nil) }
                } catch {
                    let failure = error as? CaptureError ?? .captureCancelled
                    completions.complete(ticket) { completionHandler(nil, setting, failure) }
                }
            }
            await device.applyBracketOverride(nil)
        }
    }

    /// AVFoundation's form of ``captureStillImageBracket(from:withSettingsArray:completionHandler:)``:
    /// it does not throw, and a bracket it refuses calls the handler once with the error and
    /// no image, on the output's queue. The handler may be a plain, non-`Sendable` closure: it
    /// runs only there.
    public func captureStillImageBracketAsynchronously(from connection: CaptureConnection,
                                                       withSettingsArray settings: [any BracketedStillImageSettings],
                                                       completionHandler handler: @escaping (CMSampleBuffer?, (any BracketedStillImageSettings)?, Error?) -> Void) {
        let handler = UncheckedDelegate(value: handler)
        do throws(CaptureError) {
            try captureStillImageBracket(from: connection, withSettingsArray: settings) { sample, setting, error in
                handler.value(sample, setting, error)
            }
        } catch {
            completions.complete(completions.ticket()) { handler.value(nil, nil, error) }
        }
    }

    /// Validates a bracket: its device, connection, kinds, count and values.
    private func bracketPlan(_ connection: CaptureConnection, _ settings: [any BracketedStillImageSettings])
        throws(CaptureError) -> (CaptureDevice, [ExposureOverride]) {
        guard connections.contains(where: { $0 === connection }), connection.isEnabled, connection.isActive,
              let device = connection.device else {
            throw .inactiveConnection("\(connection)")
        }
        guard !settings.isEmpty, settings.count <= maxBracketedCaptureStillImageCount else {
            throw .invalidSetting(name: "bracket size", value: "\(settings.count)", valid: "1...\(maxBracketedCaptureStillImageCount)")
        }
        let autos = settings.compactMap { $0 as? AutoExposureBracketedStillImageSettings }
        let manuals = settings.compactMap { $0 as? ManualExposureBracketedStillImageSettings }
        guard autos.count == settings.count || manuals.count == settings.count else {
            throw .invalidSetting(name: "bracket", value: "mixed settings", valid: "all AutoExposure… or all ManualExposure…BracketedStillImageSettings")
        }
        // Brackets override exposure per image: in the virtual sensor, or through a camera's
        // manual exposure controls (its gain alone where it has no exposure time).
        guard device.isExposureModeSupported(.custom) || device.capabilities.byDevice(.iso) else { throw .unsupported(feature: "bracketed exposure", device: device.uniqueID) }
        if !autos.isEmpty { device.refreshExposureReading() }
        var overrides: [ExposureOverride] = []
        for auto in autos {
            guard (-8...8).contains(auto.exposureTargetBias) || auto.exposureTargetBias == CaptureDevice.currentExposureTargetBias else {
                throw .outOfRange(name: "exposure target bias", value: Double(auto.exposureTargetBias), range: -8...8)
            }
            overrides.append(device.biasedExposure(auto.exposureTargetBias))
        }
        for manual in manuals {
            try device.validateExposure(duration: manual.exposureDuration, iso: manual.iso)
            overrides.append(.manual(duration: manual.exposureDuration, iso: manual.iso))
        }
        return (device, overrides)
    }
}
