import Glibc

/// Reads a whole regular file of bounded size, refusing FIFOs, devices and directories before
/// reading (a FIFO would block the reader) and files larger than the limit before holding them.
enum BoundedFileReader {
    /// Why a file was not read.
    enum Failure: Error, Equatable {
        /// It could not be opened or read; `reason` is the system's, e.g. `no such file`.
        case unreadable(reason: String)
        /// It is not a regular file; `kind` says what it is, e.g. `a FIFO`.
        case notRegular(kind: String)
        /// It holds more than the limit; `size` is its size in bytes.
        case tooLarge(size: Int)
    }

    /// The bytes of the regular file at `path`, if it holds at most `limit` bytes.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(reason: reason(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(reason: reason(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .failure(.notRegular(kind: PipelineFolder.describe(status.st_mode & S_IFMT)))
        }
        guard Int(status.st_size) <= limit else { return .failure(.tooLarge(size: Int(status.st_size))) }
        // Read one byte past the limit, so that a file that grew since fstat is still caught.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return .failure(.unreadable(reason: reason(errno))) }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else { return .failure(.tooLarge(size: max(count, Int(status.st_size)))) }
        return .success(Array(bytes[..<count]))
    }

    /// The system's words for `code`, lower-cased as in a sentence: `permission denied`; a
    /// missing file is `no such file`.
    private static func reason(_ code: Int32) -> String {
        if code == ENOENT { return "no such file" }
        guard let text = strerror(code) else { return "error \(code)" }
        let words = String(cString: text)
        return words.prefix(1).lowercased() + words.dropFirst()
    }
}
