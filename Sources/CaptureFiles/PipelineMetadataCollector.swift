import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// Handles one `metadata` output's codes during a run: records each code the first time it is
/// seen, and writes it as a JSON line to the output's path when it has one.
///
/// Threading: CaptureKit calls the delegate method on ``queue``, one batch at a time, in order.
final class PipelineMetadataCollector: MetadataOutputObjectsDelegate {
    let queue: DispatchQueue
    private let index: Int
    private let spec: PipelineFile.MetadataSpec
    private let file: URL?
    private let monitor: PipelineRunMonitor
    /// The codes recorded; touched on `queue` only, but kept in a lock so the class is Sendable.
    private let seen = Mutex<Set<String>>([])

    init(index: Int, spec: PipelineFile.MetadataSpec, directory: URL, monitor: PipelineRunMonitor) {
        self.index = index
        self.spec = spec
        self.monitor = monitor
        file = spec.path.map { PipelineRunFiles.resolve($0, in: directory) }
        queue = DispatchQueue(label: "capturefiles.run.\(spec.name)")
    }

    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection) {
        for case let code as MachineReadableCodeObject in metadataObjects {
            let key = "\(code.type.name) \(code.stringValue ?? "")"
            let (inserted, first) = seen.withLock { seen in (seen.insert(key).inserted, seen.count == 1) }
            guard inserted else { continue }
            do throws(PipelineRunError) {
                if let file {
                    // The first code starts the file (replacing one from an earlier run).
                    let line = Data((code.jsonLine(source: spec.connection.input) + "\n").utf8)
                    if first { try PipelineRunFiles.write(line, to: file) } else { try PipelineRunFiles.append(line, to: file) }
                }
                monitor.found(output: index, code: key, file: file?.path)
            } catch {
                monitor.fail(error)
            }
        }
    }
}
