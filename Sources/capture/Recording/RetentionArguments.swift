import ArgumentParser
import CaptureFiles
import CaptureKit

/// `--keep` and `--max-disk`, shared by `capture record` and `capture serve`: how long and how
/// much of a segmented recording to keep. Their errors name the value and the form.
struct RetentionArguments: ParsableArguments {
    @Option(help: ArgumentHelp("With segments: delete segments older than this, e.g. 36h or 7d (s, m, h, d, w).", valueName: "age"),
            transform: Self.age)
    var keep: Double?

    @Option(name: .customLong("max-disk"),
            help: ArgumentHelp("With segments: delete the oldest while the folder's segments take more than this, e.g. 20G (K, M, G or Ki, Mi, Gi).",
                               valueName: "size"),
            transform: Self.size)
    var maxDisk: ByteCount?

    /// Whether either was given.
    var isGiven: Bool { keep != nil || maxDisk != nil }

    var retention: SegmentRetention { SegmentRetention(maxAge: keep, maxBytes: maxDisk?.bytes) }

    static func age(_ text: String) throws(ValidationError) -> Double {
        guard let seconds = RetentionAge.seconds(text) else { throw ValidationError("--keep '\(text)' is not an age: write \(RetentionAge.expected)") }
        return seconds
    }

    static func size(_ text: String) throws(ValidationError) -> ByteCount {
        guard let size = ByteCount(text) else { throw ValidationError("--max-disk '\(text)' is not a size: write \(ByteCount.expected)") }
        return size
    }
}
