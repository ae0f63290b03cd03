import CaptureFiles
import CaptureKit
import Foundation

/// The live line `capture record` keeps rewriting on a terminal: elapsed time, file size, the
/// frame rate recorded, frames dropped and the encoder.
struct ProgressLine {
    var file: String
    var encoder: String

    /// The line for `movie`'s recording now, e.g. `clip.mp4  00:01.5  1.2 MB  30.0 fps  0 dropped  x264enc`.
    func text(for movie: MovieFileOutput) -> String {
        let seconds = max(0, movie.recordedDuration.seconds.isFinite ? movie.recordedDuration.seconds : 0)
        let fps = seconds > 0 ? Double(movie.recordedFrameCount) / seconds : 0
        return [file, Self.clock(seconds), ByteCount(bytes: movie.recordedFileSize).description, String(format: "%.1f fps", fps),
                "\(movie.droppedFrameCount) dropped", encoder].joined(separator: "  ")
    }

    /// Writes `text` over the current terminal line on standard error.
    static func show(_ text: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Clears the line.
    static func clear() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// `75.25` → `01:15.2`.
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded(.down))
        return String(format: "%02d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10)
    }
}
