import CGStreamer
import CGStreamerSys

extension Element {
    /// Calls `handler` each time the element emits `signal`, whatever the signal's arguments
    /// (they are not passed: srtsink's "caller-added", say), on the thread that emits it; the
    /// handler lives as long as the element. Connected swapped, so the handler's box is the
    /// callback's first argument and the signal's own arguments, however many, are ignored.
    public func onSignal(_ signal: String, _ handler: @escaping @Sendable () -> Void) {
        let box = CallbackBox<@Sendable () -> Void>(handler)
        g_signal_connect_data(UnsafeMutableRawPointer(pointer.raw), signal,
                              unsafeBitCast(Trampolines.signal, to: GCallback.self), box.retainedPointer(),
                              Trampolines.releaseSignal, G_CONNECT_SWAPPED)
    }
}

extension Trampolines {
    static let signal: @convention(c) (gpointer?) -> Void = { userData in
        CallbackBox<@Sendable () -> Void>.from(userData).value()
    }

    static let releaseSignal: GClosureNotify = { userData, _ in
        CallbackBox<@Sendable () -> Void>.release(userData)
    }
}
