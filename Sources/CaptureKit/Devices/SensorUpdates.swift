import Dispatch

/// Changes to settings a sensor applies on a frame boundary, and the completion handlers
/// waiting for the first frame that carries them.
struct SensorUpdates {
    /// Counts changes, so the sensor knows when to re-render and whom to tell.
    private(set) var generation = 0
    private var waiting: [(generation: Int, handler: @Sendable (CaptureTime) -> Void)] = []

    /// Records a change; `handler` runs with the presentation time of the first frame with it.
    mutating func changed(notifying handler: (@Sendable (CaptureTime) -> Void)?) {
        generation += 1
        if let handler { waiting.append((generation, handler)) }
    }

    /// Takes the handlers satisfied by a frame painted with settings of `generation`.
    mutating func take(upTo generation: Int) -> [@Sendable (CaptureTime) -> Void] {
        guard !waiting.isEmpty else { return [] }
        let ready = waiting.filter { $0.generation <= generation }.map(\.handler)
        waiting.removeAll { $0.generation <= generation }
        return ready
    }
}

extension CaptureDevice {
    /// Called by the sensor on the first frame painted with settings `generation`: completion
    /// handlers get that frame's presentation time, on the device callback queue.
    func sensorApplied(generation: Int, at time: CaptureTime) {
        // No observable property changes here: the lock alone, called on every V4L2 frame.
        let ready = state.withLock { $0.sensor.take(upTo: generation) }
        guard !ready.isEmpty else { return }
        callbacks.async { for handler in ready { handler(time) } }
    }

    /// Where the device's completion handlers and change announcements run, in order: its own
    /// queue.
    var callbacks: DispatchQueue { state.callbacks }
}

extension CaptureDevice {
    /// Changes to the device's own settings so far (exposure, white balance, torch, flash, focus,
    /// zoom, HDR, and the steps of CaptureKit's automatic loops), not counting a virtual scene's
    /// light: motion detection does not compare across them.
    var ownSettingsChanges: Int { readState { $0.sensor.generation - $0.sceneChanges } }
}
