import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// VideoPreview as a branch of a running session: frames as the view shows them (size,
/// orientation, gravity), JPEG frames, outlines drawn over the picture, a window that cannot
/// open failing alone, and previews that come and go without interrupting other outputs.
@Suite("VideoPreview branch", .ownDevices, .serialized)
struct VideoPreviewTests {
    /// The green channel of a BGRA frame sampled on a `grid`×`grid` lattice, row by row.
    static func lattice(_ sample: SampleBuffer, grid: Int = 16) throws -> [Double] {
        try sample.withPlanes { planes in
            let plane = planes[0], width = sample.formatDescription.width, height = sample.formatDescription.height
            return (0..<grid).flatMap { row in
                (0..<grid).map { column in
                    let x = (column * 2 + 1) * width / (grid * 2), y = (row * 2 + 1) * height / (grid * 2)
                    return Double(plane.bytes[y * plane.bytesPerRow + x * 4 + 1])
                }
            }
        }
    }

    /// Mean absolute difference of two lattices.
    static func difference(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Double(a.count)
    }

    /// `lattice` of a landscape frame turned clockwise by 90°: the value shown at (row, column)
    /// of the turned picture is the source's at (grid-1-column, row).
    static func turnedClockwise(_ lattice: [Double], grid: Int = 16) -> [Double] {
        (0..<grid).flatMap { row in (0..<grid).map { column in lattice[(grid - 1 - column) * grid + row] } }
    }

    @Test("a preview joins its session as AVCaptureVideoPreviewLayer does: connected now or when a video input comes, or not at all until a connection is added")
    func joiningSessions() async throws {
        let early = CaptureSession()
        let waiting = VideoPreview(session: early)
        #expect(waiting.session === early && waiting.connection == nil)
        #expect(!early.outputs.contains { $0 === waiting }, "a preview is not one of the session's outputs, as AVCaptureVideoPreviewLayer is not")
        let device = CaptureDevice.find(virtual: .back)
        let input = try CaptureDeviceInput(device: device)
        try early.checked.addInput(input)
        #expect(waiting.connection?.inputPorts.first?.device == device, "the input added later connects the preview")
        #expect(early.connections.contains { $0 === waiting.connection }, "its connection is one of the session's")
        early.addOutput(VideoDataOutput())
        #expect(early.outputs.count == 1)
        for output in early.outputs { early.removeOutput(output) }
        #expect(early.outputs.isEmpty && waiting.session === early && waiting.connection != nil, "removing every output leaves the preview connected")

        let other = CaptureSession()
        waiting.session = other
        #expect(waiting.session === other && waiting.connection == nil && !early.connections.contains { $0.output === waiting })

        let session = try TestSession(preset: .cif352x288, outputs: []).session
        let manual = VideoPreview(sessionWithNoConnection: session)
        #expect(manual.connection == nil)
        let port = try #require(session.inputs.first?.ports.first { $0.mediaType == .video })
        try session.checked.addConnection(CaptureConnection(inputPorts: [port], output: manual))
        #expect(manual.connection?.inputPorts.first === port)
        manual.sink = .frames()
        var frames = manual.frames.makeAsyncIterator()
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        let frame = try #require(await frames.next())
        #expect(frame.formatDescription.width == 352 && frame.formatDescription.height == 288)
        manual.setSessionWithNoConnection(nil)
        #expect(manual.session == nil && !session.connections.contains { $0.output === manual } && manual.connection == nil)
    }

    @Test("frames come the size of the bounds, turned clockwise for portrait: the sensor's frame of the same time, rotated")
    func portraitFrames() async throws {
        let raw = VideoDataOutput()
        try raw.setVideoSettings(.init(pixelFormat: .bgra, width: 480, height: 480))
        let test = try TestSession(preset: .vga640x480, outputs: [raw])
        let preview = VideoPreview(session: test.session)
        preview.sink = .frames()
        preview.videoGravity = .resize
        preview.bounds = CGRect(x: 0, y: 0, width: 480, height: 480)
        try #require(preview.connection != nil)
        preview.connection?.videoOrientation = .portrait
        let rawFrames = Mutex<[Int64: [Double]]>([:])
        let rawStream = raw.sampleBuffers(bufferingNewest: 64)
        let collector = Task {
            for await sample in rawStream {
                let values = try? Self.lattice(sample)
                rawFrames.withLock { $0[sample.presentationTime.nanoseconds] = values }
            }
        }
        defer { collector.cancel() }
        var shown = preview.frames.makeAsyncIterator()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        #expect(preview.sinkName == "appsink")
        var compared = 0
        for _ in 0..<30 where compared < 3 {
            let frame = try #require(await shown.next())
            #expect(frame.formatDescription.width == 480 && frame.formatDescription.height == 480 && frame.formatDescription.pixelFormat == .bgra)
            #expect(frame.attachments.videoOrientation == .landscapeRight && !frame.attachments.isVideoMirrored)
            try await Task.sleep(for: .milliseconds(50))
            guard let source = rawFrames.withLock({ $0[frame.presentationTime.nanoseconds] }) else { continue }
            let view = try Self.lattice(frame)
            let turned = Self.difference(view, Self.turnedClockwise(source)), straight = Self.difference(view, source)
            #expect(turned < 12 && turned * 2 < straight, "differences: turned \(turned), not turned \(straight)")
            compared += 1
        }
        #expect(compared == 3, "preview frames matched to sensor frames by time")
    }

    @Test("empty bounds show the picture at its own size; aspect gravity letterboxes a 4:3 picture in a 16:9 view")
    func sizesAndBars() async throws {
        let test = try TestSession(preset: .vga640x480, outputs: [])
        let preview = VideoPreview(session: test.session)
        preview.sink = .frames()
        var frames = preview.frames.makeAsyncIterator()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let own = try #require(await frames.next())
        #expect(own.formatDescription.width == 640 && own.formatDescription.height == 480)

        preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 180)
        var letterboxed: SampleBuffer?
        for _ in 0..<60 {
            let frame = try #require(await frames.next())
            if frame.formatDescription.width == 320 { letterboxed = frame; break }
        }
        let frame = try #require(letterboxed, "the running preview changes to the new bounds")
        #expect(frame.formatDescription.height == 180)
        // 640x480 fitted into 320x180: 240x180 in the middle, 40-pixel black bars left and right.
        let (bar, picture) = try frame.withPlanes { planes -> (Int, Int) in
            let plane = planes[0]
            func brightness(_ x: Int) -> Int {
                let offset = 90 * plane.bytesPerRow + x * 4
                return Int(plane.bytes[offset]) + Int(plane.bytes[offset + 1]) + Int(plane.bytes[offset + 2])
            }
            return ((0..<36).map(brightness).max() ?? 0, (44..<276).map(brightness).max() ?? 0)
        }
        #expect(bar <= 3 && picture > 100, "bar \(bar), picture \(picture)")
    }

    @Test("JPEG frames for a web page: each a whole JPEG image the size of the bounds")
    func jpegFrames() async throws {
        let test = try TestSession(preset: .vga640x480, outputs: [])
        let preview = VideoPreview(session: test.session)
        preview.sink = .frames(.jpeg)
        preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        var frames = preview.frames.makeAsyncIterator()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let frame = try #require(await frames.next())
        #expect(frame.formatDescription.codec == .jpeg && frame.formatDescription.width == 320)
        let marks = try frame.withUnsafeBytes { bytes in (bytes[0], bytes[1], bytes[bytes.count - 2], bytes[bytes.count - 1]) }
        #expect(marks == (0xFF, 0xD8, 0xFF, 0xD9))
    }

    @Test("an overlay's outline is drawn in green where its points are, and changes while running")
    func overlay() async throws {
        let test = try TestSession(preset: .vga640x480, outputs: [])
        let preview = VideoPreview(session: test.session)
        preview.sink = .frames()
        preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        preview.overlay = PreviewOverlay(shapes: [.init(points: [CGPoint(x: 20, y: 20), CGPoint(x: 120, y: 20), CGPoint(x: 120, y: 120), CGPoint(x: 20, y: 120)], label: "hello")])
        var frames = preview.frames.makeAsyncIterator()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        func pixel(_ frame: SampleBuffer, _ x: Int, _ y: Int) throws -> [UInt8] {
            try frame.withPlanes { planes in (0..<3).map { planes[0].bytes[y * planes[0].bytesPerRow + x * 4 + $0] } }
        }
        let first = try #require(await frames.next())
        #expect(try pixel(first, 20, 70) == [0, 255, 0] && pixel(first, 70, 120) == [0, 255, 0])
        #expect(try pixel(first, 70, 70) != [0, 255, 0])
        preview.overlay = PreviewOverlay(shapes: [.init(points: [CGPoint(x: 200, y: 200), CGPoint(x: 300, y: 200)])])
        var moved = false
        for _ in 0..<30 where !moved {
            let frame = try #require(await frames.next())
            moved = try pixel(frame, 250, 200) == [0, 255, 0] && pixel(frame, 20, 70) != [0, 255, 0]
        }
        #expect(moved)
    }

    /// PreviewingVideo.md's overlay sample, word for word.
    static func outlineCodes(session: CaptureSession, preview: VideoPreview) async throws {
        let codes = MetadataOutput()
        session.addOutput(codes)
        try codes.setMetadataObjectTypes([.qr])
        preview.overlay = PreviewOverlay()
        for await objects in codes.metadataObjects() {
            preview.overlay = PreviewOverlay(shapes: objects.compactMap { object in
                guard let code = preview.transformedMetadataObject(for: object) as? MachineReadableCodeObject else { return nil }
                return PreviewOverlay.Shape(points: code.corners, label: code.stringValue)
            })
        }
    }

    @Test("PreviewingVideo.md's overlay sample outlines the virtual scene's QR code where the view shows it")
    func articleOverlay() async throws {
        let test = try TestSession(preset: .vga640x480, outputs: [])
        let preview = VideoPreview(session: test.session)
        preview.sink = .frames()
        preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        let outlining = Task { try await Self.outlineCodes(session: test.session, preview: preview) }
        defer { outlining.cancel() }
        #expect(await waitFor { !test.session.outputs.isEmpty }, "the overlay's metadata output joined the session")
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var shape: PreviewOverlay.Shape?
        for _ in 0..<200 where shape == nil {
            try await Task.sleep(for: .milliseconds(20))
            shape = preview.overlay?.shapes.first
        }
        let outline = try #require(shape)
        #expect(outline.label == "https://capturekit.dev/virtual-camera")
        // The scene's QR code is in its top-left quarter; the view is the scene at half size.
        #expect(outline.points.count == 4 && outline.points.allSatisfy { $0.x > 10 && $0.x < 150 && $0.y > 10 && $0.y < 150 }, "\(outline.points)")
    }

    @Test("a window preview with no display fails alone, saying which sink; the session runs on",
          .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] == nil && ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil))
    func windowWithoutDisplay() async throws {
        let raw = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [raw])
        let preview = VideoPreview(session: test.session)
        var frames = raw.sampleBuffers(bufferingNewest: 8).makeAsyncIterator()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        _ = await waitFor { preview.failure != nil }
        let failure = try #require(preview.failure)
        #expect(failure.code == .branchFailed && failure.message.contains("preview"), "\(failure)")
        #expect(test.session.isRunning)
        _ = try #require(await frames.next())
    }

    @Test("previews added and removed while running never interrupt a VideoDataOutput")
    func comesAndGoes() async throws {
        let raw = VideoDataOutput()
        let log = LiveRuntimeTests.FrameLog(raw)
        let test = try TestSession(preset: .vga640x480, outputs: [raw])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await log.waitForFrames(5)
        for cycle in 0..<6 {
            let preview = VideoPreview()
            preview.sink = .frames(cycle % 2 == 0 ? .bgra : .jpeg)
            preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 180)
            preview.session = test.session
            var frames = preview.frames.makeAsyncIterator()
            _ = try #require(await frames.next())
            preview.session = nil
            #expect(!test.session.connections.contains { $0.output === preview })
            try await Task.sleep(for: .milliseconds(40))
        }
        let count = log.count
        try await log.waitForFrames(count + 5)
        let (largest, backwards) = log.steps(interval: LiveRuntimeTests.interval)
        #expect(backwards == 0 && largest <= 1.5, "largest presentation-time step: \(largest) frame intervals")
    }
}
