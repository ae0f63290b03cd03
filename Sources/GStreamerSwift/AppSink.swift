import CGStreamer
import CGStreamerSys

/// An `appsink` element's callbacks.
public enum AppSink {
    /// What an appsink calls.
    ///
    /// Threading: both closures run on the appsink's streaming thread; they must hand work over
    /// (to a queue or a stream) and return quickly, never run user code there.
    public struct Handlers: Sendable {
        public var newSample: @Sendable (Sample) -> Void
        public var endOfStream: @Sendable () -> Void

        public init(newSample: @escaping @Sendable (Sample) -> Void, endOfStream: @escaping @Sendable () -> Void = {}) {
            self.newSample = newSample
            self.endOfStream = endOfStream
        }
    }

    /// Installs `handlers` on an appsink element (replacing earlier ones).
    public static func setHandlers(_ handlers: Handlers, on element: Element) {
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = Trampolines.appSinkNewSample
        callbacks.eos = Trampolines.appSinkEndOfStream
        let box = CallbackBox(handlers)
        gst_app_sink_set_callbacks(element.pointer.cast(to: GstAppSink.self), &callbacks,
                                   box.retainedPointer(), Trampolines.releaseAppSinkHandlers)
    }

    /// Installs a callback told that a sample is waiting, without taking it. Samples stay in
    /// the appsink until `pullSample(from:)` takes them; with `drop=false` a full appsink
    /// (`max-buffers`) holds its streaming thread: backpressure, inside GStreamer, with no
    /// thread of ours waiting.
    ///
    /// Threading: `ready` runs on the appsink's streaming thread; it must return quickly.
    public static func setSampleReadyHandler(_ ready: @escaping @Sendable () -> Void, on element: Element) {
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = Trampolines.appSinkSampleReady
        let box = CallbackBox<@Sendable () -> Void>(ready)
        gst_app_sink_set_callbacks(element.pointer.cast(to: GstAppSink.self), &callbacks,
                                   box.retainedPointer(), Trampolines.releaseSampleReady)
    }

    /// Takes the oldest waiting sample without waiting; nil when none waits (or the appsink
    /// is stopped).
    public static func pullSample(from element: Element) -> Sample? {
        gst_app_sink_try_pull_sample(element.pointer.cast(to: GstAppSink.self), 0).map { Sample(owning: $0) }
    }

    /// The sample a prerolled (paused) appsink holds, without waiting; nil when it holds none.
    public static func pullPreroll(from element: Element) -> Sample? {
        gst_app_sink_try_pull_preroll(element.pointer.cast(to: GstAppSink.self), 0).map { Sample(owning: $0) }
    }
}
