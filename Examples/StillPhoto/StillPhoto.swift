// The seed 004 flow: a session with the default camera, a still image output, portrait
// orientation, one JPEG written to disk.
//
// Pipeline it compiles to (print session.pipelineDescription to see yours):
//   videotestsrc (virtual camera) ! capsfilter ! tee
//     tee. ! queue ! videoconvert ! jpegenc ! jifmux ! appsink   (frames admitted only on request)
//
// Run: swift run StillPhotoExample [output.jpg]
import CaptureKit
import Foundation

@main
struct StillPhoto {
    static func main() async throws {
        let path = CommandLine.arguments.dropFirst().first ?? "still-photo.jpg"

        let session = CaptureSession()
        try session.setSessionPreset(.photo)

        guard let camera = CaptureDevice.default(for: .video) else {
            print("no camera")
            return
        }
        try session.checked.addInput(CaptureDeviceInput(device: camera))

        let stillImageOutput = StillImageOutput()
        try stillImageOutput.setOutputSettings(.jpeg(quality: 0.9))
        try session.checked.addOutput(stillImageOutput)

        guard let connection = stillImageOutput.connection(with: .video) else { return }
        connection.videoOrientation = .portrait

        try await session.checked.startRunning()
        let sample = try await stillImageOutput.captureStillImage(from: connection)
        await session.checked.stopRunning()

        let jpeg = try StillImageOutput.jpegStillImageData(from: sample)
        try jpeg.write(to: URL(fileURLWithPath: path))
        print("\(path): \(sample.formatDescription.width)x\(sample.formatDescription.height), EXIF orientation \(sample.attachments.exifOrientation), \(jpeg.count) bytes")
    }
}
