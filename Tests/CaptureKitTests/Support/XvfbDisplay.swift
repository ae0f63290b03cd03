import Foundation

/// An X server of a test's own: `Xvfb` on a display number it picks itself (`-displayfd`, so
/// tests never guess a free one), with one 24-bit screen, stopped when the test is done.
/// Shared by the CaptureKit and command tests (the command tests' copy is a link to this file).
final class XvfbDisplay {
    static let executable = "/usr/bin/Xvfb"
    /// Whether Xvfb is installed (`make test` installs it: scripts/apt-packages.txt).
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The display's name, e.g. ":3", as `$DISPLAY` takes it.
    let name: String
    private let number: Int
    private let server: Process
    private let size: (width: Int, height: Int)
    /// The windows `paint` opened; they end with the server.
    private var painters: [Process] = []

    struct XvfbFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts Xvfb with a `width`x`height` screen; returns once it accepts connections (Xvfb
    /// writes the display number then).
    init(width: Int = 800, height: Int = 600) throws {
        size = (width, height)
        server = Process()
        server.executableURL = URL(fileURLWithPath: Self.executable)
        server.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        let numberPipe = Pipe()
        server.standardOutput = numberPipe
        server.standardError = FileHandle.nullDevice
        try server.run()
        var written = ""
        while !written.hasSuffix("\n") {
            let data = numberPipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            written += String(decoding: data, as: UTF8.self)
        }
        guard let display = Int(written.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            throw XvfbFailure(description: "Xvfb did not start: it wrote '\(written)' for its display number")
        }
        number = display
        name = ":\(display)"
    }

    /// Stops the server with SIGKILL (it inherits the test threads' signal mask, which blocks
    /// SIGTERM), then removes the lock file and socket it can no longer remove itself: only
    /// while the lock still names this server's PID. Once the server is dead, another test
    /// process's Xvfb may take the display number over (a stale lock is fair game), and removing
    /// its socket left that test without a display (Debian 13's run: "Cannot open display :9").
    deinit {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        for painter in painters { painter.waitUntilExit() }
        let lock = "/tmp/.X\(number)-lock"
        let owner = (try? String(contentsOfFile: lock, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard owner == server.processIdentifier else { return }
        for leftover in ["/tmp/.X11-unix/X\(number)", lock] { try? FileManager.default.removeItem(atPath: leftover) }
    }

    /// Covers the screen with `colour` ("#ff0000"), over what was painted before: a borderless
    /// `xmessage` window of the screen's size at its origin, its text and button in the same
    /// colour (no window manager needed). It shows a moment after this returns; it stays until
    /// the server stops. (`xsetroot -solid` leaves Xvfb's root window as it was.)
    func paint(_ colour: String) throws {
        let painter = Process()
        painter.executableURL = URL(fileURLWithPath: "/usr/bin/xmessage")
        painter.arguments = ["-display", name, "-geometry", "\(size.width)x\(size.height)+0+0", "-bw", "0",
                             "-bg", colour, "-fg", colour, "-bd", colour, " "]
        painter.standardOutput = FileHandle.nullDevice
        painter.standardError = FileHandle.nullDevice
        try painter.run()
        painters.append(painter)
        try waitUntilShown(colour)
    }

    /// Waits (up to 10 s) until the middle of the screen, grabbed by ffmpeg's x11grab, is
    /// `colour` (`#rrggbb`): a client that has started has not necessarily drawn yet.
    private func waitUntilShown(_ colour: String) throws {
        let hex = colour.dropFirst()
        let wanted = stride(from: 0, to: 6, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 }
        for _ in 0..<50 {
            let grab = Process()
            grab.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            grab.arguments = ["-v", "error", "-f", "x11grab", "-video_size", "\(size.width)x\(size.height)", "-i", name,
                              "-frames:v", "1", "-vf", "crop=1:1:100:100", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
            let pipe = Pipe()
            grab.standardOutput = pipe
            grab.standardError = FileHandle.nullDevice
            grab.standardInput = FileHandle.nullDevice
            try grab.run()
            let pixel = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
            grab.waitUntilExit()
            if pixel.count == 3, zip(pixel, wanted).allSatisfy({ abs(Int($0) - Int($1)) < 16 }) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw XvfbFailure(description: "\(name) did not show \(colour) within 10 s")
    }
}
