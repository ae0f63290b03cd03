import Foundation
import Testing

/// `capture preview` under Xvfb: the window shows the virtual scene with its QR code outlined,
/// ends with exit 0 on Ctrl-C, on --duration and when closed, and says which sink showed it.
@Suite("capture preview", .serialized)
struct PreviewCommandTests {
    /// An RGB screenshot of `display` (ffmpeg's x11grab), also saved as `png` to be looked at.
    struct Screenshot {
        let width: Int, height: Int
        let pixels: [UInt8]

        init(display: String, width: Int, height: Int, png: URL) throws {
            let grab = try runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                      ["-loglevel", "error", "-y", "-f", "x11grab", "-video_size", "\(width)x\(height)", "-i", display,
                                       "-frames:v", "1", png.path])
            try #require(grab.status == 0, "\(grab.error)")
            let raw = png.deletingPathExtension().appendingPathExtension("rgb")
            let convert = try runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                         ["-loglevel", "error", "-y", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
            try #require(convert.status == 0, "\(convert.error)")
            pixels = [UInt8](try Data(contentsOf: raw))
            try #require(pixels.count == width * height * 3)
            self.width = width
            self.height = height
        }

        func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let offset = (y * width + x) * 3
            return (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
        }

        /// Pixels in the rectangle that are the outline's pure green.
        func greenPixels(x: Range<Int>, y: Range<Int>) -> Int {
            y.reduce(0) { count, row in
                count + x.filter { column in
                    let p = pixel(column, row)
                    return p.g > 220 && p.r < 40 && p.b < 40
                }.count
            }
        }
    }

    /// `capture preview -d virtual --preset vga640x480` with more `arguments`, running on
    /// `display` until the test ends it; terminated if the test fails first. Its `--duration`
    /// is far beyond any test's: a 30 s one ran out under Debian 13's CI load before a slow
    /// test had sent its close request, and the preview ended by its duration instead.
    final class Running {
        let process = Process()
        private let out = Pipe(), err = Pipe()

        init(_ arguments: [String], display: String) throws {
            process.executableURL = binaries.appendingPathComponent("capture")
            process.arguments = ["preview", "-d", "virtual", "--preset", "vga640x480", "--duration", "600"] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            process.environment = environment
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        deinit { if process.isRunning { process.terminate() } }

        /// Waits for the exit: its status, standard output and standard error. A preview still
        /// running after `timeout` seconds is an issue, and is interrupted.
        func finish(timeout: TimeInterval = 60) -> (status: Int32, output: String, error: String) {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning {
                Issue.record("the preview was still running \(Int(timeout)) s after the test ended it")
                process.interrupt()
            }
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output, error)
        }
    }

    @Test("the window shows the virtual scene with its QR code outlined in green; Ctrl-C ends it with exit 0",
          .enabled(if: XvfbDisplay.isInstalled, "Xvfb is not installed (make test installs it: scripts/apt-packages.txt)"))
    func windowWithOutline() throws {
        let xvfb = try XvfbDisplay(width: 800, height: 600)
        let directory = try scratchDirectory()
        let preview = try Running(["--scan", "qr"], display: xvfb.name)
        // The scene at 640x480 in the window's top left: the QR code's quiet zone spans about
        // (32…272, 38…278); the scene's own green swatch is far below it.
        var shot: Screenshot?
        for attempt in 0..<40 {
            Thread.sleep(forTimeInterval: 0.25)
            let taken = try Screenshot(display: xvfb.name, width: 800, height: 600, png: directory.appendingPathComponent("preview-\(attempt).png"))
            if taken.greenPixels(x: 20..<290, y: 20..<290) > 400 { shot = taken; break }
        }
        let screen = try #require(shot, "no outline around the QR code in the screenshots in \(directory.path)")
        // The scene: a white quiet zone beside the code, black and red swatches where the scene puts them.
        let quietZone = screen.pixel(40, 160), red = screen.pixel(79, 387), black = screen.pixel(79, 330)
        #expect(quietZone.r > 220 && quietZone.g > 220 && quietZone.b > 220, "\(quietZone)")
        #expect(red.r > 200 && red.g < 60 && red.b < 60, "\(red)")
        #expect(black.r < 40 && black.g < 40 && black.b < 40, "\(black)")
        #expect(screen.greenPixels(x: 300..<640, y: 20..<290) < 50, "no outline where there is no code")

        // The outline can be there in the first screenshot, a third of a second in (on GStreamer
        // 1.26, whose pipeline starts sooner, it was, with 10 frames shown by then): the window
        // runs a second more, 30 frames, so that the count below shows it live.
        Thread.sleep(forTimeInterval: 1)
        preview.process.interrupt()
        let (status, output, error) = preview.finish()
        #expect(status == 0, "\(error)")
        #expect(error.contains("in glimagesink") || error.contains("in ximagesink") || error.contains("in xvimagesink"), "\(error)")
        let shown = Int(output.split(separator: " ").first ?? "") ?? 0
        #expect(shown > 10 && output.hasSuffix(" frames shown\n"), "\(output)")
    }

    /// Sends `window` on `display` the window manager's close request (a WM_PROTOCOLS client
    /// message with WM_DELETE_WINDOW), as a title bar's close button does; Xvfb has no window
    /// manager, so Python's ctypes calls libX11 to send it.
    static func requestClose(display: String, window: String) throws {
        let script = """
            import ctypes, sys
            x = ctypes.cdll.LoadLibrary("libX11.so.6")
            x.XOpenDisplay.restype = ctypes.c_void_p
            x.XInternAtom.restype = ctypes.c_ulong
            x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
            x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
            x.XFlush.argtypes = [ctypes.c_void_p]
            class ClientMessage(ctypes.Structure):
                _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                            ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                            ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("pad", ctypes.c_char * 96)]
            display = x.XOpenDisplay(sys.argv[1].encode())
            window = int(sys.argv[2], 0)
            event = ClientMessage(type=33, send_event=1, display=display, window=window,
                                  message_type=x.XInternAtom(display, b"WM_PROTOCOLS", 0), format=32)
            event.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
            sent = x.XSendEvent(display, window, 0, 0, ctypes.byref(event))
            x.XFlush(display)
            sys.exit(0 if sent else 1)
            """
        let sent = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, display, window])
        try #require(sent.status == 0, "\(sent.error)")
    }

    @Test("closing the window as a window manager does ends the preview with exit 0",
          .enabled(if: XvfbDisplay.isInstalled, "Xvfb is not installed (make test installs it: scripts/apt-packages.txt)"))
    func closeWindow() throws {
        let xvfb = try XvfbDisplay(width: 800, height: 600)
        let preview = try Running(["--size", "320x240"], display: xvfb.name)
        // The preview's window: the root's child the size of --size.
        var window: String?
        for _ in 0..<40 where window == nil {
            Thread.sleep(forTimeInterval: 0.25)
            let tree = try runProcess(URL(fileURLWithPath: "/usr/bin/xwininfo"), ["-display", xvfb.name, "-root", "-children"])
            window = tree.output.split(separator: "\n").first { $0.contains(" 320x240+") }?
                .split(separator: " ").first.map(String.init)
        }
        try Self.requestClose(display: xvfb.name, window: try #require(window, "no 320x240 window on \(xvfb.name)"))
        let (status, output, error) = preview.finish()
        #expect(status == 0, "\(error)")
        #expect(error.contains("the preview ended"), "\(error)")
        #expect(output.hasSuffix(" frames shown\n"), "\(output)")
    }

    @Test("portrait, filling a 360x640 window: the window is that size and --duration ends it with exit 0",
          .enabled(if: XvfbDisplay.isInstalled, "Xvfb is not installed (make test installs it: scripts/apt-packages.txt)"))
    func portraitFill() throws {
        let xvfb = try XvfbDisplay(width: 800, height: 700)
        let result = try launch("capture", ["preview", "-d", "virtual", "--preset", "vga640x480", "--orientation", "portrait",
                                            "--gravity", "fill", "--size", "360x640", "--duration", "1.5", "--verbose"],
                                environment: ["DISPLAY": xvfb.name])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("videoflip name=output0_flip video-direction=90r") && result.error.contains("width=360,height=640"), "\(result.error)")
    }

    @Test("with no display, the preview says so and exits 1")
    func noDisplay() throws {
        let result = try launch("capture", ["preview", "-d", "virtual", "--duration", "1"], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 1)
        #expect(result.error.contains("no window sink opens a display: tried glimagesink, xvimagesink, ximagesink, waylandsink"), "\(result.error)")
    }
}
