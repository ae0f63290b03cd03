import CGStreamer
import CGStreamerSys
import Synchronization

/// A pipeline: a bin of elements with a clock and a bus.
///
/// Elements are added one by one (never `gst_parse_launch`, which half-builds silently).
public final class Pipeline: Sendable {
    let pointer: CPointer<GstElement>
    private let members = Mutex<[String: Element]>([:])

    /// The pipeline's name.
    public let name: String

    public init(name: String) {
        GStreamer.initialize()
        let pipeline = gst_pipeline_new(name)!
        gst_object_ref_sink(UnsafeMutableRawPointer(pipeline))
        self.pointer = CPointer(pipeline)
        self.name = name
    }

    deinit {
        gst_element_set_state(pointer.raw, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(pointer.raw))
    }

    /// Adds an element; its name must be unique in the pipeline.
    public func add(_ element: Element) {
        gst_bin_add(pointer.cast(to: GstBin.self), element.pointer.raw)
        members.withLock { $0[element.name] = element }
    }

    /// Removes an element (which must be in the NULL state or about to be set to it).
    public func remove(_ element: Element) {
        gst_element_set_state(element.pointer.raw, GST_STATE_NULL)
        gst_bin_remove(pointer.cast(to: GstBin.self), element.pointer.raw)
        members.withLock { _ = $0.removeValue(forKey: element.name) }
    }

    /// Adds a bin (a source or a branch), for a running pipeline followed by linking it and
    /// `syncStateWithParent()`.
    public func add(_ bin: Bin) {
        add(bin.element)
    }

    /// Removes a bin after taking it to NULL.
    public func remove(_ bin: Bin) {
        remove(bin.element)
    }

    /// The element of that name, at the top level or inside one of the pipeline's bins.
    public func element(named name: String) throws(GStreamerError) -> Element {
        if let element = members.withLock({ $0[name] }) { return element }
        guard let nested = gst_bin_get_by_name(pointer.cast(to: GstBin.self), name) else { throw .noSuchElement(name: name) }
        return Element(owning: nested)
    }

    /// Changes state and waits up to `timeout` nanoseconds for it to complete.
    /// Throws with GStreamer's own error message when the change fails.
    public func setState(_ state: State, timeout: UInt64 = 5_000_000_000) throws(GStreamerError) {
        let result = StateChangeResult(gst_element_set_state(pointer.raw, state.gstState))
        if result == .failure {
            throw .stateChangeFailed(element: name, state: state.description, message: bus.pendingErrorText())
        }
        if result == .async {
            var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            let waited = StateChangeResult(gst_element_get_state(pointer.raw, &current, &pending, GstClockTime(timeout)))
            if waited == .failure {
                throw .stateChangeFailed(element: name, state: state.description, message: bus.pendingErrorText())
            }
        }
    }

    /// The current state.
    public var currentState: State {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        gst_element_get_state(pointer.raw, &current, &pending, 0)
        return State(current) ?? .null
    }

    /// The pipeline's bus.
    public var bus: Bus {
        Bus(owning: gst_element_get_bus(pointer.raw)!)
    }

    /// The running time now (clock time minus base time), in nanoseconds; nil before PLAYING.
    public var runningTime: UInt64? {
        guard let clock = gst_element_get_clock(pointer.raw) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock)
        let base = gst_element_get_base_time(pointer.raw)
        return now >= base ? UInt64(now - base) : 0
    }
}
