import Dispatch
import Foundation
import Synchronization

/// Records the session's video, and its audio when it has a microphone, continuously into a
/// folder of segment files of a fixed length: what a camera watching a door or a 3D printer
/// records for days.
///
/// Each segment is a complete fragmented MP4 or MOV, or a streamed MKV (clusters of unknown
/// size, one at each key frame), named by the UTC time of its first frame
/// (`2026-11-27T21-00-00.000Z.mp4`). Segments begin at key frames the encoder is asked for at
/// each boundary, so each is ``segmentDuration`` long to the frame; every frame is in exactly
/// one file, the audio runs on from file to file, and the timestamps continue across files (a
/// player or `ffmpeg -f concat` joins them seamlessly). Each file's header carries its start
/// as its creation time, and the folder's `index.json` lists every segment with its wall-clock
/// start and its place on the recording's own clock, which never steps back. A crash loses at
/// most the open segment's last fragment (``movieFragmentInterval``; an MKV's blocks are
/// written as they come); closed segments are final. Recording again into the same folder continues its index.
///
/// The video is the session's shared encode: a ``MovieFileOutput`` or a stream of the same
/// camera with the same settings takes it from the same encoder.
///
/// ```swift
/// let segments = SegmentedMovieFileOutput()
/// try segments.setSegmentDuration(CaptureTime(value: 60, timescale: 1))
/// try session.addOutput(segments)
/// session.startRunning()
/// try segments.startRecording(to: URL(fileURLWithPath: "/var/lib/door/"), delegate: watcher)
/// ```
public final class SegmentedMovieFileOutput: OutputNode {
    struct State {
        var connections: [CaptureConnection] = []
        var recording: SegmentedRecording?
        var stopping = false
        var segmentDuration = CaptureTime(value: 60, timescale: 1)
        var fragmentInterval = CaptureTime(value: 1, timescale: 1)
        var fileType = "mp4"
        var codecSettings = VideoCodecSettings()
        var retention = SegmentRetention.everything
        var events: EventRecording?
        var recordsSegments = true
    }

    let state = Mutex(State())
    let owner = SessionReference()
    /// Where delegate methods run when `startRecording` is given no queue.
    let delegateQueue = DispatchQueue(label: "CaptureKit.SegmentedMovieFileOutput")

    public init() {}

    let mediaType = MediaType.video
    let mediaTypes: [MediaType] = [.video, .audio]
    let kind = "segments"

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// Whether the session needs the output's branch: while a recording runs.
    var wantsBranch: Bool { state.withLock { $0.recording != nil && !$0.stopping } }

    /// While recording, the recording's codec settings: the session gives the video an encoded
    /// stage with them.
    var videoEncoding: VideoCodecSettings? { state.withLock { $0.recording?.codec } }

    /// The length of each segment (default 60 s; from 1 s to a day), for recordings started
    /// after it is set.
    public var segmentDuration: CaptureTime { state.withLock { $0.segmentDuration } }

    /// Sets ``segmentDuration``; throws for a length that is not a number of seconds from 1 to
    /// 86,400.
    public func setSegmentDuration(_ duration: CaptureTime) throws(CaptureError) {
        guard duration.isNumeric, duration.seconds >= 1, duration.seconds <= 86_400 else {
            throw .invalidSetting(name: "segmentDuration", value: "\(duration)", valid: "from 1 to 86400 seconds")
        }
        state.withLock { $0.segmentDuration = duration }
    }

    /// Time between the fragments written into the open segment (default 1 s): what a crash
    /// can lose. From 0.1 s to the segment duration.
    public var movieFragmentInterval: CaptureTime {
        get { state.withLock { $0.fragmentInterval } }
        set { state.withLock { $0.fragmentInterval = newValue } }
    }

    /// The container of segments recorded to a folder, by extension: `mp4` (the default),
    /// `mov` or `mkv` (H.264 and Opus, as ``MovieFileOutput`` writes it). A strftime pattern's
    /// own extension wins. Exports of MKV segments are MKV; HLS playback takes MP4/MOV.
    public var fileType: String {
        get { state.withLock { $0.fileType } }
        set { state.withLock { $0.fileType = newValue } }
    }

    /// What the folder keeps (default: everything), for recordings started after it is set.
    public var retention: SegmentRetention { state.withLock { $0.retention } }

    /// Sets ``retention``; throws for an age or size not above 0.
    public func setRetention(_ retention: SegmentRetention) throws(CaptureError) {
        try retention.validate()
        state.withLock { $0.retention = retention }
    }

    /// How events are recorded; nil (the default) records none. For recordings started after it
    /// is set.
    public var eventRecording: EventRecording? { state.withLock { $0.events } }

    /// Sets ``eventRecording``; throws for a pre- or post-roll out of range.
    public func setEventRecording(_ events: EventRecording?) throws(CaptureError) {
        try events?.validate()
        state.withLock { $0.events = events }
    }

    /// Whether segment files are written (the default); false records event clips only, which
    /// needs an ``eventRecording`` that writes clips.
    public var recordsSegments: Bool {
        get { state.withLock { $0.recordsSegments } }
        set { state.withLock { $0.recordsSegments = newValue } }
    }

    /// Triggers an event now (`kind` names what triggered it: `signal`, `code`, `face`,
    /// `motion`, or the app's own word), from any thread: a new event with its clip from the
    /// pre-roll, or the current one extended. Returns the event as it stands; nil when not
    /// recording, before the recording's first frame, or without an ``eventRecording``.
    /// `bounds` (normalised device coordinates) says where in the frame, when known: the event's
    /// ``RecordingEvent/bounds`` is the union of its triggers'.
    @discardableResult
    public func triggerEvent(_ kind: String, bounds: CGRect? = nil) -> RecordingEvent? {
        state.withLock { $0.recording }?.writer.trigger(kind, bounds: bounds)
    }

    /// The bytes the pre-roll holds now (0 without events).
    @_spi(Benchmark)
    public var preRollBytes: Int { state.withLock { $0.recording }?.writer.heldBytes ?? 0 }

    /// The extensions segments can be recorded in.
    public static var supportedFileExtensions: [String] { SegmentNaming.supportedExtensions }

    /// The encoding of the video (codec, bit rate, key-frame interval).
    public var outputSettings: VideoCodecSettings { state.withLock { $0.codecSettings } }

    /// Sets how the video is encoded, for recordings started after this; nil restores the
    /// defaults. Throws for a codec this machine cannot encode or a value out of range.
    public func setOutputSettings(_ settings: VideoCodecSettings?) throws(CaptureError) {
        let settings = settings ?? VideoCodecSettings()
        try settings.validate(available: owner.context.videoEncoder == nil ? [] : [.h264])
        state.withLock { $0.codecSettings = settings }
    }

    /// The H.264 encoder recordings use on this machine (`vah264enc`, `x264enc`, …); nil when it
    /// has none.
    public var videoEncoderName: String? { owner.context.videoEncoder?.name }

    /// Whether a recording is under way (from `startRecording` until did-finish-recording).
    public var isRecording: Bool { state.withLock { $0.recording != nil } }

    /// The segment being written; nil between segments and when not recording.
    public var currentSegment: MovieSegment? { state.withLock { $0.recording }?.log.state.withLock { $0.current } }

    /// The segments the current recording has opened so far.
    public var segmentCount: Int { state.withLock { $0.recording }?.log.state.withLock { $0.segments } ?? 0 }
}
