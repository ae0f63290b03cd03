import CaptureKit
import Foundation

/// The paths a run writes, and the check that they stay in its folder.
extension PipelineFile {
    /// The most `{n}` indices of a pattern checked one by one; files an earlier run left beyond
    /// them are found by listing the pattern's folder.
    static let checkedIndices = 10_000

    /// One path a run writes, as the file writes it.
    struct WrittenPath {
        /// The path or path pattern.
        var path: String
        /// Where it is written (the output's start when the file gives no path).
        var location: SourceLocation
        /// Whether `{n}` in it stands for an index (stills and dumped frames).
        var indexed = false
        /// How many indices a run writes, when the file says (a still's `count`, a `frames` run).
        var count: Int?
        /// Whether it is a folder (an `hls:` stream's).
        var isDirectory = false
    }

    /// Every path a run of this file writes: stills, dumped frames, code lines, WAV files,
    /// movies and HLS folders.
    var writtenPaths: [WrittenPath] {
        var paths: [WrittenPath] = []
        for output in outputs {
            switch output {
            case .still(let spec):
                paths.append(WrittenPath(path: spec.path, location: spec.pathLocation ?? spec.location, indexed: true, count: spec.count))
            case .videoData(let spec):
                guard spec.action == .dump, let path = spec.path else { continue }
                let frames: Int? = if case .frames(let count) = run { count } else { nil }
                paths.append(WrittenPath(path: path, location: spec.pathLocation ?? spec.location, indexed: true, count: frames))
            case .metadata(let spec):
                guard let path = spec.path else { continue }
                paths.append(WrittenPath(path: path, location: spec.pathLocation ?? spec.location))
            case .audioData(let spec):
                guard let path = spec.path else { continue }
                paths.append(WrittenPath(path: path, location: spec.pathLocation ?? spec.location))
            case .movie(let spec) where spec.isSegmented:
                // The folder, or a pattern's folder before its first field (no `..` after it).
                let folder = spec.path.split(separator: "/", omittingEmptySubsequences: false).prefix { !$0.contains("%") }.joined(separator: "/")
                paths.append(WrittenPath(path: folder.isEmpty ? "." : folder, location: spec.pathLocation ?? spec.location, isDirectory: true))
            case .movie(let spec):
                paths.append(WrittenPath(path: spec.path, location: spec.pathLocation ?? spec.location))
            case .stream(let spec):
                guard case .hls(let hls) = spec.target else { continue }
                paths.append(WrittenPath(path: hls.directory.path, location: spec.targetLocation ?? spec.location, isDirectory: true))
            case .preview:
                continue
            }
        }
        return paths
    }

    /// Checks that every path a run of this file writes stays inside `directory`, and that no
    /// file it writes exists unless `replacingExistingFiles`.
    ///
    /// A path resolves as a write would open it: relative paths under `directory`, absolute
    /// ones as written; the deepest part that exists with every symbolic link followed, the
    /// rest as written, where `..` is refused. It must then lie inside `directory`, resolved
    /// the same way. `capture validate` and `capture run` make this check, and
    /// ``PipelineSession/run(writingTo:replacingExistingFiles:timeout:)`` makes it before it
    /// starts the session. An `hls:` stream's folder is checked too (it is resolved against the
    /// working directory when the file is loaded).
    /// - Parameters:
    ///   - directory: The folder the run writes into.
    ///   - replacingExistingFiles: Whether the run may replace files that exist (`--force`).
    /// - Throws: ``PipelineFileError`` at the path's value:
    ///   ``PipelineFileError/Kind/pathOutsideDirectory(_:resolved:directory:)`` for a path that
    ///   leads out, ``PipelineFileError/Kind/fileExists(_:resolved:)`` for a file that exists,
    ///   ``PipelineFileError/Kind/unsafeOutputPath(_:reason:)`` for `..` after a missing folder,
    ///   a link to nothing, or an existing directory, FIFO or device where a file goes.
    public func checkOutputPaths(in directory: URL, replacingExistingFiles: Bool = false) throws(PipelineFileError) {
        let folder = PipelineFolder(directory)
        let placeholder = StillSpec.indexPlaceholder
        for written in writtenPaths {
            guard written.indexed, written.path.contains(placeholder) else {
                try folder.check(written.path, at: written.location, isDirectory: written.isDirectory, replacing: replacingExistingFiles)
                continue
            }
            let checked = min(written.count ?? 1, Self.checkedIndices)
            for index in 1...checked {
                try folder.check(written.path.replacing(placeholder, with: String(index)), at: written.location,
                                 isDirectory: false, replacing: replacingExistingFiles)
            }
            if (written.count ?? .max) > checked {
                try folder.checkLeftovers(of: written.path, after: checked, at: written.location, replacing: replacingExistingFiles)
            }
        }
    }
}
