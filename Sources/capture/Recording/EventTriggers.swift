import CaptureKit
import Dispatch
import Foundation

/// What `--on` makes a trigger of a segmented recording's events: `SIGUSR1` (`signal`), a code
/// or a face the metadata output sees (`code`, `face`).
///
/// Threading: the signal's handler runs on the trap's own queue, the metadata delegate on its
/// queue; both only call `triggerEvent`, which never waits.
final class EventTriggers: MetadataOutputObjectsDelegate {
    /// The kinds `--on` takes.
    static let kinds = ["signal", "code", "face"]

    private let output: SegmentedMovieFileOutput
    private let kinds: Set<String>
    private let queue = DispatchQueue(label: "capture.record.triggers")
    nonisolated(unsafe) private var signalSource: (any DispatchSourceSignal)?

    init(output: SegmentedMovieFileOutput, kinds: Set<String>) {
        self.output = output
        self.kinds = kinds
    }

    deinit { signalSource?.cancel() }

    /// The metadata types the triggers need (none without `code` or `face`).
    var metadataTypes: [MetadataObjectType] {
        (kinds.contains("code") ? MetadataObjectType.machineReadableCodes : []) + (kinds.contains("face") ? [.face] : [])
    }

    /// Adds the metadata output the triggers need to `session`, and takes SIGUSR1 for `signal`.
    func install(in session: CaptureSession) throws {
        if !metadataTypes.isEmpty {
            let metadata = MetadataOutput()
            try session.checked.addOutput(metadata)
            try metadata.setMetadataObjectTypes(metadataTypes.filter { metadata.availableMetadataObjectTypes.contains($0) })
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

    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection) {
        if kinds.contains("face"), metadataObjects.contains(where: { $0.type == .face }) { self.output.triggerEvent("face") }
        if kinds.contains("code"), metadataObjects.contains(where: { $0.type != .face }) { self.output.triggerEvent("code") }
    }
}
