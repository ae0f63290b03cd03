import Foundation

/// An Xvfb server of the benchmark's own, on a display number it picks (`-displayfd`), ended
/// with the process.
final class VirtualDisplay {
    let name: String
    private let server: Process

    init(width: Int, height: Int) throws {
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        let pipe = Pipe()
        server.standardOutput = pipe
        server.standardError = FileHandle.nullDevice
        try server.run()
        var written = ""
        while !written.hasSuffix("\n") {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            written += String(decoding: data, as: UTF8.self)
        }
        guard let number = Int(written.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchFailure(message: "Xvfb gave no display number (is xvfb installed?)")
        }
        name = ":\(number)"
    }

    deinit {
        // SIGKILL: Xvfb inherits this process's blocked SIGTERM through Foundation's Process.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }
}
