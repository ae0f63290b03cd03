import CaptureKit
import Foundation

/// Writes interleaved PCM to a RIFF/WAVE file: the header first with placeholder lengths, the
/// samples as they come, and the real lengths when it is closed.
///
/// S16LE is written as 16-bit PCM (format tag 1, a 16-byte `fmt ` chunk); F32LE as 32-bit IEEE
/// float (format tag 3, an 18-byte `fmt ` chunk and a `fact` chunk with the frame count), as
/// the WAVE format asks of non-PCM data. Not thread-safe: one caller at a time.
final class WAVFileWriter {
    /// The largest data chunk a RIFF file can describe (its sizes are 32-bit).
    static let maxDataBytes = Int(UInt32.max) - 64

    let url: URL
    let format: AudioFormat
    private var handle: FileHandle?
    /// Bytes of samples written so far.
    private(set) var dataBytes = 0

    /// Creates (or replaces) the file at `url`, and its directory if needed, and writes the header.
    init(url: URL, format: AudioFormat) throws(PipelineRunError) {
        self.url = url
        self.format = format
        try PipelineRunFiles.write(Self.header(format: format, dataBytes: 0), to: url)
        do {
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            self.handle = handle
        } catch {
            throw .writeFailed(path: url.path, reason: "\(error)")
        }
    }

    /// Appends samples (whole frames of ``format``).
    func append(_ bytes: UnsafeRawBufferPointer) throws(PipelineRunError) {
        guard let handle else { throw .writeFailed(path: url.path, reason: "the WAV file is already closed") }
        guard dataBytes + bytes.count <= Self.maxDataBytes else {
            throw .writeFailed(path: url.path, reason: "a WAV file holds at most 4 GiB of samples")
        }
        do {
            try handle.write(contentsOf: Data(bytes))
        } catch {
            throw .writeFailed(path: url.path, reason: "\(error)")
        }
        dataBytes += bytes.count
    }

    /// Writes the real lengths into the header and closes the file. Closing twice does nothing.
    func close() throws(PipelineRunError) {
        guard let handle else { return }
        self.handle = nil
        do {
            defer { try? handle.close() }
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Self.header(format: format, dataBytes: dataBytes))
        } catch {
            throw .writeFailed(path: url.path, reason: "\(error)")
        }
    }

    deinit { try? close() }

    /// The RIFF header for `dataBytes` bytes of samples in `format`, up to the `data` chunk's size.
    static func header(format: AudioFormat, dataBytes: Int) -> Data {
        let isFloat = format.sampleFormat == .f32le
        let fmtSize = isFloat ? 18 : 16
        let factSize = isFloat ? 12 : 0
        var data = Data()
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        append("RIFF")
        append32(4 + (8 + fmtSize) + factSize + 8 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(fmtSize)
        append16(isFloat ? 3 : 1)
        append16(format.channelCount)
        append32(format.sampleRate)
        append32(format.sampleRate * format.bytesPerFrame)
        append16(format.bytesPerFrame)
        append16(format.sampleFormat.bytesPerSample * 8)
        if isFloat {
            append16(0)
            append("fact")
            append32(4)
            append32(dataBytes / format.bytesPerFrame)
        }
        append("data")
        append32(dataBytes)
        return data
    }
}
