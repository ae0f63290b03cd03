// Scanning codes (AVCaptureMetadataOutput's flow): a session with the virtual camera, whose scene
// shows a QR code and an EAN-13 barcode, and a metadata output looking for both. Prints each code
// once as it is first seen and exits 0 when both were found, 1 if they were not within 15 s.
//
// Pipeline it compiles to:
//   videotestsrc (virtual camera) ! capsfilter ! tee
//     tee. ! queue leaky=downstream max-size-buffers=1 ! videoconvert ! videoscale ! GRAY8 ! appsink
//   (zxing-cpp reads the gray frames on the appsink's thread)
//
// Run: swift run MetadataScanExample
import CaptureKit
import Foundation

@main
struct MetadataScan {
    static func main() async throws {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))

        let output = MetadataOutput()
        try session.checked.addOutput(output)
        let wanted: [MetadataObjectType] = [.qr, .ean13]
        try output.setMetadataObjectTypes(wanted)

        // A deadline: the stream below only ends when the session does.
        Task.detached {
            try? await Task.sleep(for: .seconds(15))
            FileHandle.standardError.write(Data("no QR code and EAN-13 within 15 s\n".utf8))
            exit(1)
        }

        let batches = output.metadataObjects()
        try await session.checked.startRunning()
        var found: [MetadataObjectType: String] = [:]
        for await batch in batches {
            for case let code as MachineReadableCodeObject in batch where found[code.type] == nil {
                found[code.type] = code.stringValue ?? ""
                let box = code.bounds
                print(String(format: "%@ %@ at x %.2f y %.2f w %.2f h %.2f", code.type.name, code.stringValue ?? "-",
                             box.minX, box.minY, box.width, box.height))
            }
            if wanted.allSatisfy({ found[$0] != nil }) { break }
        }
        await session.checked.stopRunning()
        print("found \(found.count) of \(wanted.count) codes")
        exit(found.count == wanted.count ? 0 : 1)
    }
}
