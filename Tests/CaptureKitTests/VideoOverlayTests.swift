import Foundation
import Testing
@testable @_spi(Benchmark) import CaptureKit

/// Text burned into an encoded rendition, judged on the pixels ffmpeg decodes: on a still test
/// pattern, the recording's overlay corner changes as the clock's seconds do while the rest of
/// the picture stays; a still of the same session (the raw path) has no text there; and the
/// settings refuse an overlay that draws nothing.
@Suite("Video overlay", .ownDevices, .serialized)
struct VideoOverlayTests {
    /// 8-bit gray pixels of `crop` (`w:h:x:y`) in the frame at `seconds` of `file` (a movie;
    /// nil for a picture).
    static func gray(_ file: URL, at seconds: Double?, crop: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error"] + (seconds.map { ["-ss", String($0)] } ?? []) + ["-i", file.path, "-frames:v", "1", "-vf", "crop=\(crop)",
                             "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(!data.isEmpty, "ffmpeg decoded nothing of \(file.lastPathComponent)")
        return [UInt8](data)
    }

    /// How many pixels of two equally long runs differ by more than 40 levels (of 255): a
    /// changed glyph, not the encoders' noise. Runs of different lengths all differ.
    static func changed(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count, !a.isEmpty else { return max(a.count, b.count, 1) }
        return zip(a, b).filter { abs(Int($0) - Int($1)) > 40 }.count
    }

    @Test("a wall-clock overlay top left: that corner changes with the seconds, the rest of a still pattern does not, and a still of the same session has no text")
    func wallClock() async throws {
        let movie = MovieFileOutput(), still = StillImageOutput()
        let test = try MovieFileOutputTests.session(audio: false, device: .testPattern(width: 640, height: 480, isLive: true), outputs: [movie, still])
        try movie.setOutputSettings(VideoCodecSettings(overlay: VideoOverlay(time: .wallClock("%H:%M:%S"), position: .topLeft, size: 0.1)),
                                    for: try #require(movie.connection(with: .video)))
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("overlay.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        let sample = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        try await Task.sleep(for: .seconds(2.4))
        movie.stopRecording()
        #expect(await events.finished(within: 10) == .some(nil))
        let stillFile = url.deletingLastPathComponent().appendingPathComponent("still.jpg")
        try StillImageOutput.jpegStillImageData(from: sample).write(to: stillFile)

        // The text: 10 % of 480 lines high, at the top left. Away from it, the pattern's bars
        // (not its bottom right, which is noise) stay as they are.
        let corner = "240:96:0:0", bars = "200:100:200:120"
        let early = try Self.gray(url, at: 0.1, crop: corner), late = try Self.gray(url, at: 1.3, crop: corner)
        #expect(Self.changed(early, late) > 100, "the seconds did not change the corner: \(Self.changed(early, late)) pixels")
        let barsEarly = try Self.gray(url, at: 0.1, crop: bars), barsLate = try Self.gray(url, at: 1.3, crop: bars)
        #expect(Self.changed(barsEarly, barsLate) <= 10, "the pattern away from the text changed: \(Self.changed(barsEarly, barsLate)) pixels")
        // The still (raw frames, another output) has the pattern there, not the shaded text.
        let raw = try Self.gray(stillFile, at: nil, crop: corner)
        #expect(Self.changed(raw, early) > 2000, "the still's corner looks like the recording's: \(Self.changed(raw, early)) pixels differ")
        let rawBars = try Self.gray(stillFile, at: nil, crop: bars)
        #expect(Self.changed(rawBars, barsEarly) <= 50, "the still's bars differ from the recording's: \(Self.changed(rawBars, barsEarly)) pixels")
    }

    @Test("an overlay that draws nothing, or out of range, is refused naming the value")
    func refused() {
        for (overlay, named) in [(VideoOverlay(time: nil, text: nil), "no time and no text"), (VideoOverlay(size: 0.9), "0.9"),
                                 (VideoOverlay(time: .wallClock("")), "''")] {
            let error = #expect(throws: CaptureError.self) { try VideoCodecSettings(overlay: overlay).validate(available: [.h264]) }
            #expect(error?.message.contains(named) == true, "\(String(describing: error))")
        }
    }
}
