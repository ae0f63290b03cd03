import CGStreamer
import CGStreamerSys

/// Element states.
public enum State: Sendable, Equatable, CustomStringConvertible {
    case null, ready, paused, playing

    var gstState: GstState {
        switch self {
        case .null: GST_STATE_NULL
        case .ready: GST_STATE_READY
        case .paused: GST_STATE_PAUSED
        case .playing: GST_STATE_PLAYING
        }
    }

    init?(_ state: GstState) {
        switch state {
        case GST_STATE_NULL: self = .null
        case GST_STATE_READY: self = .ready
        case GST_STATE_PAUSED: self = .paused
        case GST_STATE_PLAYING: self = .playing
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .ready: "READY"
        case .paused: "PAUSED"
        case .playing: "PLAYING"
        }
    }
}

/// The result of a state change.
public enum StateChangeResult: Sendable, Equatable {
    case success, async, noPreroll, failure

    init(_ result: GstStateChangeReturn) {
        switch result {
        case GST_STATE_CHANGE_SUCCESS: self = .success
        case GST_STATE_CHANGE_ASYNC: self = .async
        case GST_STATE_CHANGE_NO_PREROLL: self = .noPreroll
        default: self = .failure
        }
    }
}
