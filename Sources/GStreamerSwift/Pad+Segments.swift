import CGStreamer
import CGStreamerSys

extension Pad {
    /// Makes every time segment that passes downstream through this pad start at 0 (its start,
    /// stream time and position set to 0; rate, base and stop kept), so that downstream the
    /// running time of each buffer is its timestamp.
    ///
    /// For a demuxer's pad in front of a muxer. qtdemux gives every track of a fragmented MP4 one
    /// segment, starting at the earliest time of one of them (e.g. its audio, a sample after 0).
    /// A track that begins earlier (video at 0) then has samples before the segment's start, and
    /// mp4mux drops them as outside the segment: the first key frame, and with it every frame up
    /// to the next.
    ///
    /// Threading: the probe runs on the streaming thread that pushes the event, and calls no
    /// user code.
    public func startTimeSegmentsAtZero() {
        gst_pad_add_probe(pointer.raw, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, _ in
            guard let info, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
            let event = data.assumingMemoryBound(to: GstEvent.self)
            guard event.pointee.type == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
            var parsed: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &parsed)
            guard let parsed, parsed.pointee.format == GST_FORMAT_TIME, parsed.pointee.start > 0 else { return GST_PAD_PROBE_OK }
            var segment = parsed.pointee
            segment.start = 0
            segment.time = 0
            segment.position = 0
            guard let replacement = gst_event_new_segment(&segment) else { return GST_PAD_PROBE_OK }
            gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
            gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
            info.pointee.data = UnsafeMutableRawPointer(replacement)
            return GST_PAD_PROBE_OK
        }, nil, nil)
    }
}
