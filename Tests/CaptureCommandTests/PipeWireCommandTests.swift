import Foundation
import Testing

/// Cameras behind a PipeWire daemon: `scripts/pipewire-session.sh` runs a daemon of the test's
/// own (private runtime folder and session bus), WirePlumber, and a `pipewiresink mode=provide`
/// camera node; `capture` runs beside it as any client would.
@Suite("PipeWire cameras", .serialized)
struct PipeWireCommandTests {
    static let session = ReadmeCommandTests.root.appendingPathComponent("scripts/pipewire-session.sh")

    /// Runs `script` with /bin/sh beside the daemon, in `directory`, the built products first on PATH.
    static func beside(_ script: String, in directory: URL) throws -> Completed {
        try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["-s", "KILL", "60", session.path, "--", "sh", "-c", script], in: directory,
                       pathFirst: binaries)
    }

    @Test("capture devices lists the PipeWire camera by its node name, route pipewire")
    func listed() throws {
        let result = try Self.beside("capture devices --json", in: try scratchDirectory())
        #expect(result.status == 0, "\(result.error)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let devices = try #require(object?["devices"] as? [[String: Any]])
        let camera = try #require(devices.first { $0["uniqueID"] as? String == "pipewire:capturekit-test-camera" }, "\(devices)")
        #expect(camera["route"] as? String == "pipewire" && camera["name"] as? String == "CaptureKit-Test-Camera")
        #expect(devices.first?["uniqueID"] as? String == "pipewire:capturekit-test-camera", "the only camera: no virtual ones listed")
    }

    @Test("two capture processes record the one PipeWire camera at once: both files are whole (ffprobe), neither was interrupted")
    func sharedByTwoRecorders() throws {
        let directory = try scratchDirectory()
        let result = try Self.beside("""
            capture record -d pipewire:capturekit-test-camera --duration 2 -o one.mp4 2> one.log &
            capture record -d 0 --duration 2 -o two.mp4 2> two.log
            status=$?; wait $! || exit 1; exit $status
            """, in: directory)
        #expect(result.status == 0, "\(result.error)")
        for name in ["one", "two"] {
            let log = (try? String(contentsOf: directory.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
            #expect(!log.contains("interrupted") && !log.contains("crashed"), "\(name): \(log)")
            let probe = try Probe(directory.appendingPathComponent("\(name).mp4"))
            let video = try #require(probe.stream("video"), "\(name): \(probe.fields)")
            let frames = Int(probe.field(video, "nb_read_frames") ?? "") ?? 0
            #expect(probe.field(video, "width") == "640" && frames >= 55 && abs(probe.duration - 2) < 0.2, "\(name): \(frames) frames, \(probe.duration) s")
        }
    }
}
