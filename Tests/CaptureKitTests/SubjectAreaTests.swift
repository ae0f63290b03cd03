import Foundation
import Synchronization
import Testing
@testable import CaptureKit

@Suite("Subject area change", .ownDevices, .serialized, .timeLimit(.minutes(1)))
struct SubjectAreaTests {
    @Test("a large change in the frames posts subjectAreaDidChange; the moving square alone does not")
    func notification() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [VideoDataOutput()])
        let posts = Atomic<Int>(0)
        let observer = NotificationCenter.default.addObserver(forName: CaptureDevice.subjectAreaDidChangeNotification, object: nil, queue: nil) { note in
            if (note.object as? CaptureDevice) == device { posts.add(1, ordering: .relaxed) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        #expect(throws: CaptureError.notLocked(device: "virtual:back")) { try device.setSubjectAreaChangeMonitoringEnabled(true) }
        try device.lockForConfiguration()
        defer {
            try? device.setSubjectAreaChangeMonitoringEnabled(false)
            try? device.setExposureMode(.continuousAutoExposure)
            device.unlockForConfiguration()
        }
        try device.setSubjectAreaChangeMonitoringEnabled(true)
        #expect(device.isSubjectAreaChangeMonitoringEnabled)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await Task.sleep(for: .milliseconds(500))
        #expect(posts.load(ordering: .relaxed) == 0, "only the square moved")
        // A quarter of the light: most of the frame changes.
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 480), iso: CaptureDevice.currentISO)
        for _ in 0..<50 where posts.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(posts.load(ordering: .relaxed) == 1)
    }
}
