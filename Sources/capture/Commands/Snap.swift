import ArgumentParser
import CaptureKit
import Foundation

/// `capture snap`: one still from a running session.
struct Snap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take one still and print the path written.")

    @Option(name: .shortAndLong, help: "A uniqueID, an index from 'capture devices', or 'virtual' / 'virtual-front'.")
    var device = "default"

    @Option(name: .shortAndLong, help: "Where to write the still.")
    var output = "photo.jpg"

    @Option(help: "JPEG quality, 0-100.")
    var quality = 85

    @Option(help: "portrait | portraitUpsideDown | landscapeLeft | landscapeRight (EXIF Orientation).")
    var orientation: VideoOrientation?

    @Flag(help: "Mark the still as mirrored.")
    var mirrored = false

    @Option(help: "Session preset, e.g. photo, high, vga640x480, hd1280x720.")
    var preset: SessionPreset = .photo

    @Option(help: "jpeg | bgra | nv12 (raw formats write the bare frame).")
    var format: StillFormatOption = .jpeg

    @OptionGroup var controls: ControlOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (0...100).contains(quality) else {
            throw ValidationError("--quality \(quality) is out of range; use 0-100")
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        let camera = try device == "default"
            ? (CaptureDevice.default(for: .video) ?? CaptureDevice.find("virtual"))
            : CaptureDevice.find(device)
        let session = CaptureSession()
        let still = StillImageOutput()
        try still.setOutputSettings(format.settings(quality: quality))
        try session.setSessionPreset(preset)
        try session.addInput(CaptureDeviceInput(device: camera))
        try session.addOutput(still)
        try controls.apply(to: camera)
        guard let connection = still.connection(with: .video) else {
            throw RuntimeFailure(message: "no video connection to \(camera.uniqueID)")
        }
        if let orientation { connection.videoOrientation = orientation }
        if mirrored { connection.isVideoMirrored = true }
        if global.verbose { FileHandle.standardError.write(Data("pipeline: \(session.pipelineDescription)\n".utf8)) }
        try await session.startRunning()
        let sample: SampleBuffer
        do {
            sample = try await still.captureStillImage(from: connection)
        } catch {
            await session.stopRunning()
            throw error
        }
        await session.stopRunning()
        let data: Data
        if format == .jpeg {
            data = try StillImageOutput.jpegStillImageData(from: sample)
        } else {
            data = try sample.withUnsafeBytes { Data($0) }
        }
        let url = URL(fileURLWithPath: output)
        do {
            try data.write(to: url)
        } catch {
            throw RuntimeFailure(message: "cannot write \(output): \(error.localizedDescription)")
        }
        print(url.path)
    }
}

/// `--format` values.
enum StillFormatOption: String, ExpressibleByArgument, CaseIterable {
    case jpeg, bgra, nv12

    func settings(quality: Int) -> StillImageSettings {
        switch self {
        case .jpeg: .jpeg(quality: Double(quality) / 100)
        case .bgra: .uncompressed(.bgra)
        case .nv12: .uncompressed(.nv12)
        }
    }
}

extension VideoOrientation: ExpressibleByArgument {}
extension SessionPreset: ExpressibleByArgument {}
