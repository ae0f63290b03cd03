import Foundation
import Testing
@testable import CaptureKit

/// `isInUseByAnotherApplication`'s reading of /proc: another process's descriptor counts, this
/// process's does not.
@Suite("Files open in other processes", .ownDevices)
struct OpenFilesTests {
    @Test("a file another process holds open is in use; one only this process has open is not")
    func otherProcess() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let own = FileHandle(forReadingAtPath: path)
        defer { try? own?.close() }
        #expect(!OpenFiles.otherProcessesHaveOpen(path))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3<\"$0\"; sleep 5", path]
        try holder.run()
        defer { holder.terminate() }
        var seen = false
        for _ in 0..<100 where !seen {
            seen = OpenFiles.otherProcessesHaveOpen(path)
            if !seen { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(seen)
        #expect(!CaptureDevice.find(virtual: .back).isInUseByAnotherApplication)
    }
}
