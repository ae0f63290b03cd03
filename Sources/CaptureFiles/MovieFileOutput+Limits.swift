import CaptureKit

extension MovieFileOutput {
    /// Sets the limits and fragment interval of later recordings as pipeline files and
    /// `capture record` write them, in seconds and bytes; nil leaves a setting as it is.
    /// - Parameters:
    ///   - maxDuration: ``MovieFileOutput/maxRecordedDuration`` in seconds.
    ///   - maxSize: ``MovieFileOutput/maxRecordedFileSize``.
    ///   - fragmentInterval: ``MovieFileOutput/movieFragmentInterval`` in seconds; 0 writes no fragments.
    public func setLimits(maxDuration: Double?, maxSize: ByteCount?, fragmentInterval: Double?) {
        if let maxDuration { maxRecordedDuration = CaptureTime(seconds: maxDuration, preferredTimescale: 1000) }
        if let maxSize { maxRecordedFileSize = maxSize.bytes }
        if let fragmentInterval {
            movieFragmentInterval = fragmentInterval > 0 ? CaptureTime(seconds: fragmentInterval, preferredTimescale: 1000) : .invalid
        }
    }
}
