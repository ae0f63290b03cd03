import CGStreamer
import CGStreamerSys
import Foundation
import Synchronization

/// Plays a decoded file stream as one endless live stream, from the sink pad it enters right
/// after its decoder: what leaves the pad has one segment starting at 0 and timestamps that
/// are running time, continuing across every restart of the file.
///
/// - The first frame is stamped with the running time it arrives at (0 before the pipeline
///   plays), so a file started in a running pipeline joins it now rather than in the past.
/// - End of stream never passes. The file is sought back to its start (a flushing key-unit
///   seek sent upstream from another thread); the flush, the new stream start and segment stay
///   upstream too, and the next frame follows the last one by its duration.
/// - A file that cannot seek ends there: `onEnd` is told, and no end of stream passes, so the
///   pipeline downstream keeps running.
///
/// Threading: the probe runs on the streaming thread and calls no user code; the seek and
/// `onEnd` run on a global queue.
public final class StreamLoop: Sendable {
    struct State {
        /// What is added to each timestamp, in nanoseconds.
        var offset: Int64 = 0
        var started = false
        /// Where the first frame after a restart goes: the end of the last frame.
        var nextStart: Int64?
        var lastEnd: Int64 = 0
        var passedSegment = false
        var passedStreamStart = false
        var restarts = 0
    }

    private let state = Mutex(State())
    private let onEnd: @Sendable (_ restarts: Int) -> Void

    /// Starts looping what passes `pad`; `onEnd` hears of a file that cannot restart.
    public init(on pad: Pad, onEnd: @escaping @Sendable (_ restarts: Int) -> Void) {
        self.onEnd = onEnd
        let kinds = GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue
        gst_pad_add_probe(pad.pointer.raw, GstPadProbeType(rawValue: kinds), { pad, info, data in
            guard let info, let data, let pad else { return GST_PAD_PROBE_OK }
            let loop = Unmanaged<StreamLoop>.fromOpaque(data).takeUnretainedValue()
            return loop.probe(pad, info)
        }, Unmanaged.passRetained(self).toOpaque(), { data in
            guard let data else { return }
            Unmanaged<StreamLoop>.fromOpaque(data).release()
        })
    }

    /// How many times the file has started again.
    public var restarts: Int { state.withLock { $0.restarts } }

    private func probe(_ pad: UnsafeMutablePointer<GstPad>, _ info: UnsafeMutablePointer<GstPadProbeInfo>) -> GstPadProbeReturn {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            restamp(pad, info)
            return GST_PAD_PROBE_OK
        }
        let event = info.pointee.data.assumingMemoryBound(to: GstEvent.self)
        switch event.pointee.type {
        case GST_EVENT_EOS:
            state.withLock {
                $0.nextStart = $0.lastEnd
                $0.restarts += 1
            }
            restart(pad)
            return GST_PAD_PROBE_DROP
        case GST_EVENT_FLUSH_START, GST_EVENT_FLUSH_STOP:
            return GST_PAD_PROBE_DROP
        case GST_EVENT_STREAM_START:
            return state.withLock { state in
                defer { state.passedStreamStart = true }
                return state.passedStreamStart ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
            }
        case GST_EVENT_SEGMENT:
            if state.withLock({ state in defer { state.passedSegment = true }; return state.passedSegment }) { return GST_PAD_PROBE_DROP }
            var segment = GstSegment()
            gst_segment_init(&segment, GST_FORMAT_TIME)
            guard let replacement = gst_event_new_segment(&segment) else { return GST_PAD_PROBE_OK }
            gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
            gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
            info.pointee.data = UnsafeMutableRawPointer(replacement)
            return GST_PAD_PROBE_OK
        default:
            return GST_PAD_PROBE_OK
        }
    }

    /// Moves the buffer's timestamp onto the endless stream's time line.
    private func restamp(_ pad: UnsafeMutablePointer<GstPad>, _ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        let buffer = info.pointee.data.assumingMemoryBound(to: GstBuffer.self)
        guard buffer.pointee.pts != GstClockTime.max else { return }
        let pts = Int64(buffer.pointee.pts)
        let duration = buffer.pointee.duration == GstClockTime.max ? 33_333_333 : Int64(buffer.pointee.duration)
        let stamped = state.withLock { state -> Int64 in
            if !state.started {
                state.started = true
                state.offset = Self.runningTime(of: pad) - pts
            }
            if let next = state.nextStart {
                state.offset = next - pts
                state.nextStart = nil
            }
            let stamped = max(0, pts + state.offset)
            state.lastEnd = stamped + duration
            return stamped
        }
        guard stamped != pts else { return }
        let object = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self)
        let writable = UnsafeMutableRawPointer(gst_mini_object_make_writable(object)!).assumingMemoryBound(to: GstBuffer.self)
        writable.pointee.pts = GstClockTime(stamped)
        writable.pointee.dts = GstClockTime.max
        info.pointee.data = UnsafeMutableRawPointer(writable)
    }

    /// The running time of the pad's element now; 0 before the pipeline has a clock.
    private static func runningTime(of pad: UnsafeMutablePointer<GstPad>) -> Int64 {
        guard let element = gst_pad_get_parent_element(pad) else { return 0 }
        defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
        guard let clock = gst_element_get_clock(element) else { return 0 }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(element)
        return now > base ? Int64(now - base) : 0
    }

    /// Seeks the file back to its start, off the streaming thread (a flushing seek from it
    /// would wait for itself).
    private func restart(_ pad: UnsafeMutablePointer<GstPad>) {
        let pad = Pad(owning: gst_object_ref(UnsafeMutableRawPointer(pad)).assumingMemoryBound(to: GstPad.self))
        DispatchQueue.global().async { [self] in
            let flags = GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue
            guard let seek = gst_event_new_seek(1.0, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags), GST_SEEK_TYPE_SET, 0,
                                                GST_SEEK_TYPE_NONE, -1) else { return }
            if gst_pad_push_event(pad.pointer.raw, seek) == 0 { onEnd(restarts) }
        }
    }
}
