import CaptureKit
import Foundation

extension PipelineRunReport {
    /// What one output did during a run.
    public struct OutputResult: Sendable, Equatable {
        /// The output's name in the file.
        public var name: String
        /// The output's kind: `still`, `videoData`, `metadata`, `audioData`, `movie`, `stream` or `preview`.
        public var kind: String
        /// What a `videoData` output did with its frames; nil for a `still` output.
        public var action: PipelineFile.VideoDataAction?
        /// Stills taken (`still`), frames handled (`videoData`), codes found (`metadata`),
        /// sample buffers handled (`audioData`), movies finished (`movie`), frames sent (`stream`) or shown (`preview`).
        public var count: Int
        /// Frames the output discarded because the run was still busy with an earlier one
        /// (`videoData` with `discardLate`), or sample buffers an `audioData` output dropped
        /// because its delegate queue was full, or frames a `movie` output's recording or a
        /// `stream` output left out;
        /// 0 for a `still` output.
        public var droppedFrames: Int
        /// The files written, in the order written: each still, each `dump` file, an
        /// `audioData` output's WAV file, or a `movie` output's movie.
        public var files: [String]
        /// The mean luma (0...255, BT.601 weights for RGB formats) of each handled frame, in
        /// order; filled only for the `stats` action.
        public var meanLuma: [Double]
        /// "TYPE VALUE" of each code a `metadata` output found, in the order first seen.
        public var codes: [String]
        /// Audio frames (samples per channel) an `audioData` output handled; 0 for other outputs.
        public var audioFrames: Int
        /// The format of an `audioData` output's audio (what its WAV file holds); nil for other
        /// outputs, and for an `audioData` output that had no audio and wrote no file.
        public var audioFormat: AudioFormat?
        /// The seconds a `movie` output recorded into its file; nil for other outputs.
        public var recordedSeconds: Double?
        /// What went wrong without failing the run: a `movie` output's file left in fragments
        /// (complete and playable, without its final index), each naming the file and why.
        public var warnings: [String]

        /// Creates an output result.
        /// - Parameters:
        ///   - name: The output's name.
        ///   - kind: `still`, `videoData`, `metadata` or `audioData`.
        ///   - action: The `videoData` action, or nil.
        ///   - count: Stills taken or frames handled.
        ///   - droppedFrames: Frames discarded.
        ///   - files: The files written.
        ///   - meanLuma: The per-frame mean luma, for `stats`.
        ///   - codes: The codes a `metadata` output found.
        ///   - audioFrames: The audio frames an `audioData` output handled.
        ///   - audioFormat: The format of an `audioData` output's audio.
        ///   - recordedSeconds: The seconds a `movie` output recorded.
        ///   - warnings: What went wrong without failing the run.
        public init(
            name: String,
            kind: String,
            action: PipelineFile.VideoDataAction?,
            count: Int,
            droppedFrames: Int,
            files: [String],
            meanLuma: [Double],
            codes: [String] = [],
            audioFrames: Int = 0,
            audioFormat: AudioFormat? = nil,
            recordedSeconds: Double? = nil,
            warnings: [String] = []
        ) {
            self.name = name
            self.kind = kind
            self.action = action
            self.count = count
            self.droppedFrames = droppedFrames
            self.files = files
            self.meanLuma = meanLuma
            self.codes = codes
            self.audioFrames = audioFrames
            self.audioFormat = audioFormat
            self.recordedSeconds = recordedSeconds
            self.warnings = warnings
        }

        /// The average of ``meanLuma`` over the frames, if any were measured.
        public var averageMeanLuma: Double? {
            meanLuma.isEmpty ? nil : meanLuma.reduce(0, +) / Double(meanLuma.count)
        }

        /// The length of the audio an `audioData` output handled, in seconds; nil for other outputs.
        public var audioSeconds: Double? {
            audioFormat.map { Double(audioFrames) / Double($0.sampleRate) }
        }

        /// One line: the output, its count and, for `stats`, its luma; for `audioData` the
        /// length and format of its audio.
        public var summary: String {
            if kind == "audioData" {
                var text = "audioData '\(name)': \(count) sample buffer\(count == 1 ? "" : "s")"
                if let format = audioFormat, let seconds = audioSeconds {
                    text += String(format: " (%.2f s of ", seconds) + "\(format))"
                }
                return text + ", \(droppedFrames) dropped"
            }
            if kind == "movie" {
                return "movie '\(name)': " + String(format: "%.2f s recorded", recordedSeconds ?? 0) + ", \(droppedFrames) dropped"
            }
            if kind == "stream" {
                return "stream '\(name)': \(count) frame\(count == 1 ? "" : "s") sent, \(droppedFrames) dropped"
            }
            if kind == "preview" {
                return "preview '\(name)': \(count) frame\(count == 1 ? "" : "s") shown"
            }
            if kind == "metadata" {
                return "metadata '\(name)': \(count) code\(count == 1 ? "" : "s")" + (codes.isEmpty ? "" : " (" + codes.joined(separator: "; ") + ")")
            }
            guard let action else {
                return "still '\(name)': \(count) still\(count == 1 ? "" : "s")"
            }
            var text = "videoData '\(name)' (\(action.rawValue)): \(count) frame\(count == 1 ? "" : "s"), "
                + "\(droppedFrames) dropped"
            if let average = averageMeanLuma, let low = meanLuma.min(), let high = meanLuma.max() {
                text += String(format: ", mean luma %.1f (min %.1f, max %.1f)", average, low, high)
            }
            return text
        }
    }
}
