import CaptureKit
import Dispatch
import Foundation

/// What `--on` makes a trigger of a segmented recording's events: `SIGUSR1` (`signal`), a code
/// or a face the metadata output sees (`code`, `face`), motion it measures (`motion`).
///
/// Threading: the signal's handler runs on the trap's own queue, the metadata delegate on its
/// queue; both only call `triggerEvent`, which never waits.
final class EventTriggers: MetadataOutputObjectsDelegate {
    /// The kinds `--on` takes.
    static let kinds = ["signal", "code", "face", "motion"]

    private let output: SegmentedMovieFileOutput
    private let kinds: Set<String>
    private let motion: MotionDetectionSettings
    private let queue = DispatchQueue(label: "capture.record.triggers")
    nonisolated(unsafe) private var signalSource: (any DispatchSourceSignal)?

    init(output: SegmentedMovieFileOutput, kinds: Set<String>, motion: MotionDetectionSettings = .init()) {
        self.output = output
        self.kinds = kinds
        self.motion = motion
    }

    deinit { signalSource?.cancel() }

    /// The metadata types the triggers need (none without `code`, `face` or `motion`).
    var metadataTypes: [MetadataObjectType] {
        (kinds.contains("code") ? MetadataObjectType.machineReadableCodes : []) + (kinds.contains("face") ? [.face] : [])
            + (kinds.contains("motion") ? [.motion] : [])
    }

    /// Adds the metadata output the triggers need to `session`, and takes SIGUSR1 for `signal`.
    func install(in session: CaptureSession) throws {
        if !metadataTypes.isEmpty {
            let metadata = MetadataOutput()
            try session.checked.addOutput(metadata)
            try metadata.setMetadataObjectTypes(metadataTypes.filter { metadata.availableMetadataObjectTypes.contains($0) })
            try metadata.setMotionDetection(motion)
            metadata.setMetadataObjectsDelegate(self, queue: queue)
        }
        if kinds.contains("signal") {
            signal(SIGUSR1, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: queue)
            source.setEventHandler { [output] in output.triggerEvent("signal") }
            source.resume()
            signalSource = source
        }
    }

    /// Each kind asked for that the batch has triggers an event, with where its objects are.
    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection) {
        let kindOf: (MetadataObjectType) -> String = { $0 == .face ? "face" : $0 == .motion ? "motion" : "code" }
        var places: [String: CGRect] = [:]
        for object in metadataObjects where kinds.contains(kindOf(object.type)) {
            places[kindOf(object.type)] = places[kindOf(object.type)].map { $0.union(object.bounds) } ?? object.bounds
        }
        for (kind, bounds) in places.sorted(by: { $0.key < $1.key }) { self.output.triggerEvent(kind, bounds: bounds) }
    }
}
