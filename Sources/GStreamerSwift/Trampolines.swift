import CGStreamer
import CGStreamerSys

/// Every C callback of this layer, in one place. Each unboxes its Swift closure from
/// `user_data` and calls it on the thread GStreamer called from.
enum Trampolines {
    static let bufferProbe: GstPadProbeCallback = { pad, info, userData in
        let probe = CallbackBox<BufferProbe>.from(userData).value
        var buffer = ProbeBuffer(info: info!, pad: pad)
        switch probe(&buffer) {
        case .pass: return GST_PAD_PROBE_OK
        case .drop: return GST_PAD_PROBE_DROP
        }
    }

    static let releaseBufferProbe: GDestroyNotify = { userData in
        CallbackBox<BufferProbe>.release(userData)
    }

    static let padProbe: GstPadProbeCallback = { pad, info, userData in
        let probe = CallbackBox<PadProbe>.from(userData).value
        guard let pad, let info else { return GST_PAD_PROBE_OK }
        let type = info.pointee.type.rawValue
        let data: PadProbeData
        if type & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0, let buffer = info.pointee.data {
            let pts = buffer.assumingMemoryBound(to: GstBuffer.self).pointee.pts
            data = .buffer(presentationTime: pts == GstClockTime.max ? nil : UInt64(pts))
        } else if type & GST_PAD_PROBE_TYPE_EVENT_BOTH.rawValue != 0, let event = info.pointee.data {
            data = .event(EventKind(event.assumingMemoryBound(to: GstEvent.self)))
        } else if type & GST_PAD_PROBE_TYPE_IDLE.rawValue != 0 || info.pointee.data == nil {
            data = .idle
        } else {
            data = .other
        }
        gst_object_ref(UnsafeMutableRawPointer(pad))
        switch probe(Pad(owning: pad), data) {
        case .ok: return GST_PAD_PROBE_OK
        case .drop: return GST_PAD_PROBE_DROP
        case .remove: return GST_PAD_PROBE_REMOVE
        case .pass: return GST_PAD_PROBE_PASS
        }
    }

    static let releasePadProbe: GDestroyNotify = { userData in
        CallbackBox<PadProbe>.release(userData)
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

    static let appSinkSampleReady: @convention(c) (UnsafeMutablePointer<GstAppSink>?, gpointer?) -> GstFlowReturn = { _, userData in
        CallbackBox<@Sendable () -> Void>.from(userData).value()
        return GST_FLOW_OK
    }

    static let releaseSampleReady: GDestroyNotify = { userData in
        CallbackBox<@Sendable () -> Void>.release(userData)
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
