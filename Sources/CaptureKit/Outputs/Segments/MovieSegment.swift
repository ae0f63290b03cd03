import Foundation

/// One file of a ``SegmentedMovieFileOutput``'s recording: a complete, fragmented MP4 or MOV
/// (or a streamed MKV) named by the UTC time of its first frame.
public struct MovieSegment: Sendable, Equatable, Codable {
    /// Why a segment's file was closed.
    public enum EndReason: String, Sendable, Equatable, Codable {
        /// It reached the segment duration; the next segment goes on from the next frame.
        case boundary
        /// The recording was stopped (``SegmentedMovieFileOutput/stopRecording()``, the session
        /// stopping, or a device going away).
        case stopped
        /// Writing failed (the disk, the folder); the recording ends.
        case failed
    }

    /// The segment's file.
    public var url: URL
    /// The wall-clock time of its first frame, as its name says.
    public var startDate: Date
    /// Where it starts on the recording's capture clock (seconds from the recording's first
    /// frame): segments follow each other on it without gap, whatever the wall clock does.
    public var startTime: Double
    /// Seconds of video in it (0 while it is being written, until its first fragment).
    public var duration: Double
    /// Video frames in it.
    public var frameCount: Int
    /// Its size in bytes.
    public var byteCount: Int64
}
