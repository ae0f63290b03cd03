import Foundation

/// Something that happened while a ``SegmentedMovieFileOutput`` recorded: one trigger, or
/// several whose clips overlapped and were merged, with the clip that holds it.
public struct RecordingEvent: Sendable, Equatable, Codable {
    /// What triggered it, in order, once each (`signal`, `code`, `face`, `motion`, or an app's own).
    public var kinds: [String]
    /// The wall-clock time of its first trigger.
    public var triggerDate: Date
    /// Its first and last triggers on the recording's capture clock (seconds from its first frame).
    public var firstTrigger: Double
    public var lastTrigger: Double
    /// Where its clip starts and ends on the capture clock: the key frame at or before the
    /// pre-roll, and the first fragment at or past the post-roll after the last trigger (the
    /// end is nil while the clip is being written).
    public var start: Double
    public var end: Double?
    /// The clip file; nil when events are only marked in the index (with segments, unless clips
    /// are asked for).
    public var clip: URL?
    /// Where in the frame it happened, in normalised device coordinates: the union of its
    /// triggers' bounds (motion, a code, a face); nil for triggers without a place (a signal, an
    /// app's call without bounds).
    public var bounds: CGRect?
}
