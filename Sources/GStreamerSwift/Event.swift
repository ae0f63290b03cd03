import CGStreamer
import CGStreamerSys

/// An event to send through a pipeline: end of stream, a key-frame request, or a custom
/// downstream event that serialises with the data.
public final class Event: Sendable {
    let pointer: CPointer<GstEvent>

    init(owning event: UnsafeMutablePointer<GstEvent>) {
        pointer = CPointer(event)
    }

    deinit {
        gst_mini_object_unref(pointer.cast(to: GstMiniObject.self))
    }

    /// End of stream: sinks finish (a muxer writes its index) and post EOS.
    public static func endOfStream() -> Event {
        GStreamer.initialize()
        return Event(owning: gst_event_new_eos())
    }

    /// Asks an upstream encoder for a key frame as soon as possible; `allHeaders` repeats the
    /// parameter sets with it.
    public static func forceKeyUnit(allHeaders: Bool = true) -> Event {
        GStreamer.initialize()
        return Event(owning: gst_video_event_new_upstream_force_key_unit(GstClockTime.max, allHeaders ? 1 : 0, 0))
    }

    /// Asks an upstream encoder for a key frame at the first frame whose running time is at
    /// least `runningTime` (nanoseconds), with the parameter sets: a request made ahead of time,
    /// which the encoder keeps until that frame comes.
    public static func forceKeyUnit(at runningTime: UInt64) -> Event {
        GStreamer.initialize()
        return Event(owning: gst_video_event_new_upstream_force_key_unit(GstClockTime(runningTime), 1, 0))
    }

    /// A custom downstream event carrying an empty structure called `name`, serialised with
    /// buffers (it arrives after every buffer sent before it).
    public static func customDownstream(_ name: String) -> Event {
        GStreamer.initialize()
        return Event(owning: gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty(name)))
    }

    /// A new reference for a call that takes ownership.
    func retained() -> UnsafeMutablePointer<GstEvent> {
        gst_mini_object_ref(pointer.cast(to: GstMiniObject.self))
        return pointer.raw
    }
}

/// The kind of an event seen by a probe.
public enum EventKind: Sendable, Equatable {
    case endOfStream
    /// New caps for the stream, as text.
    case caps(String)
    case segment
    case streamStart
    case flushStart
    case flushStop
    case reconfigure
    /// A custom downstream event, by its structure's name.
    case customDownstream(String)
    /// Any other event, by GStreamer's type name.
    case other(String)

    init(_ event: UnsafeMutablePointer<GstEvent>) {
        switch event.pointee.type {
        case GST_EVENT_EOS: self = .endOfStream
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            let text = caps.flatMap { gst_caps_to_string($0) }
            defer { g_free(text) }
            self = .caps(text.map { String(cString: $0) } ?? "")
        case GST_EVENT_SEGMENT: self = .segment
        case GST_EVENT_STREAM_START: self = .streamStart
        case GST_EVENT_FLUSH_START: self = .flushStart
        case GST_EVENT_FLUSH_STOP: self = .flushStop
        case GST_EVENT_RECONFIGURE: self = .reconfigure
        case GST_EVENT_CUSTOM_DOWNSTREAM:
            let name = gst_event_get_structure(event).map { String(cString: gst_structure_get_name($0)) } ?? ""
            self = .customDownstream(name)
        default:
            self = .other(String(cString: gst_event_type_get_name(event.pointee.type)))
        }
    }
}
