import CGStreamer
import CGStreamerSys

/// A buffer kept beyond the probe that saw it: one more reference to the same memory, never a
/// copy (a recording's pre-roll holds the encoder's own output this way).
public final class RetainedBuffer: Sendable {
    let pointer: CPointer<GstBuffer>

    init(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        pointer = CPointer(gst_buffer_ref(buffer))
    }

    deinit {
        gst_mini_object_unref(pointer.cast(to: GstMiniObject.self))
    }

    /// Its size in bytes.
    public var size: Int { Int(gst_buffer_get_size(pointer.raw)) }

    /// Gives read access to the buffer's bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var map = GstMapInfo()
        guard gst_buffer_map(pointer.raw, &map, GST_MAP_READ) != 0 else { throw GStreamerError.mapFailed }
        defer { gst_buffer_unmap(pointer.raw, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }
}

extension ProbeBuffer {
    /// The buffer, kept (a reference, not a copy) after the probe returns.
    public func retained() -> RetainedBuffer { RetainedBuffer(buffer) }
}
