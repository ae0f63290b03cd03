import CGStreamer
import CGStreamerSys

/// Called with each pad an element adds while running (a demuxer's or decodebin's outputs).
public typealias PadAddedHandler = @Sendable (Pad) -> Void

extension Element {
    /// Calls `handler` for each pad the element adds ("pad-added"), on the streaming thread
    /// that adds it; the handler lives as long as the element.
    public func onPadAdded(_ handler: @escaping PadAddedHandler) {
        let box = CallbackBox<PadAddedHandler>(handler)
        g_signal_connect_data(UnsafeMutableRawPointer(pointer.raw), "pad-added",
                              unsafeBitCast(Trampolines.padAdded, to: GCallback.self), box.retainedPointer(),
                              Trampolines.releasePadAdded, GConnectFlags(rawValue: 0))
    }
}

extension Pad {
    /// Links this (source) pad to `element`'s static pad `sinkPad`; fails when the caps do not
    /// fit or it is linked already.
    public func link(to element: Element, pad sinkPad: String = "sink") throws(GStreamerError) {
        let sink = try element.staticPad(sinkPad)
        let result = gst_pad_link(pointer.raw, sink.pointer.raw)
        guard result == GST_PAD_LINK_OK else {
            throw .linkFailed(from: name, to: element.name, caps: currentCaps)
        }
    }

    /// Whether the pad carries raw video (its current or possible caps say video/x-raw).
    public var isRawVideo: Bool {
        guard let caps = gst_pad_get_current_caps(pointer.raw) ?? gst_pad_query_caps(pointer.raw, nil) else { return false }
        defer { gst_caps_unref(caps) }
        guard gst_caps_get_size(caps) > 0, let structure = gst_caps_get_structure(caps, 0) else { return false }
        return String(cString: gst_structure_get_name(structure)) == "video/x-raw"
    }

    /// The pad's name.
    public var name: String {
        guard let name = gst_object_get_name(UnsafeMutableRawPointer(pointer.raw).assumingMemoryBound(to: GstObject.self)) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }
}
