import CGStreamerSys

/// Every C callback of this layer, in one place. Each unboxes its Swift closure from
/// `user_data` and calls it on the thread GStreamer called from.
enum Trampolines {
    static let bufferProbe: GstPadProbeCallback = { _, info, userData in
        let probe = CallbackBox<BufferProbe>.from(userData).value
        var buffer = ProbeBuffer(info: info!)
        switch probe(&buffer) {
        case .pass: return GST_PAD_PROBE_OK
        case .drop: return GST_PAD_PROBE_DROP
        }
    }

    static let releaseBufferProbe: GDestroyNotify = { userData in
        CallbackBox<BufferProbe>.release(userData)
    }

    static let appSinkNewSample: @convention(c) (UnsafeMutablePointer<GstAppSink>?, gpointer?) -> GstFlowReturn = { sink, userData in
        let handlers = CallbackBox<AppSink.Handlers>.from(userData).value
        guard let sink, let sample = gst_app_sink_pull_sample(sink) else {
            return GST_FLOW_EOS
        }
        handlers.newSample(Sample(owning: sample))
        return GST_FLOW_OK
    }

    static let appSinkEndOfStream: @convention(c) (UnsafeMutablePointer<GstAppSink>?, gpointer?) -> Void = { _, userData in
        CallbackBox<AppSink.Handlers>.from(userData).value.endOfStream()
    }

    static let releaseAppSinkHandlers: GDestroyNotify = { userData in
        CallbackBox<AppSink.Handlers>.release(userData)
    }

    static let padAdded: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = { _, pad, userData in
        guard let pad else { return }
        gst_object_ref(UnsafeMutableRawPointer(pad))
        CallbackBox<PadAddedHandler>.from(userData).value(Pad(owning: pad))
    }

    static let releasePadAdded: GClosureNotify = { userData, _ in
        CallbackBox<PadAddedHandler>.release(userData)
    }
}
