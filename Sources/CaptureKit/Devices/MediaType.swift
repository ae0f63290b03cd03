/// Kinds of media (AVMediaType).
public enum MediaType: String, Sendable, Hashable, CaseIterable {
    case video, audio, text, closedCaption, subtitle, timecode, metadata, muxed
}
