import ArgumentParser
import CaptureFiles

/// The transforms of `--keep` and `--max-disk`, shared by `capture record` and `capture serve`,
/// whose errors name the value and the form.
enum RetentionArguments {
    static func age(_ text: String) throws(ValidationError) -> Double {
        guard let seconds = RetentionAge.seconds(text) else { throw ValidationError("--keep '\(text)' is not an age: write \(RetentionAge.expected)") }
        return seconds
    }

    static func size(_ text: String) throws(ValidationError) -> ByteCount {
        guard let size = ByteCount(text) else { throw ValidationError("--max-disk '\(text)' is not a size: write \(ByteCount.expected)") }
        return size
    }
}
