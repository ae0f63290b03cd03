import CGStreamer
import CGStreamerSys
import Foundation
import Synchronization

/// A message posted on a pipeline's bus, decoded into Swift values.
public enum BusMessage: Sendable, Equatable {
    /// An element failed; `source` is the element's name, `debug` GStreamer's debug detail,
    /// `reason` what kind of failure its error domain and code say it is.
    case error(source: String, message: String, debug: String?, reason: BusErrorReason)
    case warning(source: String, message: String, debug: String?)
    case endOfStream
    case stateChanged(source: String, old: State, new: State)
    /// An element or application message, by structure name and its serialized fields.
    case element(source: String, structure: String)
    /// Another message type, by its GStreamer type name.
    /// A device monitor found a device.
    case deviceAdded(MonitoredDevice)
    /// A device monitor lost a device.
    case deviceRemoved(MonitoredDevice)
    case other(String)
}

/// A pipeline's bus. `BusWatch` reads it on a thread of its own.
public final class Bus: Sendable {
    let pointer: CPointer<GstBus>

    init(owning bus: UnsafeMutablePointer<GstBus>) {
        self.pointer = CPointer(bus)
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer.raw))
    }

    /// Pops the first pending error message's text, if any, without waiting.
    public func pendingErrorText() -> String? {
        guard let message = gst_bus_pop_filtered(pointer.raw, GST_MESSAGE_ERROR) else { return nil }
        defer { gst_message_unref(message) }
        if case .error(let source, let text, _, _) = BusMessage(message) {
            return "\(source): \(text)"
        }
        return nil
    }

    /// Posts an application message; `BusWatch` uses one to stop.
    func postApplication(_ name: String) {
        let structure = gst_structure_new_empty(name)
        let message = gst_message_new_application(nil, structure)
        gst_bus_post(pointer.raw, message)
    }

    /// Waits up to `timeout` nanoseconds for the next message.
    public func pop(timeout: UInt64) -> BusMessage? {
        popRouted(timeout: timeout)?.message
    }

    /// Waits up to `timeout` nanoseconds for the next message, with where it came from (an
    /// empty path for a message without a source).
    public func popRouted(timeout: UInt64) -> (message: BusMessage, origin: MessageOrigin)? {
        guard let message = gst_bus_timed_pop(pointer.raw, GstClockTime(timeout)) else { return nil }
        defer { gst_message_unref(message) }
        return (BusMessage(message), message.pointee.src.map(MessageOrigin.of) ?? MessageOrigin(path: []))
    }
}

extension BusMessage {
    /// The name an error is reported under: the element's own when it has a planned name
    /// (`key_suffix`, with an underscore), else that of its nearest ancestor that has one. An
    /// element a bin made inside itself (webrtcbin's `nicesink0`, hlssink2's `splitmuxsink0`)
    /// is thereby reported as the element the plan added, whose key says whose it is.
    static func plannedName(_ object: UnsafeMutablePointer<GstObject>) -> String {
        func name(_ object: UnsafeMutablePointer<GstObject>) -> String {
            guard let cName = gst_object_get_name(object) else { return "" }
            defer { g_free(cName) }
            return String(cString: cName)
        }
        let own = name(object)
        guard !own.contains("_") else { return own }
        var parent = gst_object_get_parent(object)
        while let current = parent {
            let candidate = name(current)
            let next = gst_object_get_parent(current)
            gst_object_unref(UnsafeMutableRawPointer(current))
            if candidate.contains("_") {
                if let next { gst_object_unref(UnsafeMutableRawPointer(next)) }
                return candidate
            }
            parent = next
        }
        return own
    }

    init(_ message: UnsafeMutablePointer<GstMessage>) {
        let source: String = message.pointee.src.map { src in
            guard let cName = gst_object_get_name(src) else { return "" }
            defer { g_free(cName) }
            return String(cString: cName)
        } ?? ""
        switch message.pointee.type {
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            let source = message.pointee.src.map(BusMessage.plannedName) ?? source
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            if message.pointee.type == GST_MESSAGE_ERROR {
                gst_message_parse_error(message, &error, &debug)
            } else {
                gst_message_parse_warning(message, &error, &debug)
            }
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            let detail = debug.map { String(cString: $0) }
            let reason = BusErrorReason(error)
            g_error_free(error)
            g_free(debug)
            self = message.pointee.type == GST_MESSAGE_ERROR
                ? .error(source: source, message: text, debug: detail, reason: reason)
                : .warning(source: source, message: text, debug: detail)
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            self = .stateChanged(source: source, old: State(old) ?? .null, new: State(new) ?? .null)
        case GST_MESSAGE_ELEMENT, GST_MESSAGE_APPLICATION:
            let structure = gst_message_get_structure(message)
            let text: String = structure.flatMap { s in
                guard let c = gst_structure_to_string(s) else { return nil }
                defer { g_free(c) }
                return String(cString: c)
            } ?? ""
            self = .element(source: source, structure: text)
        case GST_MESSAGE_DEVICE_ADDED, GST_MESSAGE_DEVICE_REMOVED:
            var device: UnsafeMutablePointer<GstDevice>?
            if message.pointee.type == GST_MESSAGE_DEVICE_ADDED {
                gst_message_parse_device_added(message, &device)
            } else {
                gst_message_parse_device_removed(message, &device)
            }
            let parsed = MonitoredDevice(device!)
            gst_object_unref(UnsafeMutableRawPointer(device))
            self = message.pointee.type == GST_MESSAGE_DEVICE_ADDED ? .deviceAdded(parsed) : .deviceRemoved(parsed)
        default:
            self = .other(String(cString: gst_message_type_get_name(message.pointee.type)))
        }
    }
}

/// Reads a bus on a dedicated thread and hands each message to `handler`.
///
/// Threading: `handler` runs on the watch's own thread, one message at a time; it must not block
/// for long. `stop()` returns after the thread has finished.
public final class BusWatch: Sendable {
    private let bus: Bus
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = StopFlag()
    static let stopMessage = "capturekit-bus-watch-stop"

    public convenience init(pipeline: Pipeline, handler: @escaping @Sendable (BusMessage) -> Void) {
        self.init(bus: pipeline.bus, name: "\(pipeline.name)-bus") { message, _ in handler(message) }
    }

    /// Hands `handler` each message with where it came from, so it can be routed by which of
    /// the pipeline's parts holds its source.
    public convenience init(pipeline: Pipeline, routing handler: @escaping @Sendable (BusMessage, MessageOrigin) -> Void) {
        self.init(bus: pipeline.bus, name: "\(pipeline.name)-bus", handler: handler)
    }

    convenience init(bus: Bus, name: String, handler: @escaping @Sendable (BusMessage) -> Void) {
        self.init(bus: bus, name: name) { message, _ in handler(message) }
    }

    init(bus: Bus, name: String, handler: @escaping @Sendable (BusMessage, MessageOrigin) -> Void) {
        self.bus = bus
        let finished = self.finished
        let stopped = self.stopped
        let thread = Thread {
            stopped.thread.store(UInt(pthread_self()), ordering: .releasing)
            // A pipeline set to NULL flushes its bus, dropping the stop message: poll the flag too.
            while !stopped.value.load(ordering: .acquiring) {
                guard let (message, origin) = bus.popRouted(timeout: 50_000_000) else { continue }
                if case .element(_, let structure) = message, structure.hasPrefix(BusWatch.stopMessage) { break }
                handler(message, origin)
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Stops the thread and waits for it (at most one poll interval). Called from the handler
    /// itself, it only asks the thread to stop after the current message.
    public func stop() {
        guard !stopped.value.exchange(true, ordering: .acquiringAndReleasing) else { return }
        bus.postApplication(Self.stopMessage)
        if stopped.thread.load(ordering: .acquiring) != UInt(pthread_self()) { finished.wait() }
    }

    deinit { stop() }
}

/// A shareable stop flag for the watch thread, and the thread's id.
final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
    let thread = Atomic<UInt>(0)
}

/// Told, on the thread that posts it, the planned name (see `BusMessage.plannedName`) of each
/// element that posts an error, and where it is: before the element returns its failure to its
/// upstream.
public typealias BusErrorSyncHandler = @Sendable (String, MessageOrigin) -> Void

extension Bus {
    /// Calls `handler` synchronously for every error message, on the posting element's
    /// streaming thread; the message then goes on to the bus as usual. The handler must not
    /// block. Replaces any sync handler set before; lives as long as the bus.
    public func setErrorSyncHandler(_ handler: @escaping BusErrorSyncHandler) {
        let box = CallbackBox<BusErrorSyncHandler>(handler)
        gst_bus_set_sync_handler(pointer.raw, Trampolines.busErrorSync, box.retainedPointer(), Trampolines.releaseBusErrorSync)
    }
}

extension Trampolines {
    static let busErrorSync: GstBusSyncHandler = { _, message, userData in
        if let message, message.pointee.type == GST_MESSAGE_ERROR, let source = message.pointee.src {
            CallbackBox<BusErrorSyncHandler>.from(userData).value(BusMessage.plannedName(source), MessageOrigin.of(source))
        }
        return GST_BUS_PASS
    }

    static let releaseBusErrorSync: GDestroyNotify = { userData in
        CallbackBox<BusErrorSyncHandler>.release(userData)
    }
}
