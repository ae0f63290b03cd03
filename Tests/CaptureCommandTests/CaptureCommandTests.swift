import Foundation
import Testing

/// The package's build folder, where `swift build --build-tests` put the commands.
let binaries: URL = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug")
}()

struct Completed {
    var status: Int32
    var output: String
    var error: String
}

/// Runs a built product with arguments, with `environment`'s variables set (or, for nil, unset).
func launch(_ product: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]) throws -> Completed {
    try runProcess(binaries.appendingPathComponent(product), arguments, in: directory, environment: environment)
}

/// Runs `executable` with `arguments` in `directory`, with `pathFirst` in front of PATH and
/// `environment`'s variables set (or, for nil, unset), and collects its output and error (read
/// at once, so neither pipe can fill and stall it).
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL? = nil, pathFirst: URL? = nil,
                environment changes: [String: String?] = [:]) throws -> Completed {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if pathFirst != nil || !changes.isEmpty {
        var environment = ProcessInfo.processInfo.environment
        if let pathFirst { environment["PATH"] = pathFirst.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) var error = Data()
    let errorRead = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        error = err.fileHandleForReading.readDataToEndOfFile()
        errorRead.signal()
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    process.waitUntilExit()
    return Completed(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                     error: String(decoding: error, as: UTF8.self))
}

func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("capture-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func exif(_ file: URL, _ tag: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
    process.arguments = ["-n", "-s", "-s", "-s", "-\(tag)", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("capture command", .serialized)
struct CaptureCommandTests {
    @Test("snap writes a JPEG with the orientation asked for and prints its path")
    func snap() throws {
        let directory = try scratchDirectory()
        let file = directory.appendingPathComponent("snap.jpg")
        let result = try launch("capture", ["snap", "-d", "virtual", "-o", file.path, "--orientation", "portrait",
                                            "--mirrored", "--preset", "vga640x480", "--quality", "70"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == file.path + "\n")
        #expect(try exif(file, "Orientation") == "7")
        #expect(try exif(file, "ImageWidth") == "640")
    }

    @Test("snap applies exposure, zoom and focus controls, and reports out-of-range values")
    func snapControls() throws {
        let file = try scratchDirectory().appendingPathComponent("controls.jpg")
        let result = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "-o", file.path,
                                            "--iso", "200", "--shutter", "1/60", "--zoom", "2", "--lens", "0.2", "--torch", "0.5"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try exif(file, "ISO") == "200")
        #expect(try exif(file, "ExposureTime").hasPrefix("0.0166"))
        #expect(try exif(file, "DigitalZoomRatio") == "2")
        // The same file again: replacing it takes --force.
        let balanced = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "-o", file.path, "--wb", "3200", "--force"])
        #expect(balanced.status == 0, "\(balanced.error)")
        #expect(try exif(file, "WhiteBalance") == "1", "manual")
        #expect(try launch("capture", ["snap", "--wb", "warm"]).status == 2)
        let tooHigh = try launch("capture", ["snap", "-d", "virtual", "--iso", "9000", "-o", file.path, "--force"])
        #expect(tooHigh.status == 1)
        #expect(tooHigh.error.contains("ISO 9000.0 is out of range 50.0...3200.0"))
        let noTorch = try launch("capture", ["snap", "-d", "virtual-front", "--torch", "1", "-o", file.path, "--force"])
        #expect(noTorch.status == 1)
        #expect(noTorch.error.contains("'virtual:front' does not support torch"))
        #expect(try launch("capture", ["snap", "--shutter", "fast"]).status == 2)
        // --ev: auto exposure settles a stop down before the still; --flash on fires and says so.
        let darker = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "-o", file.path, "--ev=-1", "--flash", "on", "--force"])
        #expect(darker.status == 0, "\(darker.error)")
        let shutter = try #require(Double(try exif(file, "ExposureTime")))
        #expect(abs(shutter / (1.0 / 240) - 1) < 0.1, "about 1/240 s: \(shutter)")
        #expect(try exif(file, "Flash") == "9", "on, fired")
        #expect(try launch("capture", ["snap", "--flash", "sometimes"]).status == 2)
        let frontFlash = try launch("capture", ["snap", "-d", "virtual-front", "--flash", "on", "-o", file.path, "--force"])
        #expect(frontFlash.status == 1 && frontFlash.error.contains("flash mode on"), "\(frontFlash.error)")
    }

    @Test("snap --bracket writes one numbered file per EV value, each with its exposure")
    func snapBracket() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "--bracket=-2,0,2",
                                            "-o", directory.appendingPathComponent("b.jpg").path])
        #expect(result.status == 0, "\(result.error)")
        let paths = (1...3).map { directory.appendingPathComponent("b-\($0).jpg").path }
        #expect(result.output == paths.map { $0 + "\n" }.joined())
        #expect(try paths.map { try exif(URL(fileURLWithPath: $0), "ExposureCompensation") } == ["-2", "0", "2"])
    }

    @Test("controls --json is data keyed by AVFoundation's names; --set takes those names on a running session")
    func controls() throws {
        let listed = try launch("capture", ["controls", "-d", "virtual", "--json"])
        #expect(listed.status == 0, "\(listed.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
        #expect(report["serializationVersion"] as? Int == 1)
        #expect(Set(report.keys) == ["serializationVersion", "uniqueID", "localizedName", "focusMode", "lensPosition", "exposureMode",
                                     "exposureDuration", "iso", "exposureTargetBias", "exposureTargetOffset", "whiteBalanceMode",
                                     "deviceWhiteBalanceGains", "temperature", "tint", "videoZoomFactor", "torchMode", "torchLevel",
                                     "flashMode", "activeFormat", "focusPointOfInterest", "exposurePointOfInterest"],
                "no v4l2Controls on the virtual camera")
        func field(_ name: String) -> [String: Any] { report[name] as? [String: Any] ?? [:] }
        #expect(field("focusPointOfInterest")["x"] as? Double == 0.5 && field("focusPointOfInterest")["supported"] as? Bool == true)
        #expect(field("exposureDuration")["unit"] as? String == "s")
        #expect(field("exposureDuration")["min"] as? Double == 0.000125)
        #expect(field("iso")["min"] as? Double == 50 && field("iso")["max"] as? Double == 3200)
        #expect(field("exposureTargetBias")["unit"] as? String == "EV")
        #expect(field("focusMode")["value"] as? String == "continuousAutoFocus")
        #expect(field("focusMode")["supported"] as? [String] == ["locked", "autoFocus", "continuousAutoFocus"])
        #expect(field("activeFormat")["width"] as? Int == 1920 && field("activeFormat")["pixelFormat"] as? String == "bgra")
        #expect(field("deviceWhiteBalanceGains")["red"] is Double)

        let set = try launch("capture", ["controls", "-d", "virtual", "--json", "--set", "iso=400", "--set", "exposureTargetBias=-1",
                                         "--set", "deviceWhiteBalanceGains=1,1.5,2", "--set", "lensPosition=0.25",
                                         "--set", "videoZoomFactor=2", "--set", "torchLevel=0.5", "--set", "flashMode=auto"])
        #expect(set.status == 0, "\(set.error)")
        let changed = try #require(try JSONSerialization.jsonObject(with: Data(set.output.utf8)) as? [String: Any])
        func value(_ name: String) -> Any? { (changed[name] as? [String: Any])?["value"] }
        #expect(value("iso") as? Double == 400 && value("exposureMode") as? String == "custom")
        #expect(value("exposureTargetBias") as? Double == -1)
        let gains = changed["deviceWhiteBalanceGains"] as? [String: Any]
        #expect(gains?["green"] as? Double == 1.5 && gains?["blue"] as? Double == 2 && value("whiteBalanceMode") as? String == "locked")
        #expect(value("lensPosition") as? Double == 0.25 && value("focusMode") as? String == "locked")
        #expect(value("videoZoomFactor") as? Double == 2)
        #expect(value("torchLevel") as? Double == 0.5 && value("torchMode") as? String == "on")
        #expect(value("flashMode") as? String == "auto")

        // The terminal listing stays, and the `capture snap` option names still work.
        let human = try launch("capture", ["controls", "-d", "virtual", "--set", "iso=400", "--set", "wb=5000"])
        #expect(human.status == 0, "\(human.error)")
        #expect(human.output.contains("ISO 400  mode custom"))
        #expect(human.output.contains("(5000 K, tint 0)  mode locked"))
        let volume = try launch("capture", ["controls", "--set", "volume=loud"])
        #expect(volume.status == 2 && volume.error.contains("'volume' is none of focusMode, lensPosition"), "\(volume.error)")
        let mode = try launch("capture", ["controls", "--set", "focusMode=sharp"])
        #expect(mode.status == 2 && mode.error.contains("'sharp' is not a valid focusMode; use one of locked, autoFocus"), "\(mode.error)")
        let raw = try launch("capture", ["controls", "-d", "virtual", "--set", "brightness=200"])
        #expect(raw.status == 1)
        #expect(raw.error.contains("'virtual:back' does not support V4L2 control 'brightness'"))
        let outOfRange = try launch("capture", ["controls", "-d", "virtual", "--set", "lens=3"])
        #expect(outOfRange.status == 1)
        #expect(outOfRange.error.contains("lens position 3.0 is out of range 0.0...1.0"))
    }

    @Test("options whose value may start with '-' take it as documented: --bracket -2,0,2, --ev -1")
    func negativeValues() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "--bracket", "-2,0,2",
                                            "-o", directory.appendingPathComponent("b.jpg").path])
        #expect(result.status == 0, "\(result.error)")
        let paths = (1...3).map { directory.appendingPathComponent("b-\($0).jpg") }
        #expect(try paths.map { try exif($0, "ExposureCompensation") } == ["-2", "0", "2"])
        let file = directory.appendingPathComponent("ev.jpg")
        let biased = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "--ev", "-1", "-o", file.path])
        #expect(biased.status == 0, "\(biased.error)")
        #expect(try exif(file, "ExposureCompensation") == "-1")
        // A value out of range is reported as such, not as a missing value.
        let quality = try launch("capture", ["snap", "-d", "virtual", "--quality", "-5", "-o", file.path])
        #expect(quality.status == 2 && quality.error.contains("--quality -5 is out of range"), "\(quality.error)")
        let rect = try launch("capture", ["scan", "-d", "virtual", "--rect", "-0.5,0,1,1", "--once"])
        #expect(rect.status == 2 && rect.error.contains("-0.5"), "\(rect.error)")
    }

    @Test("snap --format nv12 writes the bare frame")
    func snapRaw() throws {
        let file = try scratchDirectory().appendingPathComponent("frame.nv12")
        let result = try launch("capture", ["snap", "-d", "1", "-o", file.path, "--preset", "cif352x288", "--format", "nv12"])
        #expect(result.status == 0, "\(result.error)")
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(size == 352 * 288 * 3 / 2)
    }

    @Test("usage errors exit 2, runtime failures exit 1, each saying what to do")
    func exitCodes() throws {
        let badQuality = try launch("capture", ["snap", "--quality", "300"])
        #expect(badQuality.status == 2)
        #expect(badQuality.error.contains("--quality 300 is out of range; use 0-100"))
        let badOrientation = try launch("capture", ["snap", "--orientation", "sideways"])
        #expect(badOrientation.status == 2)
        #expect(badOrientation.error.contains("'portrait'"))
        let noDevice = try launch("capture", ["snap", "-d", "no-such-camera", "-o", "/dev/null"])
        #expect(noDevice.status == 1)
        #expect(noDevice.error.contains("no device 'no-such-camera'; available: 0: virtual:back, 1: virtual:front"))
        let unwritable = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "-o", "/no/such/dir/x.jpg"])
        #expect(unwritable.status == 1)
        #expect(unwritable.error.contains("cannot write /no/such/dir/x.jpg"))
        #expect(try launch("capture", ["frobnicate"]).status == 2)
        #expect(try launch("capture", ["snap", "--help"]).status == 0)
    }

    @Test("devices lists the virtual cameras, then the virtual microphone, with formats, as text and JSON")
    func devices() throws {
        let text = try launch("capture", ["devices"])
        #expect(text.status == 0)
        #expect(text.output.contains("Virtual Camera (back) [virtual:back]"))
        #expect(text.output.contains("1920x1080 bgra 1-30 fps"))
        #expect(text.output.contains("CaptureKit Virtual Microphone [virtual:microphone] model capturekit:virtual-microphone, audio, via virtual\n"))
        #expect(text.output.contains("     48000 Hz 2 ch s16le  (active)\n"))
        let camera = try #require(text.output.range(of: "[virtual:front]")), microphone = try #require(text.output.range(of: "[virtual:microphone]"))
        #expect(camera.lowerBound < microphone.lowerBound, "microphones after cameras")
        let json = try launch("capture", ["devices", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let devices = try #require(object?["devices"] as? [[String: Any]])
        #expect(devices.contains { $0["uniqueID"] as? String == "virtual:front" && $0["position"] as? String == "front" })
        let front = try #require(devices.first { $0["uniqueID"] as? String == "virtual:front" })
        #expect(front["mediaTypes"] as? [String] == ["video"])
        #expect(front["route"] as? String == "virtual")
        let mic = try #require(devices.first { $0["uniqueID"] as? String == "virtual:microphone" })
        #expect(mic["mediaTypes"] as? [String] == ["audio"])
        #expect(mic["activeFormat"] as? String == "48000 Hz 2 ch s16le")
        let formats = try #require(mic["formats"] as? [[String: Any]])
        #expect(formats.count == 4 && formats.allSatisfy { $0["sampleRate"] as? Int == 48000 && $0["width"] == nil })
        #expect(formats.contains { $0["channelCount"] as? Int == 1 && $0["sampleFormat"] as? String == "f32le" })
        #expect(devices.firstIndex { $0["uniqueID"] as? String == "virtual:microphone" }! > devices.firstIndex { $0["uniqueID"] as? String == "virtual:front" }!)
    }

    @Test("compile prints a line gst-launch-1.0 runs; validate and run report file errors at line:column")
    func pipelineFiles() throws {
        let directory = try scratchDirectory()
        let good = directory.appendingPathComponent("good.yaml")
        try """
            version: 1
            preset: cif352x288
            inputs:
              - device: virtual
            outputs:
              - still:
                  path: "still-{n}.jpg"
                  connection: { orientation: landscapeLeft }
            run:
              frames: 1
            """.write(to: good, atomically: true, encoding: .utf8)
        let compiled = try launch("capture", ["compile", good.path])
        #expect(compiled.status == 0)
        #expect(compiled.output.hasPrefix("videotestsrc name=input0_src is-live=true"))
        #expect(try launch("capture", ["validate", good.path]).output == "\(good.path): ok\n")
        let ran = try launch("capture", ["run", good.path, "-d", directory.path])
        #expect(ran.status == 0, "\(ran.error)")
        #expect(try exif(directory.appendingPathComponent("still-1.jpg"), "Orientation") == "3")

        let bad = directory.appendingPathComponent("bad.yaml")
        try "version: 1\ninputs:\n  - device: virtual\noutputs:\n  - still:\n      qualty: 80\nrun: {frames: 1}\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        for command in ["validate", "compile", "run"] {
            let result = try launch("capture", [command, bad.path])
            #expect(result.status == 2)
            #expect(result.error.hasPrefix("\(bad.path):6:7: "), "\(result.error)")
            #expect(result.error.contains("did you mean 'quality'?"))
        }
    }

    @Test("the examples build and run: a still photo and frame statistics")
    func examples() throws {
        let directory = try scratchDirectory()
        let photo = try launch("StillPhotoExample", [directory.appendingPathComponent("p.jpg").path])
        #expect(photo.status == 0, "\(photo.error)")
        #expect(photo.output.contains("1920x1080, EXIF orientation 6"))
        #expect(try exif(directory.appendingPathComponent("p.jpg"), "Orientation") == "6")
        let stats = try launch("FrameStatsExample", ["5"])
        #expect(stats.status == 0, "\(stats.error)")
        let lines = stats.output.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.contains("mean luma 1") })
    }
}
