import CaptureKit
import Foundation
import Testing

/// PortingFromAVFoundation.md's tables and samples: every CaptureKit row is a line of
/// PortingGuideRows.swift (or of this file, for the samples), compiled here without @testable,
/// and the rows run on the virtual camera with the effects AVFoundation's would have.
extension SharedDevices {
    @Suite("Porting guide, checked", .serialized)
    struct PortingGuideTests {
        static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        static let article = folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CaptureKit/CaptureKit.docc/PortingFromAVFoundation.md")

        /// A file's lines, trimmed.
        static func lines(_ name: String) throws -> Set<String> {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        }

        @Test("every CaptureKit cell of the article's tables is a line compiled here, and every swift block too")
        func rowsMatch() throws {
            let text = try String(contentsOf: Self.article, encoding: .utf8)
            let compiled = try Self.lines("PortingGuideRows.swift").union(Self.lines("PortingGuideTests.swift"))
            let cells = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row -> String? in
                let columns = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard columns.count == 2, columns[1].hasPrefix("`"), columns[1].hasSuffix("`") else { return nil }
                return String(columns[1].dropFirst().dropLast())
            }
            #expect(cells.count >= 40, "\(cells.count) rows")
            for cell in cells { #expect(compiled.contains(cell), "not compiled in PortsTests/Guide: \(cell)") }
            let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { String($0.components(separatedBy: "```")[0]) }
            #expect(blocks.count == 2)
            for line in blocks.flatMap({ $0.split(separator: "\n") }) {
                #expect(compiled.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
            }
        }

        @Test("the same code: assignments and calls take effect on the virtual camera, without try")
        func sameCode() throws {
            let device = try #require(CaptureDevice.default(for: .video))
            defer { Self.restore(device) }
            let session = CaptureSession()
            let frames = VideoDataOutput()
            PortingGuideRows.session(session, input: try CaptureDeviceInput(device: device), frames: frames)
            #expect(session.sessionPreset == .hd1280x720 && session.inputs.count == 1 && session.outputs.isEmpty && !session.isRunning)
            try PortingGuideRows.device(device)
            #expect(device.videoZoomFactor == 2 && device.isSubjectAreaChangeMonitoringEnabled)
            #expect(device.exposureMode == .custom && device.iso == 200 && device.exposureDuration == CMTimeMake(value: 1, timescale: 100))
            #expect(device.focusMode == .locked && device.lensPosition == 0.5 && device.whiteBalanceMode == .locked)
            #expect(!device.isLockedForConfiguration)
        }

        @Test("the same code: outputs take dictionaries, and frames read through CoreMedia and CoreVideo calls")
        func outputsAndFrames() async throws {
            let device = try #require(CaptureDevice.default(for: .video))
            let session = CaptureSession()
            session.sessionPreset = .vga640x480
            session.addInput(try CaptureDeviceInput(device: device))
            let frames = VideoDataOutput(), still = StillImageOutput(), codes = MetadataOutput()
            for output in [frames, still, codes] as [any CaptureOutput] { session.addOutput(output) }
            let connection = try #require(frames.connection(with: .video))
            let delegate = GreenRows()
            PortingGuideRows.outputs(frames: frames, still: still, codes: codes, connection: connection, delegate: delegate,
                                     queue: DispatchQueue(label: "frames"))
            #expect(frames.settings?.pixelFormat == .bgra && still.settings == .jpeg(quality: 0.85))
            #expect(codes.metadataObjectTypes == [.qr, .ean13] && connection.videoOrientation == .portrait)
            #expect(frames.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? NSNumber == NSNumber(value: kCVPixelFormatType_32BGRA))
            session.startRunning()
            defer { session.stopRunning() }
            let rows = await delegate.wait(for: 3)
            #expect(rows.count >= 3 && rows.allSatisfy { (0...255).contains($0.green) })
            #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.seconds < $1.seconds }, "\(rows)")
        }

        @Test("the multi-camera rows connect one camera to a data output and a preview, at a cost below 1")
        func multiCam() throws {
            let camera = try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            let frames = VideoDataOutput(), preview = VideoPreview()
            preview.sink = .none
            let (pip, tooCostly) = try #require(PortingGuideRows.multiCam(camera: camera, input: try CaptureDeviceInput(device: camera),
                                                                          frames: frames, preview: preview))
            #expect(!tooCostly && pip.hardwareCost > 0)
            #expect(frames.connection(with: .video)?.inputPorts.first?.device == camera && preview.connection?.videoPreviewLayer === preview)
            #expect(pip.connections.count == 2 && pip.outputs.count == 1)
        }

        @Test("status, reason and error rows")
        func values() throws {
            let error = CaptureError(code: .diskFull, message: "full")
            let (status, reason, failure) = PortingGuideRows.values(note: Notification(name: .CaptureSessionRuntimeError, object: nil,
                                                                                       userInfo: [CaptureSessionErrorKey: error]))
            #expect(status == .authorized && reason == .videoDeviceInUseByAnotherClient && (failure as? CaptureError) == error)
            #expect((failure.map { $0 as NSError })?.code == -11807, "AVErrorDiskFull")
        }

        @Test("checked rows throw nothing when the values are good; the article's error sample catches one")
        func checked() async throws {
            let device = try #require(CaptureDevice.default(for: .video))
            defer { Self.restore(device) }
            let session = CaptureSession()
            let status = try await PortingGuideRows.checked(session, device: device, input: try CaptureDeviceInput(device: device),
                                                            codes: MetadataOutput(), frames: VideoDataOutput(), still: StillImageOutput())
            #expect(status == .authorized && device.lensPosition == 0.2 && device.iso == 400)

            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            do {
                try device.setVideoZoomFactor(100)
            } catch {
                switch error.code {
                case .outOfRange: print(error)  // video zoom factor 100.0 is out of range 1.0...16.0
                case .notLocked: print("call lockForConfiguration() first")
                default: throw error
                }
            }
            device.focusMode = .autoFocus
            for await adjusting in device.values(of: \.isAdjustingFocus) {
                print(adjusting ? "focusing…" : "in focus")
                if !adjusting { break }
            }
            #expect(!device.isAdjustingFocus)
        }

        /// Puts the shared virtual camera back as other tests expect it.
        static func restore(_ device: CaptureDevice) {
            guard (try? device.lockForConfiguration()) != nil else { return }
            device.videoZoomFactor = 1
            device.focusMode = .continuousAutoFocus
            device.exposureMode = .continuousAutoExposure
            device.whiteBalanceMode = .continuousAutoWhiteBalance
            device.isSubjectAreaChangeMonitoringEnabled = false
            device.unlockForConfiguration()
        }
    }
}

/// Reads each frame's first row through the article's CoreVideo rows, on its queue.
final class GreenRows: VideoDataOutputSampleBufferDelegate {
    private let lock = NSLock()
    private var rows: [(green: Double, seconds: Double)] = []

    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: CaptureConnection) {
        guard let row = PortingGuideRows.firstRowGreen(sampleBuffer) else { return }
        lock.withLock { rows.append(row) }
    }

    func wait(for count: Int) async -> [(green: Double, seconds: Double)] {
        for _ in 0..<500 where lock.withLock({ rows.count }) < count { try? await Task.sleep(for: .milliseconds(10)) }
        return lock.withLock { rows }
    }
}
