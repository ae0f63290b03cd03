import Foundation

/// `capture-bench snap-v4l2 [NAME=CAPTURE-BINARY …]`, on a machine with vivid's /dev/video0 (scripts/v4l2vm-bench.sh runs it there): whole-process time
/// to one 640x480 JPEG from vivid's /dev/video0 for `capture snap -d /dev/video0` and the one-shot
/// tools beside it (gst-launch-1.0, the same still made by gst-launch-1.0 and by a Swift process of
/// this package without CaptureKit's model, fswebcam, ffmpeg), median of 7 rounds, interleaved: each round
/// runs every tool once, starting one further along the list each time. One untimed round first
/// (page cache, the driver's first open). Ratios are to gst-launch-1.0 in the same run. Tools not
/// installed in the guest are reported absent. Every run must exit 0 and leave a 640x480 JPEG
/// (capture's with EXIF). Extra capture binaries (e.g. `before=.build/before/capture`) run as
/// further tools, for before/after figures from one run.
///
/// Every capture binary is copied to the guest's /tmp first and run from there, as the peers run
/// from the guest's own disk: the checkout reaches the guest over 9p (cache=mmap), and mapping an
/// 84 MB binary from there cost each process ~0.5 s before `main` (measured in the guest).
enum SnapV4L2Benchmark {
    struct Tool {
        var name: String
        var executable: String
        var arguments: [String]
        var output: String
        var needsExif = false
    }

    static let device = "/dev/video0"
    static let rounds = 7

    static func run() async throws -> [String: Double] {
        guard FileManager.default.fileExists(atPath: device) else {
            throw BenchFailure(message: "no \(device): run where vivid is loaded, e.g. scripts/v4l2vm-bench.sh")
        }
        let (tools, absent) = makeTools()
        guard !absent.contains("gst-launch") else { throw BenchFailure(message: "gst-launch-1.0, the reference, is not in the guest") }
        var times: [String: [Double]] = [:]
        for round in -1..<rounds {
            for offset in 0..<tools.count {
                let tool = tools[(max(round, 0) + offset) % tools.count]
                let ms = try measure(tool)
                if round >= 0 { times[tool.name, default: []].append(ms) }
            }
        }
        let gst = Processes.median(times["gst-launch"] ?? [])
        print("whole process to one 640x480 JPEG from \(device), median of \(rounds) interleaved rounds:")
        var figures: [String: Double] = [:]
        let width = tools.map(\.name.count).max() ?? 0
        for tool in tools {
            let runs = times[tool.name]!, median = Processes.median(runs)
            let key = tool.name.replacingOccurrences(of: "-", with: "_")
            figures["\(key)_ms"] = median
            figures["\(key)_ratio"] = median / gst
            let name = tool.name.padding(toLength: width, withPad: " ", startingAt: 0)
            print("  \(name) " + String(format: "%7.0f ms  (min %5.0f, max %5.0f)  %.2f× gst-launch", median, runs.min()!, runs.max()!, median / gst))
        }
        for name in absent { print("  \(name): absent (not installed in the guest)") }
        return figures
    }

    /// capture (and any NAME=PATH capture binaries from the command line), then the peers found on PATH.
    static func makeTools() -> (tools: [Tool], absent: [String]) {
        let directory = NSTemporaryDirectory()
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent("snap-v4l2-\(name).jpg") }
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture").path
        var captures = [("capture", here)]
        for argument in CommandLine.arguments.dropFirst(2) {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { captures.append((parts[0], parts[1])) }
        }
        /// The binary copied to the temporary directory, where it runs from (the original if it cannot be copied).
        func localCopy(_ name: String, of binary: String) -> String {
            let local = (directory as NSString).appendingPathComponent("snap-v4l2-\(name)")
            try? FileManager.default.removeItem(atPath: local)
            let executable = (try? FileManager.default.copyItem(atPath: binary, toPath: local)) != nil ? local : binary
            print("\(name): \(binary)\(executable == local ? ", run from a copy in \(directory)" : "")")
            return executable
        }
        var tools = captures.map { name, binary in
            Tool(name: name, executable: localCopy(name, of: binary), arguments: ["snap", "-d", device, "--preset", "vga640x480", "-o", path(name)],
                 output: path(name), needsExif: true)
        }
        // The same still as gst-launch-same, from a Swift process of this package (SnapFloor).
        tools.append(Tool(name: "swift-gst", executable: localCopy("swift-gst", of: CommandLine.arguments[0]),
                          arguments: ["snap-gst", path("swift-gst")], output: path("swift-gst")))
        var absent: [String] = []
        let peers: [(String, String, (String) -> [String])] = [
            ("gst-launch", "gst-launch-1.0", gstLaunch(["videoconvert", "jpegenc"])),
            // The still capture writes, made by gst-launch: vivid's limited-range YUY2 converted to
            // full-range I420 (JFIF's range) and muxed by jifmux, as CaptureKit's still branch does
            // (without the EXIF tags, which gst-launch cannot write from the device's controls).
            ("gst-launch-same", "gst-launch-1.0", gstLaunch(["videoconvert", "video/x-raw,format=I420,colorimetry=1:4:7:1", "jpegenc", "jifmux"])),
            ("fswebcam", "fswebcam", { ["-q", "-d", device, "-r", "640x480", "--no-banner", "--jpeg", "85", $0] }),
            ("ffmpeg", "ffmpeg", { ["-hide_banner", "-loglevel", "error", "-y", "-f", "video4linux2", "-video_size", "640x480",
                                    "-i", device, "-frames:v", "1", $0] }),
        ]
        for (name, command, arguments) in peers {
            if let executable = which(command) {
                tools.append(Tool(name: name, executable: executable, arguments: arguments(path(name)), output: path(name)))
            } else {
                absent.append(name)
            }
        }
        return (tools, absent)
    }

    /// gst-launch-1.0's arguments for one 640x480 frame from the device through `stages` into the file it is given.
    static func gstLaunch(_ stages: [String]) -> (String) -> [String] {
        { output in
            let chain = [["v4l2src", "device=\(device)", "num-buffers=1"], ["video/x-raw,width=640,height=480"]] + stages.map { [$0] }
                + [["filesink", "location=\(output)"]]
            return ["-q"] + Array(chain.joined(separator: ["!"]))
        }
    }

    /// One whole-process run in milliseconds; throws unless it left a 640x480 JPEG.
    static func measure(_ tool: Tool) throws -> Double {
        try? FileManager.default.removeItem(atPath: tool.output)
        let seconds = try Processes.time(tool.executable, tool.arguments).seconds
        guard let data = FileManager.default.contents(atPath: tool.output), let size = jpegSize(data), size == (640, 480) else {
            throw BenchFailure(message: "\(tool.name) did not write a 640x480 JPEG to \(tool.output)")
        }
        if tool.needsExif && data.range(of: Data("Exif\0\0".utf8)) == nil {
            throw BenchFailure(message: "\(tool.name)'s still has no EXIF")
        }
        return seconds * 1000
    }

    /// Width and height from a JPEG's start-of-frame marker.
    static func jpegSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }

    static func which(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
