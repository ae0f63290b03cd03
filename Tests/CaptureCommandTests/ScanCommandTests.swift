import Foundation
import Testing

/// Runs a tool and fails the test when it does not exit 0.
private func tool(_ path: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(path) \(arguments.joined(separator: " "))")
}

@Suite("capture scan", .serialized)
struct ScanCommandTests {
    @Test("scan -d virtual --once prints the scene's QR code and exits 0; a timeout with nothing found exits 1")
    func scanDevice() throws {
        let result = try launch("capture", ["scan", "-d", "virtual", "--once", "--types", "qr"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "qr https://capturekit.dev/virtual-camera\n")
        let nothing = try launch("capture", ["scan", "-d", "virtual", "--types", "aztec", "--timeout", "0.5"])
        #expect(nothing.status == 1 && nothing.output.isEmpty, "\(nothing.status) \(nothing.output)")
        let right = try launch("capture", ["scan", "-d", "virtual", "--json", "--once", "--types", "ean13", "--rect", "0.5,0,0.5,0.6"])
        #expect(right.status == 0, "\(right.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(right.output.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "ean13" && object["value"] as? String == "4006381333931")
        #expect(object["source"] as? String == "virtual:back")
        #expect((object["corners"] as? [[Double]])?.count == 4 && (object["bounds"] as? [Double])?.count == 4)
        #expect(object["time"] is Double && object["duration"] is Double)
    }

    @Test("scan --file reads PNG, JPEG and GIF images made by zint, a video file and a photograph's face, printing JSON lines with their source")
    func scanFiles() throws {
        let directory = try scratchDirectory()
        let qr = directory.appendingPathComponent("qr.png").path
        let ean = directory.appendingPathComponent("ean.gif").path
        let code128 = directory.appendingPathComponent("code128.png").path
        let jpeg = directory.appendingPathComponent("code128.jpg").path
        let video = directory.appendingPathComponent("qr.avi").path
        try tool("/usr/bin/zint", ["-b", "QRCODE", "-d", "scan me", "--scale=4", "-o", qr])
        try tool("/usr/bin/zint", ["-b", "EANX", "-d", "400638133393", "--scale=3", "-o", ean])
        try tool("/usr/bin/zint", ["-b", "CODE128", "-d", "CaptureKit", "--scale=3", "-o", code128])
        try tool("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(code128)", "!", "pngdec", "!", "videoconvert", "!", "jpegenc",
                                             "!", "filesink", "location=\(jpeg)"])
        try tool("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(qr)", "!", "pngdec", "!", "imagefreeze", "num-buffers=15", "!",
                                             "videoconvert", "!", "video/x-raw,format=I420,framerate=15/1", "!", "jpegenc", "!", "avimux",
                                             "!", "filesink", "location=\(video)"])
        let result = try launch("capture", ["scan", "--json", "--file", qr, ean, jpeg, video])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let found = lines.map { "\($0["type"] as? String ?? "?") \($0["value"] as? String ?? "?") \(URL(fileURLWithPath: $0["source"] as? String ?? "").lastPathComponent)" }
        #expect(found == ["qr scan me qr.png", "ean13 4006381333931 ean.gif", "code128 CaptureKit code128.jpg", "qr scan me qr.avi"], "\(found)")
        let plain = try launch("capture", ["scan", "--file", qr, "--types", "ean13,code128"])
        #expect(plain.status == 1 && plain.output.isEmpty, "a QR code is not what was asked for")
        let once = try launch("capture", ["scan", "--once", "--file", qr, ean])
        #expect(once.status == 0 && once.output == "qr scan me\n")
        // Faces: a real photograph from Debian's python3-skimage (NASA's portrait of Eileen Collins).
        let photo = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"
        let faces = try launch("capture", ["scan", "--types", "face", "--file", photo])
        #expect(faces.status == 0 && faces.output == "face 1\n", "\(faces.output) \(faces.error)")
        let faceJSON = try launch("capture", ["scan", "--types", "face,qr", "--json", "--file", photo])
        let face = try #require(try JSONSerialization.jsonObject(with: Data(faceJSON.output.utf8)) as? [String: Any])
        #expect(face["type"] as? String == "face" && face["faceID"] as? Int == 1 && face["yaw"] as? Double == 0, "\(face)")
    }

    /// A PNG of 74 bytes whose header claims `width` x `height` RGBA pixels, with 17 bytes of
    /// image data (1000 zero bytes, deflated): a decoder that believes the header allocates it all.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let length = UInt32(body.count)
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return withUnsafeBytes(of: length.bigEndian, Array.init) + typed + withUnsafeBytes(of: (crc ^ 0xFFFF_FFFF).bigEndian, Array.init)
        }
        let size = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)
        let deflated: [UInt8] = [120, 218, 99, 96, 24, 5, 163, 96, 20, 12, 119, 0, 0, 3, 232, 0, 1]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", size + [8, 6, 0, 0, 0])
            + chunk("IDAT", deflated) + chunk("IEND", []))
    }

    /// `capture` with `arguments`, killed after 60 s (a hang guard: these files once hung it).
    static func guardedScan(_ arguments: [String]) throws -> Completed {
        try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", binaries.appendingPathComponent("capture").path] + arguments)
    }

    @Test("hostile files are each named with the reason on standard error, and the next file is still scanned: a PNG claiming 20000x20000 (before decoding), a FIFO, an ELF named .jpg, an image with no code")
    func hostileFiles() throws {
        let directory = try scratchDirectory()
        let qr = directory.appendingPathComponent("qr.png").path
        try tool("/usr/bin/zint", ["-b", "QRCODE", "-d", "scan me", "--scale=4", "-o", qr])
        let bomb = directory.appendingPathComponent("bomb.png")
        try Self.pngHeader(width: 20000, height: 20000).write(to: bomb)
        let fifo = directory.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let elf = directory.appendingPathComponent("true.jpg").path
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: elf)
        let blank = directory.appendingPathComponent("blank.png").path
        try tool("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "pattern=black", "num-buffers=1", "!", "video/x-raw,width=64,height=64",
                                             "!", "pngenc", "!", "filesink", "location=\(blank)"])
        let result = try Self.guardedScan(["scan", "--file", bomb.path, fifo, elf, blank, qr])
        #expect(result.status == 1, "\(result.status) \(result.error)")
        #expect(result.output == "qr scan me\n")
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines == [
            "error: '\(bomb.path)' is a 20000x20000 PNG (400 megapixels), over the limit of 100 megapixels (100000000 pixels);"
                + " it was not decoded. Raise the limit (maxPixels, capture scan --max-pixels) to read it",
            "error: '\(fifo)' is a FIFO, not a regular file; scan reads image and video files",
            "error: '\(elf)' is not an image or video format scan reads (it is an ELF executable); scan reads PNG, JPEG, GIF, BMP and"
                + " PNM images; MP4, MOV, Matroska, WebM, AVI, MPEG, Ogg, FLV and ASF videos",
            "\(blank): no code",
        ], "\(result.error)")
        // Every file read, each with its code (a file named twice prints its code twice): 0. The limit is settable.
        let good = try Self.guardedScan(["scan", "--file", qr, qr])
        #expect(good.status == 0 && good.output == "qr scan me\nqr scan me\n" && good.error.isEmpty, "\(good.status) \(good.output) \(good.error)")
        let small = try Self.guardedScan(["scan", "--max-pixels", "1000", "--file", qr])
        #expect(small.status == 1 && small.output.isEmpty)
        #expect(small.error.contains("over the limit of 0.001 megapixels (1000 pixels)"), "\(small.error)")
        let zero = try Self.guardedScan(["scan", "--max-pixels", "0", "--file", qr])
        #expect(zero.status == 2 && zero.error.contains("--max-pixels 0 must be a number of pixels greater than 0"), "\(zero.error)")
    }

    @Test("bad types, rects and files are reported: usage errors (rects outside the unit square too) exit 2, unreadable files 1")
    func scanMisuse() throws {
        let types = try launch("capture", ["scan", "--types", "qr,smoke"])
        #expect(types.status == 2 && types.error.contains("--types"), "\(types.error)")
        let rect = try launch("capture", ["scan", "--rect", "0.5,0.5"])
        #expect(rect.status == 2)
        let both = try launch("capture", ["scan", "-d", "virtual", "--file", "x.png"])
        #expect(both.status == 2 && both.error.contains("either --device or --file"))
        let missing = try launch("capture", ["scan", "--file", "/nonexistent/x.png"])
        #expect(missing.status == 1 && missing.error.contains("/nonexistent/x.png"), "\(missing.error)")
        let nan = try launch("capture", ["scan", "--file", "x.png", "--rect", "nan,0,1,1"])
        #expect(nan.status == 2 && nan.error.contains("--rect nan,0,1,1 is not a non-empty x,y,w,h within 0,0,1,1"), "\(nan.error)")
        let forever = try launch("capture", ["scan", "-d", "virtual", "--timeout", "inf"])
        #expect(forever.status == 2 && forever.error.contains("--timeout"), "\(forever.error)")
        let outside = try launch("capture", ["scan", "-d", "virtual", "--rect", "0.5,0.5,0.8,0.8", "--timeout", "1"])
        #expect(outside.status == 2 && outside.error.contains("--rect 0.5,0.5,0.8,0.8 is not"), "\(outside.error)")
    }
}
