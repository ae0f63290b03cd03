import Foundation
import Testing

/// The camera page of `capture serve` in headless Chromium (Debian's chromium and
/// chromium-driver through python3-selenium): Python scripts under Browser/ drive the page and
/// print their checks as JSON, which these tests assert one by one. Screenshots go to a folder
/// the tests print (`browser screenshots: …`).
@Suite("camera page in a browser", .serialized)
struct BrowserTests {
    /// The package's root, from this file's place.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let browserScripts = root.appendingPathComponent("Tests/CaptureServerTests/Browser")
    static let page = root.appendingPathComponent("Sources/CaptureServer/Page")
    static let capture = root.appendingPathComponent(".build/debug/capture")
    /// Debian's python, which has python3-selenium and python3-pil (not whatever python3 PATH finds).
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    static func outputFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("capture-browser-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A TCP port on loopback that nothing listens on: bound to port 0, read back, released.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BrowserTestError(message: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BrowserTestError(message: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a browser script with arguments; returns its JSON (stdout) and its progress (stderr).
    static func runScript(_ script: String, _ arguments: [String], log: URL) throws -> (json: [String: Any], progress: String) {
        let process = Process()
        process.executableURL = python
        process.arguments = [browserScripts.appendingPathComponent(script).path] + arguments
        let out = Pipe()
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errorLog = try FileHandle(forWritingTo: log)
        process.standardOutput = out
        process.standardError = errorLog
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorLog.close()
        let progress = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BrowserTestError(message: "\(script) exited \(process.terminationStatus) without JSON: \(String(decoding: data, as: UTF8.self).suffix(2000))\n\(progress.suffix(4000))")
        }
        return (json, progress)
    }

    /// Each named check of a script's JSON, expected to be ok.
    static func expectChecks(_ json: [String: Any], named names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let checks = json["checks"] as? [String: [String: Any]] ?? [:]
        for name in names {
            guard let check = checks[name] else {
                Issue.record("\(name): not run", sourceLocation: sourceLocation)
                continue
            }
            let details = (try? JSONSerialization.data(withJSONObject: check, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "\(check)"
            #expect(check["ok"] as? Bool == true, "\(name): \(details)", sourceLocation: sourceLocation)
        }
    }

    @Test("geometry.js converts view and device points as VideoPreview does (hand-computed cases), and the page's CSS shows the picture where they say")
    func geometry() throws {
        let out = try Self.outputFolder("geometry")
        let (json, _) = try Self.runScript("geometry_checks.py", [Self.page.path, out.path], log: out.appendingPathComponent("progress.log"))
        print("browser screenshots: \(out.path)")
        Self.expectChecks(json, named: [
            "geometry_to_device_hand_cases", "geometry_to_view_hand_cases", "geometry_round_trip",
            "geometry_css_picture_matches_conversion",
        ])
        #expect((json["failed"] as? Int) == 0)
    }

    @Test("CAPTUREKIT_FRAME_STAMP=clock stamps each virtual-camera frame with the wall clock's milliseconds (scripts/page-latency.py reads them in the browser)")
    func wallClockStamp() throws {
        let out = try Self.outputFolder("stamp")
        let file = out.appendingPathComponent("stamped.jpg")
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let process = Process()
        process.executableURL = Self.capture
        process.arguments = ["snap", "-d", "virtual", "-o", file.path, "--preset", "hd1280x720", "--quality", "95"]
        var environment = ProcessInfo.processInfo.environment
        environment["CAPTUREKIT_FRAME_STAMP"] = "clock"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(process.terminationStatus == 0)
        // 24 blocks of 16x16 pixels along the top left edge, least significant bit first, read at
        // each block's centre.
        let reader = Process()
        reader.executableURL = Self.python
        reader.arguments = ["-c", """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert("L")
            print(sum(1 << bit for bit in range(24) if image.getpixel((bit * 16 + 8, 8)) > 128))
            """, file.path]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        let stamp = try #require(Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let modulus: Int64 = 1 << 24
        // The still was painted between the launch and the exit.
        let sinceLaunch = ((stamp - before % modulus) % modulus + modulus) % modulus
        #expect(sinceLaunch <= after - before, "stamp \(stamp), launched at \(before % modulus), exited at \(after % modulus)")
    }

    /// `capture serve` with the virtual camera on a free loopback port, with a token, recording
    /// into a scratch folder; stopped (SIGINT) when done.
    final class Server: @unchecked Sendable {
        let process = Process()
        /// The page's URL with the token, as the server printed it.
        private(set) var url = ""
        let token = "browser-\(UUID().uuidString.prefix(8))"
        private let output = Pipe()
        private let lock = NSLock()
        private var printed = ""

        init(folder: URL, arguments: [String] = []) throws {
            process.executableURL = BrowserTests.capture
            process.arguments = ["serve", "-d", "virtual", "--listen", "127.0.0.1:0", "--token", token, "--preset", "hd1280x720",
                                 "--recordings", folder.appendingPathComponent("recordings").path] + arguments
            process.currentDirectoryURL = folder
            let errors = folder.appendingPathComponent("serve.stderr.log")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            // Standard output drained on a thread of its own until the process ends.
            let handle = output.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lock.withLock { printed += String(decoding: data, as: UTF8.self) }
                }
            }
            let deadline = Date().addingTimeInterval(60)
            var found: String?
            while Date() < deadline, process.isRunning {
                found = lock.withLock { printed }.split(separator: "\n").first { $0.hasPrefix("serving ") }
                    .flatMap { $0.split(separator: " ").last.map(String.init) }
                if found != nil { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            guard var printedURL = found else {
                stop()
                let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw BrowserTestError(message: "capture serve printed no URL: \(lock.withLock { printed }) \(log.suffix(2000))")
            }
            if !printedURL.contains("token=") { printedURL += (printedURL.contains("?") ? "&" : "?") + "token=\(token)" }
            url = printedURL
        }

        /// Ends the server (SIGINT, as Ctrl-C) and waits for it.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    @Test("the camera page: WebRTC preview, codes outlined, snap, torch, bias, zoom, taps, switch camera, record, phone, token, MJPEG fallbacks")
    func page() throws {
        let out = try Self.outputFolder("page")
        let server = try Server(folder: out)
        defer { server.stop() }
        let (json, progress) = try Self.runScript("browser_checks.py", [server.url, out.path], log: out.appendingPathComponent("progress.log"))
        print("browser screenshots: \(out.path)")
        print(progress)
        Self.expectChecks(json, named: [
            "preview_webrtc_plays", "picture_16_9", "qr_outlined_with_string", "snap_jpeg_validates",
            "torch_changes_state_and_picture", "exposure_bias_slider", "zoom_slider", "tap_sends_device_point",
            "switch_camera", "record_shows_time_size_and_lists_file",
            "narrow_screen_and_touch", "token_on_fetches_and_socket", "mjpeg_fallback_with_webrtc_off",
            "mjpeg_fallback_when_webrtc_cannot_connect",
        ])
        // Both faults these checks found are mended: a viewer answered before its first frame
        // reached webrtcbin (no SSRC in the answer: Chrome connected and showed nothing), and the
        // virtual camera's times falling behind the clock while it painted slowly, so that a
        // camera switch jumped the stream seconds ahead (existing viewers froze).
        Self.expectChecks(json, named: ["webrtc_plays_after_switching_back", "mjpeg_front_camera_mirrored_once"])
        let screenshots = json["screenshots"] as? [String] ?? []
        #expect(screenshots.count >= 8, "screenshots: \(screenshots)")
        for path in screenshots {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            #expect(size > 5_000, "\(path) is \(size) bytes")
        }
    }

    @Test("the timeline of capture serve --segment: day and hour bars place the recorded spans and event marks, an event's thumbnail, a click on a mark or the hour bar plays from there, the download is the range as MP4, new events appear live")
    func timeline() throws {
        let out = try Self.outputFolder("timeline")
        let server = try Server(folder: out, arguments: ["--segment", "2"])
        defer { server.stop() }
        let (json, progress) = try Self.runScript("timeline_checks.py", [server.url, server.token, out.path], log: out.appendingPathComponent("progress.log"))
        print("browser screenshots: \(out.path)")
        print(progress)
        Self.expectChecks(json, named: [
            "timeline_button_shows_with_segment", "day_and_hour_bars_place_spans_and_marks", "event_has_thumbnail",
            "clicking_a_mark_plays_the_event", "clicking_the_hour_bar_plays_from_there", "download_link_is_the_range_as_mp4",
            "new_event_appears_without_reload",
        ])
    }
}

struct BrowserTestError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
