import CaptureKit
import Dispatch
import Foundation

/// Handles one `videoData` output's frames during a run: counts them, dumps their bytes or
/// measures their luma, and reports to the run's monitor.
///
/// Threading: CaptureKit calls both delegate methods on ``queue``, one at a time, so frames are
/// handled in order and the dump file is written by one thread.
final class PipelineFrameCollector: VideoDataOutputSampleBufferDelegate {
    /// The serial queue the output delivers frames on.
    let queue: DispatchQueue
    private let index: Int
    private let spec: PipelineFile.VideoDataSpec
    private let directory: URL
    private let monitor: PipelineRunMonitor

    /// A collector for the file's output at `index`, writing relative paths under `directory`.
    init(index: Int, spec: PipelineFile.VideoDataSpec, directory: URL, monitor: PipelineRunMonitor) {
        self.index = index
        self.spec = spec
        self.directory = directory
        self.monitor = monitor
        queue = DispatchQueue(label: "capturefiles.run.\(spec.name)")
    }

    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        guard let frame = monitor.nextFrame(ofOutput: index) else { return }
        do throws(PipelineRunError) {
            switch spec.action {
            case .count:
                monitor.completed(output: index)
            case .dump:
                let path = try dump(sampleBuffer, frame: frame)
                monitor.completed(output: index, file: path)
            case .stats:
                monitor.completed(output: index, meanLuma: try LumaMeter.meanLuma(of: sampleBuffer))
            }
        } catch {
            monitor.fail(error)
        }
    }

    func captureOutput(_ output: CaptureOutput, didDrop sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        monitor.dropped(output: index)
    }

    /// Writes the frame's bytes to the path pattern: one file per frame when the pattern has
    /// `{n}`, otherwise appended to one file (created afresh by the first frame).
    private func dump(_ sample: SampleBuffer, frame: Int) throws(PipelineRunError) -> String {
        let pattern = spec.path ?? "\(spec.name)-\(PipelineFile.StillSpec.indexPlaceholder).raw"
        let perFrame = pattern.contains(PipelineFile.StillSpec.indexPlaceholder)
        let url = PipelineRunFiles.resolve(
            pattern.replacing(PipelineFile.StillSpec.indexPlaceholder, with: String(frame)),
            in: directory
        )
        let data: Data
        do {
            data = try sample.withUnsafeBytes { Data($0) }
        } catch {
            throw .capture(error as? CaptureError ?? .wrongSampleFormat(expected: "raw video", found: "\(error)"),
                           during: "videoData output '\(spec.name)'")
        }
        if perFrame || frame == 1 {
            try PipelineRunFiles.write(data, to: url)
        } else {
            try PipelineRunFiles.append(data, to: url)
        }
        return url.path
    }
}
