// A video-data consumer: frames as an AsyncSequence, the mean brightness of each computed from
// its luma plane without copying.
//
// Pipeline it compiles to:
//   videotestsrc (virtual camera) ! capsfilter ! tee
//     tee. ! queue leaky=downstream max-size-buffers=1 ! videoconvert ! videoscale
//          ! capsfilter video/x-raw,format=GRAY8,width=320,height=240 ! appsink
//
// Run: swift run FrameStatsExample [frames]
import CaptureKit
import Foundation

@main
struct FrameStats {
    static func main() async throws {
        let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 30

        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))

        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .gray8, width: 320, height: 240))
        try session.checked.addOutput(output)

        let frames = output.sampleBuffers(bufferingNewest: 8)
        try await session.checked.startRunning()
        var seen = 0
        var previous: CaptureTime?
        for await frame in frames {
            let mean = try frame.withPlanes { planes in
                let luma = planes[0]
                var sum = 0
                for row in 0..<luma.height {
                    let start = row * luma.bytesPerRow
                    for column in 0..<frame.formatDescription.width { sum += Int(luma.bytes[start + column]) }
                }
                return Double(sum) / Double(frame.formatDescription.width * luma.height)
            }
            let interval = previous.map { String(format: "%.1f ms", (frame.presentationTime.seconds - $0.seconds) * 1000) } ?? "-"
            print(String(format: "frame %3d  t=%.3f s  mean luma %.1f  interval %@", seen, frame.presentationTime.seconds, mean, interval))
            previous = frame.presentationTime
            seen += 1
            if seen == count { break }
        }
        await session.checked.stopRunning()
    }
}
