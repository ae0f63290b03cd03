/// An H.264 profile (AVVideoProfileLevelH264…): which coding tools a stream may use, so which
/// decoders play it. Browsers' WebRTC decoders all take constrained baseline.
public enum H264Profile: String, Sendable, Hashable, CaseIterable {
    /// No B-frames, no CABAC: every decoder, WebRTC's included (profile_idc 66, constraint set 1).
    case constrainedBaseline = "constrained-baseline"
    case baseline
    case main
    /// The best compression for a given bit rate; desktop and phone decoders.
    case high
}
