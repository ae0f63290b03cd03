import CaptureKit
import Dispatch
import Foundation

/// What `--on` makes a trigger of a segmented recording's events: `SIGUSR1` (`signal`), and a
/// code, a face or motion the metadata output sees (`code`, `face`, `motion`, through
/// ``MetadataEventTrigger``).
///
/// Threading: the signal's handler runs on the trap's own queue, the metadata delegate on its
/// queue; both only call `triggerEvent`, which never waits.
final class EventTriggers {
    private let output: SegmentedMovieFileOutput
    private let kinds: Set<String>
    private let motion: MotionDetectionSettings
    private let queue = DispatchQueue(label: "capture.record.triggers")
    private let seen: MetadataEventTrigger
    nonisolated(unsafe) private var signalSource: (any DispatchSourceSignal)?

    init(output: SegmentedMovieFileOutput, kinds: Set<String>, motion: MotionDetectionSettings = .init()) {
        self.output = output
        self.kinds = kinds
        self.motion = motion
        seen = MetadataEventTrigger(recording: output, kinds: Set(kinds.compactMap(MetadataEventTrigger.Kind.init(rawValue:))))
    }

    deinit { signalSource?.cancel() }

    /// Adds the metadata output the triggers need to `session`, and takes SIGUSR1 for `signal`.
    func install(in session: CaptureSession) throws {
        if !seen.kinds.isEmpty {
            let metadata = MetadataOutput()
            try session.checked.addOutput(metadata)
            try seen.watch(metadata, motion: motion, queue: queue)
        }
        if kinds.contains("signal") {
            signal(SIGUSR1, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: queue)
            source.setEventHandler { [output] in output.triggerEvent("signal") }
            source.resume()
            signalSource = source
        }
    }
}
