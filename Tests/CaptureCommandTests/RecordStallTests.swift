import Foundation
import Testing

@Suite("capture record: a stopped and resumed process", .serialized)
struct RecordStallTests {
    @Test("stopped 3 s (SIGSTOP, as a suspended laptop) and resumed, a recording ends soon after --duration with one index, video and audio")
    // --duration 6 stopped at 1 s hung in 4 runs of 4 before the mend (--duration 4: 2 of 5).
    func stoppedAndResumed() throws {
        let directory = try scratchDirectory()
        let file = directory.appendingPathComponent("stalled.mp4")
        let errors = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.arguments = ["record", "-d", "virtual", "--audio", "virtual", "--preset", "vga640x480", "--duration", "6", "-o", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        while process.isRunning, !FileManager.default.fileExists(atPath: file.path) { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 3)
        kill(process.processIdentifier, SIGCONT)
        // A hang guard, not a timing: before the mend the finalizer deadlocked until its 120 s deadline.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let error = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(!hung, "still running 60 s after SIGCONT: \(error)")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(error)")
        #expect(!error.contains("warning"), "\(error)")
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        let audio = try #require(probe.stream("audio"), "\(probe.fields)")
        #expect((Int(probe.field(video, "nb_read_frames") ?? "") ?? 0) > 0, "\(probe.fields)")
        #expect((Int(probe.field(audio, "nb_read_frames") ?? "") ?? 0) > 0, "\(probe.fields)")
        #expect(probe.duration > 0)
        let decoded = try runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-v", "error", "-i", file.path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.error.isEmpty, "ffmpeg decodes it: \(decoded.error)")
        // Given its single index: no fragments left.
        let boxes = try Self.topLevelBoxes(file)
        #expect(boxes.filter { $0 == "moov" }.count == 1 && !boxes.contains("moof"), "\(boxes)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["stalled.mp4", "stderr.txt"])
    }

    /// The types of an MP4's top-level boxes, in order.
    static func topLevelBoxes(_ file: URL) throws -> [String] {
        let data = try Data(contentsOf: file)
        var boxes: [String] = [], offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            boxes.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }
}
