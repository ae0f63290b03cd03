import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

@Suite("Configuration lock", .ownDevices, .serialized)
struct ConfigurationLockTests {
    @Test("settings need the lock; nested locks are counted")
    func lockRequired() throws {
        let device = CaptureDevice.find(virtual: .front)
        let format = device.formats[1]
        #expect(throws: CaptureError.notLocked(device: "virtual:front")) { try device.setActiveFormat(format) }
        try device.lockForConfiguration()
        try device.lockForConfiguration()
        #expect(device.isLockedForConfiguration)
        try device.setActiveFormat(format)
        #expect(device.activeFormat == format)
        device.unlockForConfiguration()
        #expect(device.isLockedForConfiguration)
        device.unlockForConfiguration()
        #expect(!device.isLockedForConfiguration)
        #expect(throws: CaptureError.notLocked(device: "virtual:front")) { try device.setActiveFormat(format) }
        // Another handle to the same device shares the lock.
        try device.lockForConfiguration()
        #expect(CaptureDevice(uniqueID: "virtual:front", context: TestContext.current)?.isLockedForConfiguration == true)
        device.unlockForConfiguration()
    }

    @Test("another process holding the lock makes lockForConfiguration throw with its pid")
    func otherProcess() async throws {
        // A device of its own (no other test uses this pattern), so that nothing else running
        // beside it is locked out meanwhile: the lock is a file named for the uniqueID.
        let device = CaptureDevice.testPattern(width: 64, height: 48, pattern: "pinwheel", isLive: true)
        let path = DeviceConfigurationLock.path(for: device.uniqueID)
        try FileManager.default.createDirectory(atPath: DeviceConfigurationLock.directory, withIntermediateDirectories: true)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        // flock(1) holds the lock while its child sleeps; the file carries flock's pid, as CaptureKit writes its own.
        holder.arguments = ["-c", "exec flock -n \"$0\" sh -c 'echo $PPID > \"$0\"; sleep 1' \"$0\"", path]
        try holder.run()
        defer { holder.terminate() }
        var error: CaptureError?
        for _ in 0..<100 {
            do throws(CaptureError) {
                try device.lockForConfiguration()
                device.unlockForConfiguration()
            } catch let caught {
                error = caught
                if caught == .deviceLocked(device: "test-pattern:pinwheel", holderPID: holder.processIdentifier) { break }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(error == .deviceLocked(device: "test-pattern:pinwheel", holderPID: holder.processIdentifier))
        holder.waitUntilExit()
        try device.lockForConfiguration()
        device.unlockForConfiguration()
    }
}
