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
/// mp4mux/qtmux ! fdsink` — and renames it over the fragmented one, atomically: a crash
/// during this step still leaves the fragmented file.
///
/// qtdemux reads a fragmented file fragment by fragment, and the muxer takes samples in time
/// order: where one track's samples lie seconds after the other's in the file (a recording
/// whose process was stopped, SIGSTOP or a suspended laptop, and resumed), the muxer can wait
/// for the later track while the demuxer waits for room for the earlier one. With queues of
/// GStreamer's default second, that was a deadlock. The queues here have no limit: they hold
/// what lies between the tracks in the file, at most the file.
///
/// The new file is written unnamed (``UnnamedFile``), so a process killed while finalizing
/// leaves its fragmented movie and nothing else. The finalizer gives up, leaving the fragmented
/// file, when it is interrupted, when GStreamer fails, or when the new file stops growing for
/// ``stallLimit`` seconds of its waiting (a stopped process does not count).
enum MovieFinalizer {
    /// Seconds the finalizer waits for the new file to grow before giving up.
    static let stallLimit = 20

    /// How often the finalizer looks at the bus, the new file's size and `isCancelled`.
    private static let poll: UInt64 = 200_000_000

    /// Rewrites `url` with a normal index; `matrix` is written into its `moov` (the muxer drops
    /// the orientation). `isCancelled` is asked every fifth of a second (on the calling thread).
    /// Returns why it did not, leaving the fragmented file, or nil once the file is replaced.
    static func finalize(_ url: URL, container: MovieContainer, matrix: DisplayMatrix?,
                         isCancelled: () -> Bool = { false }) -> Failure? {
        do throws(Failure) {
            try run(url, container: container, matrix: matrix, isCancelled: isCancelled)
            return nil
        } catch {
            return error
        }
    }

    private static func run(_ url: URL, container: MovieContainer, matrix: DisplayMatrix?, isCancelled: () -> Bool) throws(Failure) {
        if isCancelled() { throw .interrupted }
        let output = try UnnamedFile(replacing: url)
        let pipeline = try build(url, container: container, matrix: matrix, output: output)
        // The descriptor stays open until the pipeline has let go of it.
        defer {
            try? pipeline.setState(.null)
            withExtendedLifetime(output) {}
        }
        var size: Int64 = -1
        var stalledPolls = 0
        while true {
            if isCancelled() { throw .interrupted }
            switch pipeline.bus.pop(timeout: poll) {
            case .endOfStream?:
                try? pipeline.setState(.null)
                try output.replace(url)
                return
            case .error(let source, let message, _, _)?:
                throw .failed("\(source): \(message)")
            case nil:
                // A poll that timed out: the new file should have grown meanwhile. Polls, not the
                // clock: a process stopped (SIGSTOP) and resumed has not stalled.
                let now = output.size
                stalledPolls = now == size ? stalledPolls + 1 : 0
                size = now
                if stalledPolls * Int(poll / 1_000_000) >= stallLimit * 1000 { throw .stalled(seconds: stallLimit) }
            default:
                continue
            }
        }
    }

    /// The playing pipeline from `url` into `output`.
    private static func build(_ url: URL, container: MovieContainer, matrix: DisplayMatrix?, output: UnnamedFile) throws(Failure) -> Pipeline {
        let pipeline = Pipeline(name: "capturekit-finalize")
        do throws(GStreamerError) {
            let source = try Element(factory: "filesrc", name: "source")
            try source.set("location", .string(url.path))
            let demux = try Element(factory: "qtdemux", name: "demux")
            let mux = try Element(factory: container == .mov ? "qtmux" : "mp4mux", name: "mux")
            let sink = try Element(factory: "fdsink", name: "sink")
            try sink.set("fd", .int(Int(output.descriptor)))
            for element in [source, demux, mux, sink] { pipeline.add(element) }
            try source.link(to: demux)
            try mux.link(to: sink)
            demux.onPadAdded { [weak pipeline] pad in
                // On the demuxer's streaming thread: each track through a queue into the muxer.
                guard let pipeline else { return }
                let kind = pad.name.hasPrefix("video") ? "video_%u" : "audio_%u"
                guard let queue = try? Element(factory: "queue", name: "queue_\(pad.name)") else { return }
                // No limit: the queue holds what lies between this track and the other in the file.
                for limit in ["max-size-buffers", "max-size-bytes", "max-size-time"] { try? queue.set(limit, 0) }
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
            return pipeline
        } catch {
            // A file qtdemux refuses fails the state change; its words are on the bus.
            let said = postedError(on: pipeline) ?? "\(error)"
            try? pipeline.setState(.null)
            throw .failed(said)
        }
    }

    /// The first error `pipeline` posted, when one comes within a poll.
    private static func postedError(on pipeline: Pipeline) -> String? {
        while let posted = pipeline.bus.pop(timeout: poll) {
            if case .error(let source, let message, _, _) = posted { return "\(source): \(message)" }
        }
        return nil
    }
}
