import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// Sends the session's video, and its audio when it has a microphone, to one stream target:
/// serves RTSP, SRT or WHEP, sends RTP, writes live HLS, or publishes to a media server.
///
/// Every stream output on a source with the same ``videoSettings`` shares one encode (and with
/// a recording or compressed video data output using the same settings): add an output per
/// target. An output's branch is its own: a client that goes away or misbehaves, or a receiver
/// that refuses, fails that output alone (posted as a runtime error naming it); the camera and
/// the other outputs run on. A caller or publisher (``StreamTarget/reconnects``) calls again,
/// with back-off from half a second to ten, until the session stops.
///
/// ```swift
/// let srt = try StreamOutput(target: StreamTarget(parsing: "srt://:9000"))
/// let hls = try StreamOutput(target: StreamTarget(parsing: "hls:/var/www/live"))
/// try session.addOutput(srt)
/// try session.addOutput(hls)   // the same encode as srt's
/// session.startRunning()
/// ```
public final class StreamOutput: OutputNode {
    /// How the output is doing.
    public enum Status: Sendable, Equatable {
        /// Not in a running session.
        case idle
        /// Its branch runs: serving, sending or publishing.
        case streaming
        /// Its peer failed (the error); a caller or publisher calls again at `retryAt`
        /// (uptime nanoseconds), others wait for the session's next configuration change.
        case failed(CaptureError, retryAt: UInt64?)
    }

    /// What has been sent so far, over every branch the output has had.
    public struct Statistics: Sendable, Equatable {
        /// Receivers connected now: an SRT listener's callers, RTSP or WHEP clients; 1 while an
        /// SRT caller, publisher, RTP or HLS output streams.
        public var clients = 0
        /// Encoded video frames sent on.
        public var framesSent = 0
        /// Frames the branch could not take in time (its queue was full) and left out.
        public var framesDropped = 0
        /// Bytes handed to the network or the disk, container and packet headers included; for
        /// an RTSP server or publisher, the encoded video it takes (once, however many clients).
        public var bytesSent: Int64 = 0
        /// Times a caller or publisher called again after its peer refused or went away.
        public var reconnects = 0
    }

    struct State {
        var connections: [CaptureConnection] = []
        var settings: VideoCodecSettings
        var status = Status.idle
        var statistics = Statistics()
        var failures = 0
        var waitingToRetry = false
        var sessionDescription: String?
        /// The running branch's queue: what waits in it is neither sent nor dropped yet.
        /// When the running branch was attached (uptime nanoseconds): a failure after a long
        /// enough run starts the back-off again from the shortest.
        var attachedAt: UInt64?
        var whep: WHEPEndpoint?
        /// The endpoint of the branch just taken out, until the runtime stops it (`afterDetach`).
        var whepStopping: WHEPEndpoint?
        /// An RTSP target's server, while the branch runs.
        var rtspServer: RTSPServer?
    }

    let state: Mutex<State>
    /// Per-frame counters, kept apart from `state`: frames out of the branch's parser and bytes
    /// handed on (atomics), and the frames in its queue (a short lock of their own).
    let framesSent = Atomic<Int>(0), bytesSent = Atomic<Int64>(0)
    let inFlight = Mutex(InFlightFrames())
    let owner = SessionReference()
    /// Runs retries after back-off.
    let retryQueue = DispatchQueue(label: "CaptureKit.StreamOutput.retry")

    /// Where the output sends its stream.
    public let target: StreamTarget

    /// An output for `target`, encoding with `videoSettings` (H.264; nil fields take the
    /// encoder's defaults for the source). Throws for settings no encoder here honours, and
    /// `streamFailed` for a ``StreamTarget/whep(host:port:path:)`` target in an app without the
    /// `CaptureKitWHEP` product (its HTTP server).
    public init(target: StreamTarget, videoSettings: VideoCodecSettings = VideoCodecSettings()) throws(CaptureError) {
        try videoSettings.validate(available: CaptureContext.shared.videoEncoder == nil ? [] : [.h264])
        try target.validate()
        try WHEPSignalling.requireServer(for: target)
        try Self.checkProfile(videoSettings, for: target)
        self.target = target
        state = Mutex(State(settings: videoSettings))
    }

    let mediaType = MediaType.video
    let mediaTypes: [MediaType] = [.video, .audio]
    var kind: String { "stream" }

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The encoding the output streams: its settings, from the source's shared encoded stage.
    var videoEncoding: VideoCodecSettings? { state.withLock { $0.settings } }

    /// Waiting out a back-off, the output has no branch.
    var wantsBranch: Bool { state.withLock { !$0.waitingToRetry } }

    /// WHEP answers browsers with constrained baseline, what every WebRTC decoder takes: a WHEP
    /// output refuses another profile. (Leaving it nil keeps the encode shared with other
    /// outputs; x264, tuned for live capture, makes constrained baseline.)
    static func checkProfile(_ settings: VideoCodecSettings, for target: StreamTarget) throws(CaptureError) {
        guard target.isWebRTC, let profile = settings.profile, profile != .constrainedBaseline else { return }
        throw .invalidSetting(name: "H.264 profile for WHEP", value: profile.rawValue, valid: "constrained-baseline, or none")
    }

    /// The video encoding (codec, bit rate, key-frame interval).
    public var videoSettings: VideoCodecSettings { state.withLock { $0.settings } }

    /// Changes the encoding; a running session moves the output to an encode with the new
    /// settings (receivers see a new key frame and parameter sets). Throws for settings no
    /// encoder here honours.
    public func setVideoSettings(_ settings: VideoCodecSettings) throws(CaptureError) {
        try settings.validate(available: owner.context.videoEncoder == nil ? [] : [.h264])
        try Self.checkProfile(settings, for: target)
        state.withLock { $0.settings = settings }
        owner.branchChanged()
    }

    /// How the output is doing now.
    public var status: Status { state.withLock { $0.status } }

    /// What has been sent so far. Frames dropped are those the branch's queue left out (a
    /// later frame left it before them); frames waiting in it are not.
    public var statistics: Statistics {
        var result = state.withLock { $0.statistics }
        result.framesSent = framesSent.load(ordering: .relaxed)
        result.bytesSent = bytesSent.load(ordering: .relaxed)
        result.framesDropped = inFlight.withLock { $0.dropped }
        return result
    }

    /// For an RTP target, the SDP a player opens to receive the stream (`ffplay stream.sdp`),
    /// once the output has streamed its first frame; nil before, and for other targets.
    public var sessionDescription: String? { state.withLock { $0.sessionDescription } }
}
