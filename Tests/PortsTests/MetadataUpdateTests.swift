import CaptureKit
import Foundation
import Testing

/// The metadata delegate as overlays use it: objects while in view, then one empty array when
/// they leave, so the overlay clears.
extension SharedDevices {
    @Suite("Metadata updates", .serialized)
    struct MetadataUpdateTests {
        final class Batches: MetadataOutputObjectsDelegate {
            private let lock = NSLock()
            private var batches: [[String]] = []

            func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataObject], from connection: CaptureConnection) {
                let values = metadataObjects.compactMap { ($0 as? MetadataMachineReadableCodeObject)?.stringValue }
                lock.withLock { batches.append(values) }
            }

            var all: [[String]] { lock.withLock { batches } }
        }

        @Test("codes leaving the rect of interest are reported once as an empty array, then nothing until one returns")
        func emptyUpdate() async throws {
            let session = CaptureSession()
            session.sessionPreset = .vga640x480
            session.addInput(try CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .video))))
            let output = MetadataOutput()
            session.addOutput(output)
            output.metadataObjectTypes = [.qr]
            let batches = Batches()
            output.setMetadataObjectsDelegate(batches, queue: DispatchQueue(label: "metadata"))
            session.startRunning()
            defer { session.stopRunning() }
            #expect(await ManualControlsPortTests.eventually { batches.all.contains { !$0.isEmpty } })
            output.rectOfInterest = CGRect(x: 0, y: 0, width: 0.05, height: 0.05)
            #expect(await ManualControlsPortTests.eventually { batches.all.last == [] })
            let settled = batches.all.count
            try await Task.sleep(for: .milliseconds(500))
            #expect(batches.all.count == settled, "one empty update, not one per frame: \(batches.all.suffix(5))")
            output.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
            #expect(await ManualControlsPortTests.eventually { batches.all.last?.isEmpty == false }, "the code seen again")
        }
    }
}
