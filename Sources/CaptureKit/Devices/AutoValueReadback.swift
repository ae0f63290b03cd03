import Dispatch
import Synchronization

/// Reads a running camera's own automatic values (`DeviceController.autoValuesNow`) at its frame
/// rate and posts them as the device's `exposureDuration`, `iso`, `lensPosition`,
/// `deviceWhiteBalanceGains` and `isAdjusting…` (observation changes) while the camera's own
/// automatic switches are on.
///
/// A V4L2 camera's auto exposure, focus and white balance move its controls without telling
/// anyone (uvcvideo sends control events for few of them, vivid for none), so the controls are
/// polled: a few ioctls a frame, on a queue of its own, never on the streaming thread. Lives as
/// long as the running source; `cancel()` stops it.
final class AutoValueReadback: Sendable {
    private let timer: Mutex<(any DispatchSourceTimer)?>

    /// Starts reading `device` through `controller` `frameRate` times a second.
    init(device: CaptureDevice, controller: any DeviceController, frameRate: Double) {
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "capturekit.autovalues.\(device.uniqueID)"))
        let adjustment = Mutex(AutoAdjustment())
        let interval = 1 / min(max(frameRate, 1), 60)
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 250)))
        source.setEventHandler { [weak device] in
            guard let device, let values = controller.autoValuesNow(of: device) else { return }
            let adjusting = adjustment.withLock { $0.take(values) }
            device.applyAutoValues(values, adjusting: adjusting)
        }
        source.resume()
        timer = Mutex(source)
    }

    /// Stops reading; no reading runs after it returns to its queue.
    func cancel() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    deinit { cancel() }
}
