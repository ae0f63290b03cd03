import Foundation

extension SegmentArchive {
    /// One movie of a range, as ``export(from:to:)`` plans it: where its video truly starts and
    /// ends (wall clock), its container (the segments'), and its bytes: the first segment's
    /// header, then units (fragments, or Matroska clusters) read from the segments' files
    /// (``bytes(of:)``), to be written with ``write(to:)`` or streamed a unit at a time.
    public struct Export: Sendable, Equatable {
        /// A unit's bytes in a segment's file.
        public struct Piece: Sendable, Equatable {
            public var url: URL
            public var bytes: Range<Int>
        }

        public var start: Date
        public var end: Date
        /// The container, as its file extension (`mp4`, `mov` or `mkv`): the segments'.
        public var fileType: String
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

    /// Plans one movie of `from..<to` made of the segments' own fragments or clusters (no
    /// re-encoding), in their container: the first segment's header, then every unit from the
    /// one starting with the key frame at or before `from` to the last starting before `to`.
    /// The result says the true start (at or before `from`) and end. A range across a restart of the recording stops at the restart
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
        var header: Data?, fileType = "mp4"
        var pieces: [(start: Date, end: Date, key: Bool, piece: Export.Piece)] = []
        for segment in chosen where segment.recording == first.recording {
            let (data, layout, container) = try SegmentLayout.read(segment.url)
            guard let layout, let container else { continue }
            if header == nil { (header, fileType) = (data[layout.header], container.rawValue) }
            for unit in layout.units {
                pieces.append((origin.addingTimeInterval(unit.start), origin.addingTimeInterval(unit.end), unit.startsWithKeyFrame,
                               Export.Piece(url: segment.url, bytes: unit.bytes)))
            }
        }
        let opening = pieces.lastIndex { $0.key && $0.start <= from } ?? pieces.firstIndex { $0.key }
        guard let header, let opening else {
            throw .invalidSetting(name: "export range", value: "\(Self.timestamp(from))…\(Self.timestamp(to))", valid: "a range with a key frame in the folder's segments")
        }
        let taken = pieces[opening...].prefix { $0.start < to }
        return Export(start: taken.first!.start, end: taken.map(\.end).max()!, fileType: fileType, header: header, pieces: taken.map(\.piece))
    }

    /// Writes one movie of `from..<to` to `destination`: ``export(from:to:)`` then
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
    ///   fragment; ``CaptureError/Code/unsupportedFileType`` for an MKV segment (HLS carries
    ///   fragmented MP4).
    public func parts(of segment: Segment) throws(CaptureError) -> (header: Data, fragments: Data) {
        guard MovieContainer(rawValue: segment.url.pathExtension.lowercased())?.fragments == true else {
            throw .unsupportedFileType(segment.url, supported: ["mp4", "mov"])
        }
        let (data, layout, _) = try SegmentLayout.read(segment.url)
        guard let layout else {
            throw .fileUnreadable(segment.url.path, reason: "no movie fragment in it")
        }
        return (data[layout.header], data[layout.header.upperBound...])
    }
}
