import Foundation

/// Where a run's files go, and writing them with errors that name the path.
enum PipelineRunFiles {
    /// `path` as written in the file: absolute as is, relative under `directory`.
    static func resolve(_ path: String, in directory: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
    }

    /// Creates `directory` and its parents if they do not exist.
    static func createDirectory(_ directory: URL) throws(PipelineRunError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: directory.path, reason: reason(error))
        }
    }

    /// Writes `data` to `url`, replacing the file, creating its directory if needed.
    static func write(_ data: Data, to url: URL) throws(PipelineRunError) {
        try createDirectory(url.deletingLastPathComponent())
        do {
            try data.write(to: url)
        } catch {
            throw .writeFailed(path: url.path, reason: reason(error))
        }
    }

    /// Appends `data` to the file at `url`, which exists.
    static func append(_ data: Data, to url: URL) throws(PipelineRunError) {
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        } catch {
            throw .writeFailed(path: url.path, reason: reason(error))
        }
    }

    /// Removes the file at `url` if there is one.
    static func remove(_ url: URL) throws(PipelineRunError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw .writeFailed(path: url.path, reason: reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
