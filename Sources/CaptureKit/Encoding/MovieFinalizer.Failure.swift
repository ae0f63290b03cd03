extension MovieFinalizer {
    /// Why a movie kept its fragments: the finalizer stopped before the file with one index
    /// replaced them. The fragmented file is left as it was, playable.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// `MovieFileOutput.stopFinalizing()` (a signal, in `capture record`) stopped it.
        case interrupted
        /// The file being written did not grow for this many seconds of the finalizer's waiting.
        case stalled(seconds: Int)
        /// GStreamer, or the file system, failed: what it said.
        case failed(String)

        /// How the finalizing ended, for a sentence: "was interrupted", "made no progress for 20 s".
        var description: String {
            switch self {
            case .interrupted: "was interrupted"
            case .stalled(let seconds): "made no progress for \(seconds) s"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }
}
