// A camera served over SRT and written as live HLS at once, from one encode: the runnable form
// of the documentation's "Streaming video" article. It watches its own outputs and exits non-zero
// unless both sent frames.
//
// Run: swift run StreamCameraExample [HLS-DIRECTORY] [SRT-PORT]
//      then: ffplay srt://127.0.0.1:9000  (while it runs)
import CaptureKit
import Foundation

@main
struct StreamCamera {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        let directory = arguments.first ?? "live"
        let port = arguments.dropFirst().first ?? "9000"

        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))

        let srt = try StreamOutput(target: StreamTarget(parsing: "srt://:\(port)"))
        let hls = try StreamOutput(target: StreamTarget(parsing: "hls:\(directory)"))
        try session.checked.addOutput(srt)
        try session.checked.addOutput(hls)   // shares srt's encode
        try await session.checked.startRunning()
        print("serving srt://127.0.0.1:\(port) and \(hls.target.description)")

        try await Task.sleep(for: .seconds(3))
        await session.checked.stopRunning()

        for output in [srt, hls] {
            let stats = output.statistics
            print("\(output.target.description): \(stats.framesSent) frames, \(stats.bytesSent) bytes, \(stats.framesDropped) dropped")
        }
        guard srt.statistics.framesSent > 0, hls.statistics.framesSent > 0 else { exit(1) }
    }
}
