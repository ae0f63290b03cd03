import Foundation
import GStreamerSwift
import Testing
@testable import CaptureKit

/// One suite every kind of device passes, whatever backend it has: formats, start to the first
/// frame, and each capability as its table declares it (a supported control's setter works, an
/// unsupported one's throws `unsupported`, naming the device). V4L2 runs on recorded webcams'
/// control tables here (no camera), and live on vivid in `scripts/v4l2vm-e2e.sh` (`v4l2-live`,
/// where /dev/video0 exists), as libcamera does on vimc there (`libcamera-live`) and PipeWire on
/// the node a daemon makes of vivid (`pipewire-live`).
@Suite("Device conformance", .ownDevices, .serialized)
struct DeviceConformanceTests {
    /// The kinds under test, by name; made fresh by `device(_:)`.
    /// `CAPTUREKIT_CONFORMANCE_KINDS` (comma-separated) narrows them, for a guest without Xvfb
    /// or an H.264 encoder.
    static let kinds: [String] = {
        let all = ["virtual-back", "virtual-front", "microphone", "v4l2:logitech-c920", "v4l2:logitech-c270", "file-video", "file-image",
                   "file-sequence", "screen"] + (FileManager.default.fileExists(atPath: "/dev/video0") ? ["v4l2-live"] : [])
        guard let chosen = ProcessInfo.processInfo.environment["CAPTUREKIT_CONFORMANCE_KINDS"] else { return all }
        // libcamera's camera exists only where a script loaded vimc, and PipeWire's where a script
        // started a daemon (both in the vivid guest), so only when named.
        return (all + ["libcamera-live", "pipewire-live"]).filter(chosen.split(separator: ",").map(String.init).contains)
    }()

    /// Devices that can stream here (recorded V4L2 tables cannot).
    static func streams(_ kind: String) -> Bool { !kind.hasPrefix("v4l2:") }

    /// Files and displays made for the suite, kept while it runs.
    final class Fixtures: @unchecked Sendable {
        static let shared = Fixtures()
        let directory = try! temporaryDirectory()
        lazy var xvfb: XvfbDisplay? = XvfbDisplay.isInstalled ? try? XvfbDisplay(width: 320, height: 240) : nil

        func file(_ kind: String) throws -> URL {
            switch kind {
            case "file-video":
                let clip = directory.appendingPathComponent("clip.mp4")
                if !FileManager.default.fileExists(atPath: clip.path) {
                    try run("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=15", "!", "video/x-raw,width=320,height=240,framerate=30/1",
                                                        "!", "x264enc", "!", "mp4mux", "!", "filesink", "location=\(clip.path)"])
                }
                return clip
            case "file-image":
                return try FileCameraTests.solidPNG("808080", in: directory)
            default:
                for index in 1...2 where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("seq-\(index).png").path) {
                    try FileManager.default.copyItem(at: try FileCameraTests.solidPNG("808080", in: directory),
                                                     to: directory.appendingPathComponent("seq-\(index).png"))
                }
                return directory.appendingPathComponent("seq-%d.png")
            }
        }
    }

    static func device(_ kind: String) throws -> CaptureDevice {
        switch kind {
        case "virtual-back": return CaptureDevice.find(virtual: .back)
        case "virtual-front": return CaptureDevice.find(virtual: .front)
        case "microphone": return CaptureDevice.virtualMicrophone
        case "screen":
            let xvfb = try #require(Fixtures.shared.xvfb, "Xvfb is installed by make test (scripts/apt-packages.txt)")
            return try #require(CaptureDevice(uniqueID: "screen:" + xvfb.name))
        case "libcamera-live":
            return try #require(CaptureDevice.devices(for: .video).first { $0.route == "libcamera" }, "a libcamera camera (vimc)")
        case "pipewire-live":
            return try #require(CaptureDevice.devices(for: .video).first { $0.route == "pipewire" }, "a PipeWire camera (vivid's node)")
        case "v4l2-live":
            return try #require(CaptureDevice.devices(for: .video).first { $0.route == "v4l2" }, "a V4L2 camera at /dev/video0")
        case let v4l2 where v4l2.hasPrefix("v4l2:"):
            // As discovery makes it: a monitored node's caps, its controls read from the recorded table.
            let fixture = String(v4l2.dropFirst(5))
            let caps = try CapsStructure.parse(caps: "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1")
            let description = try #require(V4L2DeviceDescription(displayName: fixture, properties: ["device.path": .string("/nonexistent/\(fixture)")],
                                                                 caps: caps, byIDDirectory: "/nonexistent"))
            return description.makeDevice(controls: try V4L2ControlTests.table(fixture))
        default:
            return try CaptureDevice(fileURL: try Fixtures.shared.file(kind))
        }
    }

    @Test("formats: at least one, the active one among them, of the device's media type", arguments: kinds)
    func formats(_ kind: String) throws {
        let device = try Self.device(kind)
        let media: MediaType = kind == "microphone" ? .audio : .video
        #expect(!device.formats.isEmpty && device.formats.contains(device.activeFormat) && device.mediaTypes == [media])
        #expect(device.formats.allSatisfy { $0.mediaType == media }, "\(device.formats)")
        #expect(!device.route.isEmpty && !device.uniqueID.isEmpty)
    }

    @Test("start: a session delivers the device's first frame (or audio buffer) to a data output", arguments: kinds.filter(streams))
    func firstFrame(_ kind: String) async throws {
        let device = try Self.device(kind)
        let session = CaptureSession()
        try session.checked.addInput(try CaptureDeviceInput(device: device))
        if device.hasMediaType(.audio) {
            let output = AudioDataOutput()
            try session.checked.addOutput(output)
            let stream = output.sampleBuffers()
            try await session.checked.startRunning()
            defer { session.stopRunning() }
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() != nil)
        } else {
            let output = VideoDataOutput()
            try session.checked.addOutput(output)
            let stream = output.sampleBuffers()
            try await session.checked.startRunning()
            defer { session.stopRunning() }
            var iterator = stream.makeAsyncIterator()
            let first = try #require(await iterator.next())
            #expect(first.formatDescription.width == device.activeFormat.width && first.formatDescription.height == device.activeFormat.height)
        }
    }

    /// A capability's setter, and whether the table says it is supported.
    struct Probe: Sendable {
        var name: String
        var supported: @Sendable (CaptureDevice) -> Bool
        var set: @Sendable (CaptureDevice) throws -> Void
    }

    static let probes: [Probe] = [
        Probe(name: "focus locked", supported: { $0.isFocusModeSupported(.locked) }) { try $0.checked.setFocusModeLocked(lensPosition: 0.5) },
        Probe(name: "continuous autofocus", supported: { $0.isFocusModeSupported(.continuousAutoFocus) }) { try $0.setFocusMode(.continuousAutoFocus) },
        Probe(name: "exposure locked", supported: { $0.isExposureModeSupported(.locked) }) { try $0.setExposureMode(.locked) },
        Probe(name: "custom exposure", supported: { $0.isExposureModeSupported(.custom) }) {
            try $0.checked.setExposureModeCustom(duration: CaptureDevice.currentExposureDuration, iso: CaptureDevice.currentISO)
        },
        Probe(name: "white balance locked", supported: { $0.isWhiteBalanceModeSupported(.locked) }) {
            try $0.checked.setWhiteBalanceModeLocked(with: CaptureDevice.currentWhiteBalanceGains)
        },
        Probe(name: "torch", supported: { $0.hasTorch }) { try $0.setTorchMode(.on) },
        Probe(name: "flash", supported: { $0.hasFlash }) { try $0.setFlashMode(.on) },
        Probe(name: "zoom 2x", supported: { $0.activeFormat.videoMaxZoomFactor >= 2 }) { try $0.setVideoZoomFactor(2) },
        Probe(name: "video HDR", supported: { $0.isVideoHDRSupported }) {
            try $0.setAutomaticallyAdjustsVideoHDREnabled(false)
            try $0.setVideoHDREnabled(true)
        },
        Probe(name: "low-light boost", supported: { $0.isLowLightBoostSupported }) { try $0.setAutomaticallyEnablesLowLightBoostWhenAvailable(true) },
    ]

    @Test("each capability as declared: supported ones set, unsupported ones throw 'unsupported' naming the device", arguments: kinds.filter { $0 != "microphone" })
    func capabilities(_ kind: String) throws {
        let device = try Self.device(kind)
        try device.lockForConfiguration()
        defer {
            device.restoreDefaultControls()
            device.unlockForConfiguration()
        }
        for probe in Self.probes {
            let supported = probe.supported(device)
            do {
                try probe.set(device)
                #expect(supported, "\(kind): \(probe.name) set though the table says unsupported")
            } catch let error as CaptureError {
                if supported {
                    Issue.record("\(kind): \(probe.name) is declared but failed: \(error)")
                } else {
                    #expect(error.code == .unsupported && error.description.contains(device.uniqueID), "\(kind): \(probe.name): \(error)")
                }
            } catch {
                Issue.record("\(kind): \(probe.name) threw an untyped error: \(error)")
            }
        }
    }

    @Test("a microphone has no camera control: each setter throws, naming the media type")
    func microphoneControls() throws {
        let device = CaptureDevice.virtualMicrophone
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        for probe in Self.probes {
            #expect(!probe.supported(device), "\(probe.name)")
            #expect(throws: CaptureError.self, "\(probe.name)") { try probe.set(device) }
        }
    }
}
