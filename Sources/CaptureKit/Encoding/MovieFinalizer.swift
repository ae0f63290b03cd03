import Foundation
import GStreamerSwift

/// Gives a finished MP4 or MOV recording its normal index.
///
/// While recording, the muxer writes standard fragments (`fragment-mode=dash-or-mss`: an empty
/// `moov`, then `moof`+`mdat` pairs), which ffmpeg, browsers and GStreamer read at every
/// moment — what a crash leaves. qtmux 1.22's other mode, `first-moov-then-finalise`, was
/// tried first: with audio interleaved, a fragment's run of one video sample of the same size
/// as the fragment's first loses its size (the per-run flag is set on another run), and ffmpeg
/// refuses the whole file ("error reading header") after a crash; it happened in most runs of
/// the kill test on this machine. When the recording finishes, the finalizer copies the
/// samples (no re-encoding) into a plain file with one `moov` — `filesrc ! qtdemux ! queue !
/// mp4mux/qtmux ! filesink` — and renames it over the fragmented one, atomically: a crash
/// during this step still leaves the fragmented file.
enum MovieFinalizer {
    /// Rewrites `url` with a normal index; `matrix` is written into its `moov` (the muxer drops
    /// the orientation). Returns false, leaving the fragmented file, when that fails.
    static func finalize(_ url: URL, container: MovieContainer, matrix: DisplayMatrix?) -> Bool {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).finalizing")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let pipeline = Pipeline(name: "capturekit-finalize")
        do throws(GStreamerError) {
            let source = try Element(factory: "filesrc", name: "source")
            try source.set("location", url.path)
            let demux = try Element(factory: "qtdemux", name: "demux")
            let mux = try Element(factory: container == .mov ? "qtmux" : "mp4mux", name: "mux")
            let sink = try Element(factory: "filesink", name: "sink")
            try sink.set("location", temporary.path)
            for element in [source, demux, mux, sink] { pipeline.add(element) }
            try source.link(to: demux)
            try mux.link(to: sink)
            demux.onPadAdded { [weak pipeline] pad in
                // On the demuxer's streaming thread: each track through a queue into the muxer.
                guard let pipeline else { return }
                let kind = pad.name.hasPrefix("video") ? "video_%u" : "audio_%u"
                guard let queue = try? Element(factory: "queue", name: "queue_\(pad.name)") else { return }
                pipeline.add(queue)
                _ = queue.syncStateWithParent()
                // qtdemux starts every track's segment where one track starts; the muxer would
                // drop another's earlier samples (a video key frame at 0 before the audio's first).
                pad.startTimeSegmentsAtZero()
                try? pad.link(to: queue)
                if let target = try? mux.requestPad(kind) { try? queue.staticPad("src").link(to: target) }
            }
            if let matrix {
                try sink.staticPad("sink").addBufferProbe { buffer in
                    if buffer.holds(MovieFileOutput.moov, at: 4) {
                        _ = try? buffer.withWritableBytes { matrix.write(intoMovieHeader: $0) }
                    }
                    return .pass
                }
            }
            try pipeline.setState(.playing)
        } catch {
            CaptureLog.logger.error("finalizing \(url.path): \(error)")
            try? pipeline.setState(.null)
            return false
        }
        defer { try? pipeline.setState(.null) }
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            switch pipeline.bus.pop(timeout: 500_000_000) {
            case .endOfStream?:
                try? pipeline.setState(.null)
                return rename(temporary, over: url)
            case .error(let source, let message, _, _)?:
                CaptureLog.logger.error("finalizing \(url.path): \(source): \(message)")
                return false
            default:
                continue
            }
        }
        return false
    }

    /// Replaces `url` with `temporary` in one step.
    private static func rename(_ temporary: URL, over url: URL) -> Bool {
        Foundation.rename(temporary.path, url.path) == 0
    }
}
