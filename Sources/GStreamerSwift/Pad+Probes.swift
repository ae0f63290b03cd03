import CGStreamer
import CGStreamerSys

/// Which probes to install on a pad.
public struct PadProbeKind: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Called when the pad is idle (no buffer passing): at once on the calling thread if it is
    /// idle now, else on the streaming thread after the current buffer. The safe moment to unlink.
    public static let idle = PadProbeKind(rawValue: GST_PAD_PROBE_TYPE_IDLE.rawValue)
    /// Blocks the data flow while the probe is installed and returns `.ok`.
    public static let block = PadProbeKind(rawValue: GST_PAD_PROBE_TYPE_BLOCK.rawValue)
    public static let buffer = PadProbeKind(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue)
    /// Downstream events (EOS, caps, segment, custom downstream).
    public static let eventDownstream = PadProbeKind(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
    /// Upstream events (reconfigure, QoS, seeks, key-unit requests).
    public static let eventUpstream = PadProbeKind(rawValue: GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue)
    /// Blocks on buffers and downstream events.
    public static let blockDownstream = PadProbeKind(rawValue: GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM.rawValue)
}

/// What a probe saw.
public enum PadProbeData: Sendable, Equatable {
    /// The pad went idle, or a blocking probe blocked before data arrived.
    case idle
    /// A buffer with its presentation time (nanoseconds), if it has one.
    case buffer(presentationTime: UInt64?)
    /// An event.
    case event(EventKind)
    /// A query or buffer list.
    case other
}

/// What a probe decides.
public enum PadProbeReturn: Sendable {
    /// Let the data pass; keep the probe (a blocking probe keeps blocking).
    case ok
    /// Drop the data; keep the probe.
    case drop
    /// Let the data pass and remove the probe (unblocks a blocking probe).
    case remove
    /// Let the data pass even through a blocking probe; keep the probe.
    case pass
}

/// The callback of a general pad probe.
///
/// Threading: runs on the streaming thread that pushes through the pad, or, for an idle probe
/// on an idle pad, on the thread that installed it, before `addProbe` returns. It must not
/// block on anything the pipeline's threads wait for.
public typealias PadProbe = @Sendable (_ pad: Pad, _ data: PadProbeData) -> PadProbeReturn

extension Pad {
    /// Installs a probe of `kind`; returns its id for `removeProbe` (0 when an idle probe ran
    /// at once and asked to be removed).
    @discardableResult
    public func addProbe(_ kind: PadProbeKind, _ probe: @escaping PadProbe) -> UInt {
        let box = CallbackBox<PadProbe>(probe)
        return UInt(gst_pad_add_probe(pointer.raw, GstPadProbeType(rawValue: kind.rawValue), Trampolines.padProbe,
                                      box.retainedPointer(), Trampolines.releasePadProbe))
    }

    /// The pad this one is linked to, if any.
    public var peer: Pad? {
        gst_pad_get_peer(pointer.raw).map { Pad(owning: $0) }
    }

    /// The name of the element (or bin) that owns the pad.
    public var parentName: String? {
        guard let parent = gst_pad_get_parent_element(pointer.raw) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(parent)) }
        return Element.objectName(parent)
    }

    /// Links this source pad to a sink pad.
    public func link(to sink: Pad) throws(GStreamerError) {
        let result = gst_pad_link(pointer.raw, sink.pointer.raw)
        guard result == GST_PAD_LINK_OK else {
            throw .linkFailed(from: "\(parentName ?? "?").\(name)", to: "\(sink.parentName ?? "?").\(sink.name)", caps: currentCaps)
        }
    }

    /// Unlinks this source pad from `sink`; false when they were not linked.
    @discardableResult
    public func unlink(from sink: Pad) -> Bool {
        gst_pad_unlink(pointer.raw, sink.pointer.raw) != 0
    }

    /// Sends an event into the pad (downstream events into a sink pad, upstream into a source
    /// pad); false when no element handled it.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        gst_pad_send_event(pointer.raw, event.retained()) != 0
    }

    /// Pushes `event` to the peer pad: from a sink pad, an upstream event (a key-frame request)
    /// travels up to the elements before it.
    @discardableResult
    public func push(_ event: Event) -> Bool {
        gst_pad_push_event(pointer.raw, event.retained()) != 0
    }
}

extension Element {
    /// Requests a pad from a template such as "src_%u" (tee) or "video_%u" (a muxer).
    public func requestPad(_ template: String) throws(GStreamerError) -> Pad {
        guard let pad = gst_element_request_pad_simple(pointer.raw, template) else {
            throw .noSuchPad(element: name, pad: template)
        }
        return Pad(owning: pad)
    }

    /// Gives back a pad obtained with `requestPad`.
    public func releaseRequestPad(_ pad: Pad) {
        gst_element_release_request_pad(pointer.raw, pad.pointer.raw)
    }

    /// Brings the element to its parent's state (an element added to a running pipeline);
    /// false when the change failed.
    @discardableResult
    public func syncStateWithParent() -> Bool {
        gst_element_sync_state_with_parent(pointer.raw) != 0
    }

    /// Sends an event to the element (downstream events go to its sink pads, upstream ones to
    /// its source pads); false when it was not handled.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        gst_element_send_event(pointer.raw, event.retained()) != 0
    }

    /// The current state, without waiting for a change in progress.
    public var currentState: State {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        gst_element_get_state(pointer.raw, &current, &pending, 0)
        return State(current) ?? .null
    }
}

/// Told the bytes of each buffer or buffer list that passes a pad.
public typealias ByteCountProbe = @Sendable (Int) -> Void

extension Pad {
    /// Calls `count` with the size of every buffer, and the total of every buffer list (what
    /// `mpegtsmux alignment=7` and payloaders push), that passes the pad, on the streaming
    /// thread; nothing is mapped or copied. Returns an id for `removeProbe`.
    @discardableResult
    public func addByteCountProbe(_ count: @escaping ByteCountProbe) -> UInt {
        let box = CallbackBox(count)
        let types = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
        return UInt(gst_pad_add_probe(pointer.raw, types, Trampolines.byteCountProbe, box.retainedPointer(), Trampolines.releaseByteCountProbe))
    }
}

extension Trampolines {
    static let byteCountProbe: GstPadProbeCallback = { _, info, userData in
        guard let info, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
        let bytes = info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue != 0
            ? gst_buffer_list_calculate_size(OpaquePointer(data))
            : gst_buffer_get_size(data.assumingMemoryBound(to: GstBuffer.self))
        CallbackBox<ByteCountProbe>.from(userData).value(Int(bytes))
        return GST_PAD_PROBE_OK
    }

    static let releaseByteCountProbe: GDestroyNotify = { userData in
        CallbackBox<ByteCountProbe>.release(userData)
    }
}

extension Pad {
    /// Sends a deep copy of each buffer on and releases the original at once (in C, no Swift on
    /// the streaming thread), so the element upstream has its buffers back before anything
    /// downstream holds one. A copy per buffer: only for elements that misbehave otherwise.
    @discardableResult
    public func addCopyProbe() -> UInt {
        UInt(ck_pad_add_copy_probe(pointer.raw))
    }

    /// Lowers the priority of an encoder's worker threads to the nice value `niceness`: this pad
    /// is upstream of the encoder, `downstream` after it, in one streaming thread. Threads the
    /// streaming thread starts between the first data here and the first buffer there, under its
    /// own name, are the encoder's. The streaming thread itself is left alone: GStreamer's pool
    /// reuses it, and its priority could never be raised again. Done once, in C.
    public func lowerEncoderWorkerPriority(until downstream: Pad, toNice niceness: Int32) {
        ck_pads_lower_worker_priority(pointer.raw, downstream.pointer.raw, niceness)
    }
}
