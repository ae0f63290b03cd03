import Foundation

/// A command run in the background for a test (a receiver, a client), its output in a file;
/// killed (SIGKILL, as a crash would) when the test is done with it.
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    let log: URL

    init(_ executable: String, _ arguments: [String]) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("capturekit-bg-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `seconds` for the process to end by itself; true when it did.
    func wait(seconds: Double) async throws -> Bool {
        for _ in 0..<Int(seconds * 20) where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning
    }

    /// What it printed so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: log)
    }
}

/// A port for a test's server or receiver: free for UDP and TCP on loopback when asked.
func freePort() -> Int {
    for _ in 0..<50 {
        let port = Int.random(in: 20_000..<60_000)
        if portIsFree(port, type: Int32(SOCK_STREAM.rawValue)) && portIsFree(port, type: Int32(SOCK_DGRAM.rawValue)) { return port }
    }
    return Int.random(in: 20_000..<60_000)
}

private func portIsFree(_ port: Int, type: Int32) -> Bool {
    let fd = socket(AF_INET, type, 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
