import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// Handles one `audioData` output's sample buffers during a run: counts them (up to the
/// output's `count`), writes them to its WAV file, and reports to the run's monitor.
///
/// Threading: CaptureKit calls the delegate method on ``queue``, one buffer at a time in
/// presentation order; ``finish(expectedFormat:)`` runs after the queue has drained.
final class PipelineAudioCollector: AudioDataOutputSampleBufferDelegate {
    /// The serial queue the output delivers buffers on.
    let queue: DispatchQueue
    private let index: Int
    private let spec: PipelineFile.AudioDataSpec
    private let file: URL?
    private let monitor: PipelineRunMonitor
    /// The open WAV file, once the first buffer has arrived; touched on `queue` and by `finish`
    /// after it, in a lock so the class is Sendable.
    private let writer = Mutex<WAVFileWriter?>(nil)

    /// A collector for the file's output at `index`, writing a relative `write` path under `directory`.
    init(index: Int, spec: PipelineFile.AudioDataSpec, directory: URL, monitor: PipelineRunMonitor) {
        self.index = index
        self.spec = spec
        self.monitor = monitor
        file = spec.path.map { PipelineRunFiles.resolve($0, in: directory) }
        queue = DispatchQueue(label: "capturefiles.run.\(spec.name)")
    }

    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        guard monitor.nextItem(ofOutput: index, limit: spec.count) != nil,
              let format = sampleBuffer.formatDescription.audioFormat else { return }
        do throws(PipelineRunError) {
            if let file { try write(sampleBuffer, format: format, to: file) }
            monitor.handledAudio(output: index, frames: sampleBuffer.numSamples, format: format, file: file?.path)
        } catch {
            monitor.fail(error)
        }
    }

    /// Appends the buffer's samples to the WAV file, creating it with the first buffer's format.
    private func write(_ sample: SampleBuffer, format: AudioFormat, to url: URL) throws(PipelineRunError) {
        try writer.withLock { writer throws(PipelineRunError) in
            if writer == nil { writer = try WAVFileWriter(url: url, format: format) }
            guard let wav = writer, wav.format == format else {
                throw .capture(.wrongSampleFormat(expected: "\(writer?.format.description ?? "") audio", found: "\(format) audio"),
                               during: "audioData output '\(spec.name)' writing \(url.path)")
            }
            do {
                try sample.withAudioBytes { bytes in try wav.append(bytes) }
            } catch let error as PipelineRunError {
                throw error
            } catch {
                throw .capture(error as? CaptureError ?? .wrongSampleFormat(expected: "audio", found: "\(error)"),
                               during: "audioData output '\(spec.name)'")
            }
        }
    }

    /// Completes the WAV file: the real lengths in its header. When no buffer arrived and an
    /// `expectedFormat` is given (the device's format with the output's settings), it writes the
    /// file empty in that format and records it with the monitor.
    func finish(expectedFormat: AudioFormat?) throws(PipelineRunError) {
        guard let file else { return }
        try writer.withLock { writer throws(PipelineRunError) in
            if writer == nil, let expectedFormat {
                writer = try WAVFileWriter(url: file, format: expectedFormat)
                monitor.wroteAtEnd(output: index, file: file.path, format: expectedFormat)
            }
            try writer?.close()
        }
    }
}
