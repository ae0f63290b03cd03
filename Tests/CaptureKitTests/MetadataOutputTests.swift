import Foundation
import Testing
@testable import CaptureKit

@Suite("Metadata output", .ownDevices, .serialized)
struct MetadataOutputTests {
    @Test("the virtual camera's QR code and EAN-13 are found live, with corners in device coordinates and one identity over frames")
    func findsSceneCodes() async throws {
        let output = MetadataOutput()
        #expect(output.metadataObjectTypes.isEmpty)
        try output.setMetadataObjectTypes([.qr, .ean13])
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        let stream = output.metadataObjects(bufferingNewest: 64)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var batches: [[MachineReadableCodeObject]] = []
        for await batch in stream {
            batches.append(batch.compactMap { $0 as? MachineReadableCodeObject })
            if batches.count == 10 { break }
        }
        let qr = batches.compactMap { $0.first { $0.type == .qr } }
        let ean = batches.compactMap { $0.first { $0.type == .ean13 } }
        #expect(qr.count >= 8 && ean.count >= 8, "qr in \(qr.count), EAN-13 in \(ean.count) of 10 batches")
        #expect(qr.allSatisfy { $0.stringValue == VirtualScene.qrText })
        #expect(ean.allSatisfy { $0.stringValue == VirtualScene.ean13Digits })
        // The QR code's corners lie on its square in the scene.
        let square = VirtualScene.qrRect(width: 640, height: 480)
        let expected = CGRect(x: Double(square.x.lowerBound) / 640, y: Double(square.y.lowerBound) / 480,
                              width: Double(square.x.count) / 640, height: Double(square.y.count) / 480)
        let first = try #require(qr.first)
        #expect(first.corners.count == 4)
        #expect(first.corners.allSatisfy { expected.insetBy(dx: -0.01, dy: -0.01).contains($0) }, "\(first.corners) in \(expected)")
        #expect(first.bounds.width > expected.width * 0.6 && first.bounds.width <= expected.width, "\(first.bounds)")
        // One object over frames: its duration grows with its time.
        let last = try #require(qr.last)
        #expect(last.time > first.time)
        #expect(abs((last.duration.seconds - first.duration.seconds) - (last.time.seconds - first.time.seconds)) < 1e-6)
    }

    /// A scene with one code of each of the 13 types, in four rows clear of the moving square,
    /// and the exact string each must be reported with (check digits the writer added included).
    static func everyCode() throws -> [(code: VirtualScene.Code, type: MetadataObjectType, expected: String)] {
        func code(_ type: MetadataObjectType, _ text: String, _ x: Double, _ y: Double, _ width: Double, _ expected: String)
            throws -> (code: VirtualScene.Code, type: MetadataObjectType, expected: String) {
            let isMatrix = [.pdf417, .qr, .aztec, .dataMatrix].contains(type)
            return (try VirtualScene.Code(type, text, x: x, y: y, width: width, height: isMatrix ? 0.2 : 0.19), type, expected)
        }
        return [
            try code(.qr, "CK QR 13", 0.02, 0.02, 0.12, "CK QR 13"),
            try code(.aztec, "CK Aztec", 0.15, 0.02, 0.12, "CK Aztec"),
            try code(.dataMatrix, "CK DataMatrix", 0.28, 0.02, 0.12, "CK DataMatrix"),
            try code(.pdf417, "CaptureKit PDF417", 0.42, 0.02, 0.56, "CaptureKit PDF417"),
            try code(.ean13, "400638133393", 0.02, 0.24, 0.3, "4006381333931"),
            try code(.ean8, "9638507", 0.35, 0.24, 0.28, "96385074"),
            try code(.upce, "0654321", 0.66, 0.24, 0.3, "06543217"),
            try code(.code39, "CK-39 A", 0.02, 0.45, 0.3, "CK-39 A"),
            try code(.code39Mod43, "MOD43 CK", 0.35, 0.45, 0.3, "MOD43 CK"),
            try code(.code93, "CODE 93", 0.68, 0.45, 0.3, "CODE 93"),
            try code(.code128, "CaptureKit", 0.02, 0.66, 0.3, "CaptureKit"),
            try code(.interleaved2of5, "0123456789", 0.35, 0.66, 0.3, "0123456789"),
            try code(.itf14, "0001234567890", 0.68, 0.66, 0.3, "00012345678905"),
        ]
    }

    @Test("all 13 code types on the virtual camera are found live with their exact strings, and nothing else")
    func findsEveryType() async throws {
        let codes = try Self.everyCode()
        #expect(Set(codes.map(\.type)) == Set(MetadataObjectType.machineReadableCodes))
        let device = CaptureDevice.find(virtual: .back)
        device.setVirtualSceneCodes(codes.map(\.code))
        defer { device.setVirtualSceneCodes(nil) }
        let expected = Dictionary(uniqueKeysWithValues: codes.map { ($0.type, $0.expected) })
        // The reader returns at most 8 codes a frame: two groups of types, switched while running.
        let groups: [[MetadataObjectType]] = [[.upce, .code39, .code39Mod43, .ean13, .ean8, .code93, .code128],
                                              [.pdf417, .qr, .aztec, .dataMatrix, .interleaved2of5, .itf14]]
        let output = MetadataOutput()
        try output.setMetadataObjectTypes(groups[0])
        let test = try TestSession(preset: .hd1280x720, device: device, outputs: [output])
        let stream = output.metadataObjects(bufferingNewest: 8)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var found: [MetadataObjectType: Set<String>] = [:]
        var group = 0, batches = 0
        for await batch in stream {
            for case let code as MachineReadableCodeObject in batch { found[code.type, default: []].insert(code.stringValue ?? "") }
            batches += 1
            let complete = groups[group].allSatisfy { found[$0] != nil }
            if complete || batches == 30 {
                group += 1
                batches = 0
                if group == groups.count { break }
                try output.setMetadataObjectTypes(groups[group])
            }
        }
        for (type, text) in expected {
            #expect(found[type] == [text], "\(type): \(found[type] ?? [])")
        }
        #expect(Set(found.keys).isSubset(of: Set(expected.keys)))
    }

    @Test("only the rect of interest is searched; unavailable types and bad rects are errors naming them")
    func rectOfInterestAndMisuse() async throws {
        let output = MetadataOutput()
        try output.setMetadataObjectTypes([.qr, .ean13])
        // The EAN-13 sits top right; the QR code on the left.
        try output.setRectOfInterest(CGRect(x: 0.5, y: 0, width: 0.5, height: 0.6))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        let stream = output.metadataObjects(bufferingNewest: 64)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var seen = Set<MetadataObjectType>()
        var count = 0
        for await batch in stream {
            for object in batch { seen.insert(object.type) }
            count += 1
            if count == 6 { break }
        }
        #expect(seen == [.ean13])
        let unknown = MetadataObjectType(rawValue: "org.example.Hologram")
        #expect(throws: CaptureError.invalidSetting(name: "metadata object type", value: "org.example.Hologram",
                                                    valid: output.availableMetadataObjectTypes.map(\.name).joined(separator: ", "))) {
            try output.setMetadataObjectTypes([.qr, unknown])
        }
        #expect(output.availableMetadataObjectTypes.contains(.face), "OpenCV's cascades are installed by the set-up")
        #expect(throws: CaptureError.self) { try output.setRectOfInterest(CGRect(x: 0.5, y: 0.5, width: 0.6, height: 0.2)) }
        #expect(MetadataObjectType(name: "Code39Mod43") == .code39Mod43 && MetadataObjectType(name: "org.iso.QRCode") == .qr)
    }

    /// A real photograph: NASA's portrait of astronaut Eileen Collins, shipped by Debian's
    /// python3-skimage (scikit-image's sample data).
    static let astronaut = URL(fileURLWithPath: "/usr/lib/python3/dist-packages/skimage/data/astronaut.png")

    @Test("faces in a real photograph: one face where it is, and one faceID over a video's frames with a growing duration")
    func facesInFiles() async throws {
        let scanner = MetadataFileScanner(types: [.face])
        var faces: [FaceObject] = []
        for try await batch in scanner.scan(Self.astronaut) { faces += batch.compactMap { $0 as? FaceObject } }
        #expect(faces.count == 1, "\(faces)")
        let face = try #require(faces.first)
        // Eyes (205,101) and (246,104), mouth (224,145) of the 512x512 photo lie in the box.
        for (x, y) in [(205.0, 101.0), (246.0, 104.0), (224.0, 145.0)] {
            #expect(face.bounds.contains(CGPoint(x: x / 512, y: y / 512)), "\(face.bounds)")
        }
        #expect(face.bounds.width < 0.35 && face.yawAngle == 0)

        // The photo as a 10-frame video: one face, one identity.
        let video = FileManager.default.temporaryDirectory.appendingPathComponent("astronaut-\(UUID().uuidString).avi")
        defer { try? FileManager.default.removeItem(at: video) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "filesrc", "location=\(Self.astronaut.path)", "!", "pngdec", "!", "imagefreeze", "num-buffers=10", "!",
                             "videoconvert", "!", "video/x-raw,format=I420,framerate=10/1", "!", "jpegenc", "!", "avimux", "!",
                             "filesink", "location=\(video.path)"]
        try process.run()
        process.waitUntilExit()
        var tracked: [FaceObject] = []
        for try await batch in scanner.scan(video) { tracked += batch.compactMap { $0 as? FaceObject } }
        #expect(tracked.count >= 8, "\(tracked.count) of 10 frames")
        #expect(Set(tracked.map(\.faceID)).count == 1)
        #expect(zip(tracked, tracked.dropFirst()).allSatisfy { $1.duration > $0.duration })
    }
}
