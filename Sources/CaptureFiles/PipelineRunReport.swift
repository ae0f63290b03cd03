import Foundation

/// What a run of a pipeline file's session did: how long it ran, and per output how many stills
/// or frames it handled and which files it wrote.
///
/// ``description`` is a short multi-line summary suitable for printing.
public struct PipelineRunReport: Sendable, Equatable, CustomStringConvertible {
    /// The name of the pipeline file that ran, as it was loaded.
    public var fileName: String
    /// How the file said to stop.
    public var runLength: PipelineFile.RunLength
    /// How long the session ran, from running to the decision to stop.
    public var duration: Duration
    /// One result per output of the file, in file order.
    public var outputs: [OutputResult]

    /// Creates a report.
    /// - Parameters:
    ///   - fileName: The pipeline file's name.
    ///   - runLength: How the file said to stop.
    ///   - duration: How long the session ran.
    ///   - outputs: The per-output results, in file order.
    public init(fileName: String, runLength: PipelineFile.RunLength, duration: Duration, outputs: [OutputResult]) {
        self.fileName = fileName
        self.runLength = runLength
        self.duration = duration
        self.outputs = outputs
    }

    /// Every file written, in output order, each output's files in the order written.
    public var filesWritten: [String] {
        outputs.flatMap(\.files)
    }

    /// Every output's warnings (``OutputResult/warnings``), in output order.
    public var warnings: [String] {
        outputs.flatMap(\.warnings)
    }

    /// The result of the output called `name`, if there is one.
    /// - Parameter name: The output's name in the file.
    /// - Returns: The output's result, or nil.
    public func output(named name: String) -> OutputResult? {
        outputs.first { $0.name == name }
    }

    /// The duration in seconds.
    public var seconds: Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A summary: the run's length, a line per output, and the files written.
    public var description: String {
        let goal: String = switch runLength {
        case .frames(let count): "frames: \(count)"
        case .seconds(let seconds): "seconds: \(String(format: "%g", seconds))"
        }
        var lines = ["ran \(fileName) for \(Self.secondsText(seconds)) s (\(goal))"]
        for output in outputs {
            lines.append("  \(output.summary)")
            lines += output.files.map { "    \($0)" }
        }
        let count = filesWritten.count
        lines.append("\(count) file\(count == 1 ? "" : "s") written")
        return lines.joined(separator: "\n")
    }

    /// Seconds with two decimals.
    static func secondsText(_ seconds: Double) -> String {
        String(format: "%.2f", seconds)
    }
}
