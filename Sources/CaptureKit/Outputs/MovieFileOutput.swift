import Dispatch
import Foundation
import Synchronization

/// Records the session's video, and its audio when it has a microphone, to a movie file
/// (AVCaptureMovieFileOutput).
///
/// The container follows the file's extension: `.mp4` and `.mov` hold H.264 and AAC, `.mkv`
/// H.264 and Opus. H.264 comes from the best encoder this machine has (``videoEncoderName``).
/// A recording is a branch the running session adds when it starts and finishes (end of stream
/// through the muxer, so the file gets its index) when it stops: the camera and the other
/// outputs run on undisturbed, and a still can be taken meanwhile.
///
/// MP4 and MOV files are written in fragments while recording, one every
/// ``movieFragmentInterval``, each flushed to disk: a crash or power loss leaves a playable file
/// holding everything up to the last fragment. A finished file has a normal index and plays
/// everywhere.
///
/// ```swift
/// let movie = MovieFileOutput()
/// try session.addOutput(movie)
/// session.startRunning()
/// movie.startRecording(to: URL(fileURLWithPath: "clip.mp4"), recordingDelegate: delegate)
/// // …
/// movie.stopRecording()   // the delegate hears did-finish once the file is closed
/// ```
public final class MovieFileOutput: OutputNode, FileOutput {
    struct State {
        var connections: [CaptureConnection] = []
        var recording: Recording?
        var stopping = false
        var fragmentInterval = CaptureTime(value: 10, timescale: 1)
        var maxDuration = CaptureTime.invalid
        var maxFileSize: Int64 = 0
        var minFreeDiskSpace: Int64 = 0
        var codecSettings = VideoCodecSettings()
        var lastFinished: (duration: CaptureTime, bytes: Int64, dropped: Int)?
    }

    let state = Mutex(State())
    let owner = SessionReference()
    /// Where delegate methods run when `startRecording` is given no queue.
    let delegateQueue = DispatchQueue(label: "CaptureKit.MovieFileOutput")

    public init() {}

    let mediaType = MediaType.video
    let mediaTypes: [MediaType] = [.video, .audio]
    let kind = "movie"

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// Whether the session needs the output's branch: while a recording runs.
    var wantsBranch: Bool { state.withLock { $0.recording != nil && !$0.stopping } }

    /// The video codecs recordings can use.
    public var availableVideoCodecTypes: [VideoCodecType] { owner.context.videoEncoder == nil ? [] : [.h264] }

    /// The H.264 encoder recordings use on this machine (`vah264enc`, `x264enc`, …), chosen from
    /// what GStreamer has (the session's ``CaptureContext`` decides); nil when it has none.
    public var videoEncoderName: String? { owner.context.videoEncoder?.name }

    /// Time between fragments while recording MP4 or MOV (default 10 s, as AVFoundation);
    /// `.invalid` writes no fragments (the file is playable only once finished).
    public var movieFragmentInterval: CaptureTime {
        get { state.withLock { $0.fragmentInterval } }
        set { state.withLock { $0.fragmentInterval = newValue } }
    }

    /// The longest a recording runs before it finishes by itself, with
    /// ``CaptureError/Code/maximumDurationReached`` (`.invalid`, the default: no limit).
    public var maxRecordedDuration: CaptureTime {
        get { state.withLock { $0.maxDuration } }
        set { state.withLock { $0.maxDuration = newValue } }
    }

    /// The largest a recording's file grows (bytes) before it finishes by itself, with
    /// ``CaptureError/Code/maximumFileSizeReached``; 0, the default, is no limit.
    public var maxRecordedFileSize: Int64 {
        get { state.withLock { $0.maxFileSize } }
        set { state.withLock { $0.maxFileSize = max(0, newValue) } }
    }

    /// Free bytes to keep on the disk: below it a recording finishes with
    /// ``CaptureError/Code/diskFull``; 0, the default, is no limit.
    public var minFreeDiskSpaceLimit: Int64 {
        get { state.withLock { $0.minFreeDiskSpace } }
        set { state.withLock { $0.minFreeDiskSpace = max(0, newValue) } }
    }

    /// The encoding of the video `connection` feeds (codec, bit rate, key-frame interval).
    public func outputSettings(for connection: CaptureConnection) -> VideoCodecSettings {
        state.withLock { $0.codecSettings }
    }

    /// Sets how the video `connection` feeds is encoded, for recordings started after this;
    /// nil restores the defaults. Throws for a codec not in ``availableVideoCodecTypes``, a
    /// bit rate or interval out of range, or a connection that is not this output's video one.
    public func setOutputSettings(_ settings: VideoCodecSettings?, for connection: CaptureConnection) throws(CaptureError) {
        guard connections.contains(where: { $0 === connection }), connection.inputPorts.contains(where: { $0.mediaType == .video }) else {
            throw .notInSession("\(connection) is not this movie output's video connection")
        }
        let settings = settings ?? VideoCodecSettings()
        try settings.validate(available: availableVideoCodecTypes)
        state.withLock { $0.codecSettings = settings }
    }

    /// Whether a recording is under way (from `startRecording` until did-finish is sent).
    public var isRecording: Bool { state.withLock { $0.recording != nil } }

    /// The file being recorded, nil when not recording.
    public var outputFileURL: URL? { state.withLock { $0.recording?.settings.url } }

    /// The time recorded so far (of the last recording once it finished).
    public var recordedDuration: CaptureTime {
        if let recording = state.withLock({ $0.recording }) { return recording.duration }
        return state.withLock { $0.lastFinished?.duration } ?? .zero
    }

    /// The bytes written to the file so far (of the last recording once it finished).
    public var recordedFileSize: Int64 {
        if let recording = state.withLock({ $0.recording }) { return recording.progress.withLock { $0.fileBytes } }
        return state.withLock { $0.lastFinished?.bytes } ?? 0
    }

    /// Frames the recording could not take in time (its queue was full) and left out; never
    /// papered over. Frames still waiting in the queue are not counted. Of the last recording
    /// once it finished.
    public var droppedFrameCount: Int {
        if let recording = state.withLock({ $0.recording }) {
            return recording.progress.withLock { $0.inFlight.dropped }
        }
        return state.withLock { $0.lastFinished?.dropped } ?? 0
    }

    /// What flushing fragments to disk has cost in the current recording.
    var fragmentSyncStats: FragmentSyncer.Stats? { state.withLock { $0.recording?.syncer.stats } }

    /// Fragments flushed to disk in the current recording, and the seconds `fsync` took in all
    /// and at most (for `capture-bench record`).
    @_spi(Benchmark)
    public var fragmentSyncCost: (fragments: Int, seconds: Double, maxSeconds: Double)? {
        fragmentSyncStats.map { ($0.fragments, Double($0.nanoseconds) / 1e9, Double($0.maxNanoseconds) / 1e9) }
    }
}
