import Foundation

/// A recording's stream as its muxer writes it, read a buffer at a time, for cutting it into
/// files: its header, and where each unit a file can begin with starts. The units are
/// fragmented MP4/MOV's fragments (`moof` + `mdat`) and Matroska's clusters; both start a
/// new one at every video key frame.
struct MuxedStream {
    /// What one buffer of the stream is.
    struct Chunk {
        /// The buffer is (more of) the header.
        var isHeader = false
        /// The header is whole: this buffer is the first after it.
        var headerEnded = false
        /// A unit begins with this buffer: the time (seconds) of its first video frame, nil
        /// when it has no video, and whether that frame is a key frame.
        var unit: (videoTime: Double?, startsWithKeyFrame: Bool)?
        /// The video frames the buffer describes: how many, their length (`ticks` of a
        /// `1/scale` second), where they end and half a frame's length (seconds).
        var video: (frames: Int, ticks: UInt64, scale: UInt64, end: Double, halfFrame: Double)?
    }

    /// The header so far (ftyp and moov; Matroska's EBML header, Info, Tracks and Tags).
    var header: [UInt8] = []
    /// The MP4/MOV header's tracks, once it is whole.
    private var tracks: [FragmentedMovie.Track] = []
    /// The Matroska reader (nil for MP4/MOV), mutated in place.
    private var matroska: MatroskaStream?
    private var headerDone = false

    init(container: MovieContainer) {
        matroska = container == .mkv ? MatroskaStream() : nil
    }

    /// Reads the stream's next buffer. `keyUnit` is the buffer's flag: `matroskamux` clears
    /// the delta-unit flag on a cluster's first buffer exactly when a video key frame begins it
    /// (GStreamer 1.22 writes no reference blocks, so a grouped block's bytes cannot say).
    mutating func read(_ bytes: UnsafeRawBufferPointer, keyUnit: Bool) -> Chunk {
        matroska == nil ? readMovie(bytes) : readMatroska(bytes, keyUnit: keyUnit)
    }

    private mutating func readMovie(_ bytes: UnsafeRawBufferPointer) -> Chunk {
        var chunk = Chunk()
        guard FragmentedMovie.boxType(bytes) == FragmentedMovie.moof else {
            if !headerDone { header.append(contentsOf: bytes) }
            chunk.isHeader = !headerDone
            return chunk
        }
        if !headerDone {
            headerDone = true
            chunk.headerEnded = true
            tracks = header.withUnsafeBytes { FragmentedMovie.tracks(in: $0) }
        }
        let video = tracks.first { $0.isVideo }
        let run = FragmentedMovie.runs(inFragment: bytes, tracks: tracks).first { $0.track == video?.id }
        let scale = Double(max(1, video?.timescale ?? 1))
        chunk.unit = (run.map { Double($0.decodeTime) / scale }, run?.startsWithKeyFrame ?? false)
        if let run {
            chunk.video = (run.samples, run.duration, UInt64(max(1, video?.timescale ?? 1)), Double(run.decodeTime + run.duration) / scale,
                           Double(run.duration) / Double(max(1, run.samples)) / scale / 2)
        }
        return chunk
    }

    private mutating func readMatroska(_ bytes: UnsafeRawBufferPointer, keyUnit: Bool) -> Chunk {
        var chunk = Chunk()
        let start = matroska?.offset ?? 0
        var clusterAt: Int?, frames = 0, last: Int64 = 0
        matroska?.read(bytes) { element in
            switch element {
            case .cluster(let at): if clusterAt == nil { clusterAt = at - start }
            case .block(_, let track, let time, _) where track.isVideo:
                frames += 1
                last = time
            case .block: break
            }
        }
        if !headerDone {
            header.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<(clusterAt ?? bytes.count)]))
            guard clusterAt != nil else {
                chunk.isHeader = true
                return chunk
            }
            headerDone = true
            chunk.headerEnded = true
        }
        guard let stream = matroska else { return chunk }
        let frame = stream.video?.defaultDuration ?? 0
        if clusterAt == 0 {
            chunk.unit = (Double(stream.clusterTime * stream.timecodeScale) / 1e9, keyUnit)
        }
        if frames > 0 {
            chunk.video = (frames, UInt64(frames) * frame, 1_000_000_000, Double(last + Int64(frame)) / 1e9, Double(frame) / 2e9)
        }
        return chunk
    }

    /// `header` with `date` as its creation time (an MP4/MOV `mvhd`'s creation and modification
    /// times; Matroska's `DateUTC`).
    func header(created date: Date) -> [UInt8] {
        var header = header
        if let stream = matroska {
            guard let offset = stream.dateOffset, offset + 8 <= header.count else { return header }
            let nanoseconds = UInt64(bitPattern: Int64(date.timeIntervalSince1970 * 1e9) - MatroskaStream.dateEpoch)
            for index in 0..<8 { header[offset + index] = UInt8(truncatingIfNeeded: nanoseconds >> (8 * (7 - index))) }
        } else if let field = header.withUnsafeBytes({ FragmentedMovie.creationTimeField(in: $0) }) {
            let seconds = UInt64(max(0, date.timeIntervalSince1970)) + FragmentedMovie.epochOffset
            let width = field.wide ? 8 : 4
            for index in 0..<width { header[field.offset + index] = UInt8(truncatingIfNeeded: seconds >> (8 * (width - 1 - index))) }
            header.replaceSubrange((field.offset + width)..<(field.offset + 2 * width), with: header[field.offset..<(field.offset + width)])
        }
        return header
    }
}
