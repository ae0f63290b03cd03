/// How a ``SegmentedMovieFileOutput`` records events (``SegmentedMovieFileOutput/triggerEvent(_:bounds:)``):
/// each event's clip holds ``preRoll`` seconds before its first trigger, from the key frame at or
/// before that, until ``postRoll`` seconds after its last; triggers within a clip extend it.
/// Clips go to `clips/` in the folder, named by the UTC time of their first frame, and are listed
/// in `index.json` with their triggers; with ``writesClips`` false, events are only marked in the
/// index (the segments hold them).
///
/// The pre-roll is held in memory as references to the encoder's own buffers, never copied:
/// about (``preRoll`` + one key-frame interval) × the video bit rate.
public struct EventRecording: Sendable, Hashable {
    /// Seconds before the first trigger a clip starts (0 to 60).
    public var preRoll: Double
    /// Seconds after the last trigger a clip ends (0 to 3600).
    public var postRoll: Double
    /// Whether clips are written to files (else events are marked in the index only).
    public var writesClips: Bool

    public init(preRoll: Double = 5, postRoll: Double = 10, writesClips: Bool = true) {
        self.preRoll = preRoll
        self.postRoll = postRoll
        self.writesClips = writesClips
    }

    /// Throws for a pre- or post-roll out of range.
    func validate() throws(CaptureError) {
        guard preRoll >= 0, preRoll <= 60 else { throw .outOfRange(name: "events.preRoll", value: preRoll, range: 0...60) }
        guard postRoll >= 0, postRoll <= 3600 else { throw .outOfRange(name: "events.postRoll", value: postRoll, range: 0...3600) }
    }
}
