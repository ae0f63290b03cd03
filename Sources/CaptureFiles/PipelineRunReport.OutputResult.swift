import Foundation

extension PipelineRunReport {
    /// What one output did during a run.
    public struct OutputResult: Sendable, Equatable {
        /// The output's name in the file.
        public var name: String
        /// The output's kind: `still`, `videoData` or `metadata`.
        public var kind: String
        /// What a `videoData` output did with its frames; nil for a `still` output.
        public var action: PipelineFile.VideoDataAction?
        /// Stills taken (`still`), frames handled (`videoData`) or codes found (`metadata`).
        public var count: Int
        /// Frames the output discarded because the run was still busy with an earlier one
        /// (`videoData` with `discardLate`); 0 for a `still` output.
        public var droppedFrames: Int
        /// The files written, in the order written: each still, or each `dump` file.
        public var files: [String]
        /// The mean luma (0...255, BT.601 weights for RGB formats) of each handled frame, in
        /// order; filled only for the `stats` action.
        public var meanLuma: [Double]
        /// "TYPE VALUE" of each code a `metadata` output found, in the order first seen.
        public var codes: [String]

        /// Creates an output result.
        /// - Parameters:
        ///   - name: The output's name.
        ///   - kind: `still` or `videoData`.
        ///   - action: The `videoData` action, or nil.
        ///   - count: Stills taken or frames handled.
        ///   - droppedFrames: Frames discarded.
        ///   - files: The files written.
        ///   - meanLuma: The per-frame mean luma, for `stats`.
        public init(
            name: String,
            kind: String,
            action: PipelineFile.VideoDataAction?,
            count: Int,
            droppedFrames: Int,
            files: [String],
            meanLuma: [Double],
            codes: [String] = []
        ) {
            self.name = name
            self.kind = kind
            self.action = action
            self.count = count
            self.droppedFrames = droppedFrames
            self.files = files
            self.meanLuma = meanLuma
            self.codes = codes
        }

        /// The average of ``meanLuma`` over the frames, if any were measured.
        public var averageMeanLuma: Double? {
            meanLuma.isEmpty ? nil : meanLuma.reduce(0, +) / Double(meanLuma.count)
        }

        /// One line: the output, its count and, for `stats`, its luma.
        public var summary: String {
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
