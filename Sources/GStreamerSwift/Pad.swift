import CGStreamer
import CGStreamerSys

/// What a buffer probe decides.
public enum ProbeDecision: Sendable {
    case pass, drop
}

/// A buffer seen by a probe, valid only inside the probe callback.
public struct ProbeBuffer: ~Copyable {
    let info: UnsafeMutablePointer<GstPadProbeInfo>
    /// The pad the buffer passes, for its segment.
    let pad: UnsafeMutablePointer<GstPad>?

    var buffer: UnsafeMutablePointer<GstBuffer> {
        info.pointee.data.assumingMemoryBound(to: GstBuffer.self)
    }

    /// Presentation time in nanoseconds (running time for live sources), nil when unset.
    public var presentationTime: UInt64? {
        let pts = buffer.pointee.pts
        return pts == GstClockTime.max ? nil : UInt64(pts)
    }

    /// Duration in nanoseconds, nil when unset.
    public var duration: UInt64? {
        let duration = buffer.pointee.duration
        return duration == GstClockTime.max ? nil : UInt64(duration)
    }

    /// The presentation time as running time, through the pad's current segment: what other
    /// streams of the pipeline compare against (an encoder may shift timestamps and its
    /// segment alike). nil without a timestamp or a time segment.
    public var runningTime: UInt64? {
        guard let pts = presentationTime, let pad, let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self)) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return nil }
        let running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, guint64(pts))
        return running == GstClockTime.max ? nil : UInt64(running)
    }

    /// Whether the buffer depends on earlier ones (GST_BUFFER_FLAG_DELTA_UNIT): false for a
    /// key frame.
    public var isDeltaUnit: Bool { buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0 }

    /// The buffer's size in bytes.
    public var size: Int { Int(gst_buffer_get_size(buffer)) }

    /// Whether the buffer holds `bytes` at `offset` (a box type in a header), compared in place:
    /// nothing is copied or allocated, so it suits every-buffer probes.
    public func holds(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + bytes.count <= size else { return false }
        return bytes.withUnsafeBytes { gst_buffer_memcmp(buffer, gsize(offset), $0.baseAddress, gsize($0.count)) == 0 }
    }

    /// Whether the buffer is flagged as a gap (GST_BUFFER_FLAG_GAP: silence or no data, which
    /// elements such as audioconvert may skip reading). A probe that writes data into a gap
    /// buffer (e.g. audiotestsrc's `wave=silence`) clears it, or downstream keeps the silence.
    /// Setting it makes the buffer writable first, like `withWritableBytes`.
    public var isGap: Bool {
        get { buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_GAP.rawValue != 0 }
        set {
            guard newValue != isGap else { return }
            let writable = gst_mini_object_make_writable(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self))!
            info.pointee.data = UnsafeMutableRawPointer(writable)
            if newValue {
                buffer.pointee.mini_object.flags |= GST_BUFFER_FLAG_GAP.rawValue
            } else {
                buffer.pointee.mini_object.flags &= ~GST_BUFFER_FLAG_GAP.rawValue
            }
        }
    }

    /// Gives write access to the buffer's bytes, making it writable first (no copy when the
    /// probe holds the only reference, as a source's own pad does).
    public mutating func withWritableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        let writable = gst_mini_object_make_writable(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self))!
        info.pointee.data = UnsafeMutableRawPointer(writable)
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_WRITE) != 0 else { throw GStreamerError.mapFailed }
        defer { gst_buffer_unmap(buffer, &map) }
        return try body(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Gives read access to the buffer's bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { throw GStreamerError.mapFailed }
        defer { gst_buffer_unmap(buffer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }
}

/// The callback type of a buffer probe.
///
/// Threading: runs on the streaming thread that pushes through the pad, once per buffer;
/// it must not block.
public typealias BufferProbe = @Sendable (inout ProbeBuffer) -> ProbeDecision

/// A pad of an element.
public final class Pad: Sendable {
    let pointer: CPointer<GstPad>

    init(owning pad: UnsafeMutablePointer<GstPad>) {
        self.pointer = CPointer(pad)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer.raw))
    }

    /// Nanoseconds added to the running time of data leaving (or entering) the pad
    /// (gst_pad_set_offset): a negative offset closes a gap, as a paused recording does.
    public var offset: Int64 {
        get { Int64(gst_pad_get_offset(pointer.raw)) }
        set { gst_pad_set_offset(pointer.raw, gint64(newValue)) }
    }

    /// Calls `probe` for every buffer that passes the pad. Returns an id for `removeProbe`.
    @discardableResult
    public func addBufferProbe(_ probe: @escaping BufferProbe) -> UInt {
        let box = CallbackBox(probe)
        return UInt(gst_pad_add_probe(pointer.raw, GST_PAD_PROBE_TYPE_BUFFER, Trampolines.bufferProbe,
                                      box.retainedPointer(), Trampolines.releaseBufferProbe))
    }

    /// Removes a probe added with `addBufferProbe`.
    public func removeProbe(_ id: UInt) {
        gst_pad_remove_probe(pointer.raw, gulong(id))
    }

    /// The caps the pad can handle now (a caps query, no filter), one structure per entry. For
    /// a device source in READY that is what the device offers.
    public func queryCaps() -> [CapsStructure] {
        guard let caps = gst_pad_query_caps(pointer.raw, nil) else { return [] }
        defer { gst_caps_unref(caps) }
        return CapsStructure.structures(of: caps)
    }

    /// The caps currently negotiated on the pad, as a string.
    public var currentCaps: String? {
        guard let caps = gst_pad_get_current_caps(pointer.raw) else { return nil }
        defer { gst_caps_unref(caps) }
        guard let text = gst_caps_to_string(caps) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
