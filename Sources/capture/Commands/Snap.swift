import ArgumentParser
import CaptureKit
import Foundation

/// `capture snap`: one still from a running session.
struct Snap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snap",
        abstract: "Take one still and print the path written.",
        discussion: "An existing file is an error (exit 1) unless --force, as for 'capture record'; a directory or an empty -o is a usage error (exit 2)."
    )

    @Option(name: .shortAndLong, help: .device)
    var device = "default"

    @Option(name: .shortAndLong, help: "Where to write the still.")
    var output = "photo.jpg"

    @Option(parsing: .unconditional, help: "JPEG quality, 0-100.")
    var quality = 85

    @Option(help: "portrait | portraitUpsideDown | landscapeLeft | landscapeRight (EXIF Orientation).")
    var orientation: VideoOrientation?

    @Flag(help: "Mark the still as mirrored.")
    var mirrored = false

    @Option(help: "Session preset, e.g. photo, high, vga640x480, hd1280x720.")
    var preset: SessionPreset = .photo

    @Option(help: "jpeg | bgra | nv12 (raw formats write the bare frame).")
    var format: StillFormatOption = .jpeg

    @Option(parsing: .unconditional, help: "Exposure bracket in EV, e.g. -2,0,2: writes NAME-1.EXT, NAME-2.EXT … and prints each path.")
    var bracket: EVList?

    @Flag(help: "Overwrite the output file (or a bracket's files) if it exists.")
    var force = false

    @OptionGroup var controls: ControlOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (0...100).contains(quality) else {
            throw ValidationError("--quality \(quality) is out of range; use 0-100")
        }
        try OutputFile.checkUsage(output, option: "-o", example: "photo." + (format == .jpeg ? "jpg" : format.rawValue))
    }

    /// The files the still or the bracket will write.
    private var paths: [String] {
        guard let bracket else { return [output] }
        return bracket.values.indices.map { Self.numbered(output, $0 + 1) }
    }

    func run() async throws {
        global.bootstrapLogging()
        for path in paths { try OutputFile.checkReplacing(path, force: force) }
        let camera = try CaptureDevice.find(device)
        let session = CaptureSession()
        let still = StillImageOutput()
        try still.setOutputSettings(format.settings(quality: quality))
        try session.setSessionPreset(preset)
        try session.checked.addInput(CaptureDeviceInput(device: camera))
        try session.checked.addOutput(still)
        try controls.apply(to: camera)
        guard let connection = still.connection(with: .video) else {
            throw RuntimeFailure(message: "no video connection to \(camera.uniqueID)")
        }
        if let orientation { connection.videoOrientation = orientation }
        if mirrored { connection.isVideoMirrored = true }
        if global.verbose { FileHandle.standardError.write(Data("pipeline: \(session.pipelineDescription)\n".utf8)) }
        try await session.checked.startRunning()
        // A bias or a focus search takes frames to reach: capture once they have.
        if controls.settings.exposureTargetBias != nil || controls.settings.focusMode == .autoFocus
            || controls.settings.focusMode == .continuousAutoFocus {
            _ = await camera.waitForAutoModesToSettle()
        }
        let samples: [SampleBuffer]
        do {
            if let bracket {
                samples = try await capture(bracket: bracket.values, still, connection)
            } else {
                samples = [try await still.captureStillImage(from: connection)]
            }
        } catch {
            await session.checked.stopRunning()
            throw error
        }
        await session.checked.stopRunning()
        for (sample, path) in zip(samples, paths) {
            try write(sample, to: path)
            print(URL(fileURLWithPath: path).path)
        }
    }

    /// Captures an auto-exposure bracket, one sample per EV value, in order.
    private func capture(bracket: [Float], _ still: StillImageOutput, _ connection: CaptureConnection) async throws -> [SampleBuffer] {
        let settings = bracket.map { AutoExposureBracketedStillImageSettings(exposureTargetBias: $0) }
        let (stream, continuation) = AsyncStream<Result<SampleBuffer, CaptureError>>.makeStream()
        try still.captureStillImageBracket(from: connection, withSettingsArray: settings) { sample, _, error in
            continuation.yield(sample.map { .success($0) } ?? .failure(error ?? .captureCancelled))
        }
        var samples: [SampleBuffer] = []
        for await result in stream {
            samples.append(try result.get())
            if samples.count == settings.count { break }
        }
        return samples
    }

    private func write(_ sample: SampleBuffer, to path: String) throws {
        let data = format == .jpeg ? try StillImageOutput.jpegStillImageData(from: sample) : try sample.withUnsafeBytes { Data($0) }
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
            throw RuntimeFailure(message: "cannot write \(path): \(reason)")
        }
    }

    /// "photo.jpg", 2 → "photo-2.jpg".
    static func numbered(_ path: String, _ index: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().path
        return ext.isEmpty ? "\(base)-\(index)" : "\(base)-\(index).\(ext)"
    }
}

/// `--bracket -2,0,2`.
struct EVList: ExpressibleByArgument {
    var values: [Float]

    init?(argument: String) {
        let values = argument.split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
        self.values = values.compactMap { $0 }
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

extension VideoOrientation: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { allCases.map(\.description) }
}
extension SessionPreset: ExpressibleByArgument {}
