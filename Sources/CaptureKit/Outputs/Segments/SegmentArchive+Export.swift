import Foundation

extension SegmentArchive {
    /// One MP4 of a range, as ``export(from:to:)`` plans it: where its video truly starts and
    /// ends (wall clock), and its bytes: the first segment's header, then fragments read from
    /// the segments' files (``bytes(of:)``), to be written with ``write(to:)`` or streamed a
    /// fragment at a time.
    public struct Export: Sendable, Equatable {
        /// A fragment's bytes in a segment's file.
        public struct Piece: Sendable, Equatable {
            public var url: URL
            public var bytes: Range<Int>
        }

        public var start: Date
        public var end: Date
        public var header: Data
        public var pieces: [Piece]
        public var fragments: Int { pieces.count }
        /// The file's length.
        public var byteCount: Int { header.count + pieces.reduce(0) { $0 + $1.bytes.count } }

        /// A piece's bytes, read from its segment now.
        ///
        /// - Throws: ``CaptureError/Code/fileUnreadable`` for a segment that can no longer be
        ///   read (deleted by retention since, or cut short).
        public func bytes(of piece: Piece) throws(CaptureError) -> Data {
            do {
                let handle = try FileHandle(forReadingFrom: piece.url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(piece.bytes.lowerBound))
                let data = try handle.read(upToCount: piece.bytes.count) ?? Data()
                guard data.count == piece.bytes.count else { throw CaptureError.fileUnreadable(piece.url.path, reason: "it is shorter than when it was read") }
                return data
            } catch let error as CaptureError {
                throw error
            } catch {
                throw .fileUnreadable(piece.url.path, reason: error.localizedDescription)
            }
        }

        /// Writes the file to `destination` (replacing it).
        ///
        /// - Throws: ``CaptureError/Code/recordingFailed`` when it cannot be written,
        ///   ``CaptureError/Code/fileUnreadable`` as ``bytes(of:)``.
        public func write(to destination: URL) throws(CaptureError) {
            let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).partial")
            func failed(_ error: any Error) -> CaptureError {
                (error as? CaptureError) ?? CaptureError(code: .recordingFailed, message: "cannot write '\(destination.path)': \(error.localizedDescription)",
                                                         value: destination.path)
            }
            do {
                guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                    throw CaptureError(code: .recordingFailed, message: "cannot create '\(partial.path)'", value: destination.path)
                }
                let handle = try FileHandle(forWritingTo: partial)
                defer { try? handle.close() }
                try handle.write(contentsOf: header)
                for piece in pieces { try handle.write(contentsOf: try bytes(of: piece)) }
                try handle.synchronize()
                _ = try? FileManager.default.removeItem(at: destination)
                try FileManager.default.moveItem(at: partial, to: destination)
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw failed(error)
            }
        }
    }

    /// Plans one MP4 of `from..<to` made of the segments' own fragments (no re-encoding): the
    /// first segment's header, then every fragment from the one starting with the key frame at
    /// or before `from` to the last starting before `to`. The result says the true start (at or
    /// before `from`) and end. A range across a restart of the recording stops at the restart
    /// (its clock starts again).
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` for an empty range or one no segment
    ///   covers; ``CaptureError/Code/fileUnreadable`` for a segment that cannot be read.
    public func export(from: Date, to: Date) throws(CaptureError) -> Export {
        guard from < to else { throw .invalidSetting(name: "export range", value: "\(from)…\(to)", valid: "a start before the end") }
        let chosen = segments(from: from, to: to)
        guard let first = chosen.first else {
            throw .invalidSetting(name: "export range", value: "\(Self.timestamp(from))…\(Self.timestamp(to))", valid: "a range the folder's segments cover")
        }
        let origin = first.start.addingTimeInterval(-first.recordingTime)
        var header: Data?
        var pieces: [(start: Date, end: Date, key: Bool, piece: Export.Piece)] = []
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
                                       Export.Piece(url: segment.url, bytes: start.lowerBound..<box.upperBound)))
                    }
                }
            }
        }
        let opening = pieces.lastIndex { $0.key && $0.start <= from } ?? pieces.firstIndex { $0.key }
        guard let header, let opening else {
            throw .invalidSetting(name: "export range", value: "\(Self.timestamp(from))…\(Self.timestamp(to))", valid: "a range with a key frame in the folder's segments")
        }
        let taken = pieces[opening...].prefix { $0.start < to }
        return Export(start: taken.first!.start, end: taken.map(\.end).max()!, header: header, pieces: taken.map(\.piece))
    }

    /// Writes one MP4 of `from..<to` to `destination`: ``export(from:to:)`` then
    /// ``Export/write(to:)``.
    ///
    /// - Throws: as those two.
    @discardableResult
    public func export(from: Date, to: Date, destination: URL) throws(CaptureError) -> Export {
        let export = try export(from: from, to: to)
        try export.write(to: destination)
        return export
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
