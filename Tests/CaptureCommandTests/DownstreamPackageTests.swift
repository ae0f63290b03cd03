import Foundation
import Testing

/// Runs `executable`, found on PATH (with `searchFirst` in front), with `arguments`; its output and
/// error together.
private func run(_ executable: String, _ arguments: [String], searchFirst: URL? = nil) throws -> (status: Int32, output: String) {
    let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [executable] + arguments, pathFirst: searchFirst)
    return (result.status, result.output + result.error)
}

/// The repository this test file belongs to.
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// An app's package, depending on CaptureKit by version, with three apps: `StillApp` on the
/// `CaptureKit` product alone, `FaceApp` on `CaptureKitDetectors` and `StreamApp` on
/// `CaptureKitWHEP` (the one line an app adds to scan, or to serve WHEP; their code imports
/// CaptureKit alone, as before the products existed).
private func downstreamManifest(dependingOn clone: URL) -> String {
    """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Apps",
        platforms: [.macOS(.v15)],
        dependencies: [.package(url: "\(clone.absoluteString)", from: "0.1.0")],
        targets: [
            .executableTarget(name: "StillApp", dependencies: [.product(name: "CaptureKit", package: "CaptureKit")]),
            .executableTarget(name: "FaceApp", dependencies: [.product(name: "CaptureKitDetectors", package: "CaptureKit")]),
            .executableTarget(name: "StreamApp", dependencies: [.product(name: "CaptureKitWHEP", package: "CaptureKit")]),
        ]
    )
    """
}

/// The stills app: a photo from the virtual camera, its size; the metadata types offered (none)
/// and what asking for a QR code says; what making a whep:// output says.
private let stillMain = #"""
    import CaptureKit
    import Foundation

    @main
    struct StillApp {
        static func main() async throws {
            let session = CaptureSession()
            try session.setSessionPreset(.vga640x480)
            try session.checked.addInput(CaptureDeviceInput(device: try CaptureDevice.find("virtual")))
            let output = StillImageOutput()
            try session.checked.addOutput(output)
            guard let connection = output.connection(with: .video) else { fatalError("no video connection") }
            try await session.checked.startRunning()
            let sample = try await output.captureStillImage(from: connection)
            await session.checked.stopRunning()
            let jpeg = try StillImageOutput.jpegStillImageData(from: sample)
            print("still: \(sample.formatDescription.width)x\(sample.formatDescription.height) jpeg \(jpeg.starts(with: [0xFF, 0xD8]))")
            print("types: \(MetadataOutput().availableMetadataObjectTypes.map(\.name).joined(separator: " "))")
            do {
                try MetadataOutput().setMetadataObjectTypes([.qr])
                print("qr: accepted")
            } catch {
                print("qr: \(error.code.rawValue): \(error.message)")
            }
            do {
                _ = try StreamOutput(target: .whep(host: "127.0.0.1", port: 8080, path: "/whep"))
                print("whep: accepted")
            } catch {
                print("whep: \(error.code.rawValue): \(error.message)")
            }
        }
    }
    """#

/// The streaming app: a whep:// output on the port given, running; what its server answers a
/// POST without an SDP offer.
private let streamMain = #"""
    import CaptureKit
    import Foundation
    #if canImport(FoundationNetworking)
    import FoundationNetworking
    #endif

    @main
    struct StreamApp {
        static func main() async throws {
            let port = Int(CommandLine.arguments[1])!
            let session = CaptureSession()
            try session.setSessionPreset(.vga640x480)
            try session.checked.addInput(CaptureDeviceInput(device: try CaptureDevice.find("virtual")))
            try session.checked.addOutput(try StreamOutput(target: .whep(host: "127.0.0.1", port: port, path: "/whep")))
            try await session.checked.startRunning()
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/whep")!)
            request.httpMethod = "POST"
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("not an offer".utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            print("whep POST without an offer: \((response as? HTTPURLResponse)?.statusCode ?? 0)")
            await session.checked.stopRunning()
        }
    }
    """#
/// The faces app: whether OpenCV is mapped at start, after choosing code types and after looking for
/// faces; the types offered; the faces in a photo.
private let faceMain = #"""
    import CaptureKit
    import Foundation

    /// Whether OpenCV is in this process's memory map; "unknown" when the map cannot be read.
    func openCVMapped() -> String {
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile(),
              case let maps = String(decoding: data, as: UTF8.self), maps.contains("/FaceApp") else { return "unknown" }
        return maps.contains("libopencv_core") ? "true" : "false"
    }

    @main
    struct FaceApp {
        static func main() async throws {
            print("opencv mapped at start: \(openCVMapped())")
            try MetadataOutput().setMetadataObjectTypes([.qr, .ean13])
            print("opencv mapped after choosing codes: \(openCVMapped())")
            let types = MetadataOutput().availableMetadataObjectTypes
            print("types: \(types.map(\.name).joined(separator: " "))")
            var faces: [FaceObject] = []
            for try await batch in MetadataFileScanner(types: [.face]).scan(URL(fileURLWithPath: CommandLine.arguments[1])) {
                faces += batch.compactMap { $0 as? FaceObject }
            }
            for face in faces {
                let b = face.bounds
                print("face \(face.faceID) \(b.minX) \(b.minY) \(b.width) \(b.height)")
            }
            print("opencv mapped after: \(openCVMapped())")
            exit(types.contains(.face) && faces.count == 1 ? 0 : 1)
        }
    }
    """#

@Suite("a package depending on CaptureKit by version")
struct DownstreamPackageTests {
    /// The way an app meets the package: a clone of this repository's committed HEAD (uncommitted
    /// changes are not tested) tagged 0.1.0, an app's package depending on it `from: "0.1.0"` by
    /// file URL (so SwiftPM refuses unsafe build flags in it, as for any versioned dependency), and
    /// `swift build` of its three apps, which resolves swift-log, Yams and swift-argument-parser
    /// as usual.
    ///
    /// Built first alone, the app on the `CaptureKit` product compiles neither zxing-cpp's shim,
    /// the detectors, the OpenCV face library, Hummingbird nor NIO, and links neither library. It
    /// takes a still from the virtual camera, offers no metadata types, and says which product to
    /// add when asked for a QR code or a whep:// output. The app on `CaptureKitDetectors` must
    /// offer `face`, find the one face in a real photograph (NASA's portrait of Eileen Collins in
    /// Debian's python3-skimage), and load OpenCV only once it asks for faces (not at start, nor
    /// to scan for codes). The app on `CaptureKitWHEP` serves its whep:// output.
    @Test("apps on the CaptureKit product (stills; no zxing-cpp, OpenCV or Hummingbird built or linked), on CaptureKitDetectors (finds the face in a photograph, loads OpenCV only then) and on CaptureKitWHEP (serves whep://) build from: 0.1.0")
    func appsOnEachProduct() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("capturekit-downstream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: directory)
            // SwiftPM's lock files for the scratch path, named after it, beside it in the temporary folder.
            let locks = directory.path.replacingOccurrences(of: "/", with: "_")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
            where name.hasPrefix(locks) {
                try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent(name))
            }
        }

        let head = try run("git", ["-C", repository.path, "rev-parse", "HEAD"])
        try #require(head.status == 0, "\(head.output)")
        let clone = directory.appendingPathComponent("CaptureKit")
        for step in [["clone", "--quiet", repository.path, clone.path],
                     ["-C", clone.path, "checkout", "--quiet", "--detach", head.output.trimmingCharacters(in: .whitespacesAndNewlines)],
                     ["-C", clone.path, "tag", "0.1.0"]] {
            let result = try run("git", step)
            try #require(result.status == 0, "git \(step.joined(separator: " ")): \(result.output)")
        }

        let app = directory.appendingPathComponent("Apps")
        for (name, main) in [("StillApp", stillMain), ("FaceApp", faceMain), ("StreamApp", streamMain)] {
            let sources = app.appendingPathComponent("Sources/\(name)")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try main.write(to: sources.appendingPathComponent("\(name).swift"), atomically: true, encoding: .utf8)
        }
        try downstreamManifest(dependingOn: clone).write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        // The stills app alone: nothing of the detectors is built or linked.
        let scratch = directory.appendingPathComponent("build")
        let stills = try run("swift", ["build", "--package-path", app.path, "--scratch-path", scratch.path, "--product", "StillApp"])
        try #require(stills.status == 0, "\(stills.output)")
        #expect(!stills.output.contains("unsafe"), "\(stills.output)")
        let products = scratch.appendingPathComponent("debug").resolvingSymlinksInPath()
        // SwiftPM makes every target's folder when it plans; a target compiled has object files in it.
        func objects(_ target: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: products.appendingPathComponent("\(target).build").path)) ?? [])
                .filter { $0.hasSuffix(".o") }
        }
        #expect(!objects("CaptureKit").isEmpty)
        for target in ["CZXing", "Detectors", "CFacesLoader", "CaptureKitDetectors", "CaptureKitWHEP", "Hummingbird", "NIOCore"] {
            #expect(objects(target).isEmpty, "\(target) was compiled for an app on the CaptureKit product alone: \(objects(target))")
        }
        let faceLibraries = FileManager.default.enumerator(atPath: scratch.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix("libCaptureKitFaces.so") }
        #expect(faceLibraries == [], "\(faceLibraries ?? [])")
        let linked = try run("ldd", [products.appendingPathComponent("StillApp").path])
        #expect(linked.status == 0 && !linked.output.contains("ZXing") && !linked.output.contains("opencv"), "\(linked.output)")
        let still = try run("StillApp", [], searchFirst: products)
        #expect(still.status == 0, "\(still.output)")
        let stillLines = still.output.split(separator: "\n").map(String.init)
        #expect(stillLines.contains("still: 640x480 jpeg true"), "\(still.output)")
        // Motion is CaptureKit's own: the only type without the detectors.
        #expect(stillLines.contains("types: motion"), "\(still.output)")
        let refusal = stillLines.first { $0.hasPrefix("qr: ") } ?? ""
        #expect(refusal.hasPrefix("qr: invalidSetting") && refusal.contains(".product(name: \"CaptureKitDetectors\", package: \"CaptureKit\")"), "\(refusal)")
        let whep = stillLines.first { $0.hasPrefix("whep: ") } ?? ""
        #expect(whep.hasPrefix("whep: streamFailed") && whep.contains(".product(name: \"CaptureKitWHEP\", package: \"CaptureKit\")"), "\(whep)")

        // The faces app: the same package, the detectors product added.
        let build = try run("swift", ["build", "--package-path", app.path, "--scratch-path", scratch.path])
        try #require(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("unsafe"), "\(build.output)")

        let photo = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"
        // Started by name from PATH, as an installed command is: the face library is found from the
        // executable's real location, not from argv[0].
        let result = try run("FaceApp", [photo], searchFirst: scratch.appendingPathComponent("debug"))
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["opencv mapped at start: false", "opencv mapped after choosing codes: false"], "\(result.output)")
        let types = lines.first { $0.hasPrefix("types: ") }?.dropFirst(7).split(separator: " ").map(String.init) ?? []
        #expect(types.contains("face") && types.contains("qr") && types.contains("ean13"), "\(types)")
        let faces = lines.filter { $0.hasPrefix("face ") }
        try #require(faces.count == 1, "\(result.output)")
        let numbers = faces[0].split(separator: " ").dropFirst(2).compactMap { Double($0) }
        try #require(numbers.count == 4, "\(faces[0])")
        let box = CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        // Eyes (205,101) and (246,104), mouth (224,145) of the 512x512 photo lie in the box.
        for (x, y) in [(205.0, 101.0), (246.0, 104.0), (224.0, 145.0)] {
            #expect(box.contains(CGPoint(x: x / 512, y: y / 512)), "\(box)")
        }
        #expect(lines.last == "opencv mapped after: true", "\(result.output)")

        // The streaming app: its whep:// output serves, and answers a POST that is not an offer 400.
        let port = try run("/usr/bin/python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        let stream = try run("StreamApp", [port.output.trimmingCharacters(in: .whitespacesAndNewlines)], searchFirst: scratch.appendingPathComponent("debug"))
        #expect(stream.status == 0 && stream.output.contains("whep POST without an offer: 400"), "\(stream.output)")
    }
}
