import Foundation
import Testing
@testable import CaptureKit

/// A running virtual-camera session for tests.
struct TestSession {
    let session: CaptureSession
    let input: CaptureDeviceInput

    init(preset: SessionPreset = .vga640x480, device: CaptureDevice = CaptureDevice.find(virtual: .back), outputs: [any CaptureOutput]) throws {
        device.restoreDefaultControls()
        session = CaptureSession(context: TestContext.current)
        try session.setSessionPreset(preset)
        input = try CaptureDeviceInput(device: device)
        try session.checked.addInput(input)
        for output in outputs { try session.checked.addOutput(output) }
    }
}

extension CaptureDevice {
    /// The test's virtual camera facing `position` (its own context's, under `.ownDevices`).
    static func find(virtual position: Position) -> CaptureDevice {
        try! TestContext.current.find(position == .front ? "virtual-front" : "virtual")
    }

    /// The test's virtual microphone (its own context's, under `.ownDevices`).
    static var virtualMicrophone: CaptureDevice { TestContext.current.device(uniqueID: "virtual:microphone")! }
}

/// Runs a command and returns its standard output, and its standard error unless
/// `mergingErrors` is false (then it goes to the test's).
@discardableResult
func run(_ executable: String, _ arguments: [String], mergingErrors: Bool = true) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    if mergingErrors { process.standardError = pipe }
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("capturekit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
