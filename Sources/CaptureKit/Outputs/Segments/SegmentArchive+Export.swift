import Foundation

extension SegmentArchive {
    /// What an export wrote: where its video truly starts and ends (wall clock), and its
    /// fragments.
    public struct Export: Sendable, Equatable {
        public var start: Date
        public var end: Date
        public var fragments: Int
    }

    /// Writes one MP4 of `from..<to` to `destination`, made of the segments' own fragments (no
    /// re-encoding): the first segment's header, then every fragment from the one starting
    /// with the key frame at or before `from` to the last starting before `to`. The result says
    /// the true start (at or before `from`) and end. A range across a restart of the recording
    /// stops at the restart (its clock starts again).
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` for an empty range or one no segment
    ///   covers; ``CaptureError/Code/fileUnreadable`` for a segment that cannot be read,
    ///   ``CaptureError/Code/recordingFailed`` when the file cannot be written.
    @discardableResult
    public func export(from: Date, to: Date, destination: URL) throws(CaptureError) -> Export {
        guard from < to else { throw .invalidSetting(name: "export range", value: "\(from)…\(to)", valid: "a start before the end") }
        let chosen = segments(from: from, to: to)
        guard let first = chosen.first else {
            throw .invalidSetting(name: "export range", value: "\(SegmentIndex.format(from))…\(SegmentIndex.format(to))", valid: "a range the folder's segments cover")
        }
        let origin = first.start.addingTimeInterval(-first.recordingTime)
        var header: Data?
        var pieces: [(start: Date, end: Date, key: Bool, bytes: Data)] = []
        for segment in chosen where segment.recording == first.recording {
            let data: Data
            do { data = try Data(contentsOf: segment.url, options: .mappedIfSafe) } catch {
                throw .fileUnreadable(segment.url.path, reason: error.localizedDescription)
            }
            data.withUnsafeBytes { bytes in
                let tracks = FragmentedMovie.tracks(in: bytes)
                var moof: Range<Int>?
                FragmentedMovie.forEachBox(bytes, 0..<bytes.count) { type, body in
                    let box = (body.lowerBound - 8)..<body.upperBound
                    if type == FragmentedMovie.moof {
                        if header == nil { header = Data(bytes[0..<box.lowerBound]) }
                        moof = box
                    } else if type == FragmentedMovie.mdat, let start = moof {
                        moof = nil
                        let runs = FragmentedMovie.runs(inFragment: UnsafeRawBufferPointer(rebasing: bytes[start]), tracks: tracks)
                        let timed = runs.compactMap { run -> (Double, Double, Bool)? in
                            guard let track = tracks.first(where: { $0.id == run.track }), track.timescale > 0 else { return nil }
                            let scale = Double(track.timescale)
                            return (Double(run.decodeTime) / scale, Double(run.decodeTime + run.duration) / scale, track.isVideo && run.startsWithKeyFrame)
                        }
                        guard let begin = timed.map(\.0).min(), let finish = timed.map(\.1).max() else { return }
                        pieces.append((origin.addingTimeInterval(begin), origin.addingTimeInterval(finish), timed.contains { $0.2 },
                                       Data(bytes[start.lowerBound..<box.upperBound])))
                    }
                }
            }
        }
        let opening = pieces.lastIndex { $0.key && $0.start <= from } ?? pieces.firstIndex { $0.key }
        guard let header, let opening else {
            throw .invalidSetting(name: "export range", value: "\(SegmentIndex.format(from))…\(SegmentIndex.format(to))", valid: "a range with a key frame in the folder's segments")
        }
        let taken = pieces[opening...].prefix { $0.start < to }
        var output = header
        for piece in taken { output.append(piece.bytes) }
        do { try output.write(to: destination, options: .atomic) } catch {
            throw CaptureError(code: .recordingFailed, message: "cannot write '\(destination.path)': \(error.localizedDescription)", value: destination.path)
        }
        return Export(start: taken.first!.start, end: taken.map(\.end).max()!, fragments: taken.count)
    }
}

extension SegmentArchive {
    /// The segment the index lists as `file` (a path relative to the folder), or nil: not
    /// listed, or leading out of the folder.
    public func segment(named file: String) -> Segment? {
        allSegments().first { $0.file == file }
    }

    /// A segment's file split where its fragments begin: its header (`ftyp` and `moov`: an
    /// HLS initialisation section) and its fragments (`moof` and `mdat` pairs: an HLS media
    /// segment). Segments of one recording share their header but for its creation time.
    ///
    /// - Throws: ``CaptureError/Code/fileUnreadable`` for a file that cannot be read or holds no
    ///   fragment.
    public func parts(of segment: Segment) throws(CaptureError) -> (header: Data, fragments: Data) {
        let data: Data
        do { data = try Data(contentsOf: segment.url, options: .mappedIfSafe) } catch {
            throw .fileUnreadable(segment.url.path, reason: error.localizedDescription)
        }
        var first: Int?
        data.withUnsafeBytes { bytes in
            FragmentedMovie.forEachBox(bytes, 0..<bytes.count) { type, body in
                if type == FragmentedMovie.moof, first == nil { first = body.lowerBound - 8 }
            }
        }
        guard let first else { throw .fileUnreadable(segment.url.path, reason: "no movie fragment in it") }
        return (data.prefix(first), data.suffix(from: first))
    }
}
