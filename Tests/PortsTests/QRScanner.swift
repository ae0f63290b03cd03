import Foundation
import CaptureKit

/// Reads QR and EAN codes from the default camera (ported from the AVFoundation original by dropping `AV`).
public final class QRScanner: NSObject, MetadataOutputObjectsDelegate {
    public let session = CaptureSession()
    private let metadataOutput = MetadataOutput()
    private let sessionQueue = DispatchQueue(label: "qr.session")
    public var didFindCode: ((String) -> Void)?
    public private(set) var lastCodes: [String] = []

    public override init() {
        super.init()
        sessionQueue.async { self.configure() }
    }

    public static func isAvailable() -> Bool {
        guard let device = CaptureDevice.default(for: .video) else { return false }
        return (try? CaptureDeviceInput(device: device)) != nil
    }

    private func configure() {
        guard let device = CaptureDevice.default(for: .video),
              let input = try? CaptureDeviceInput(device: device) else { return }
        session.beginConfiguration()
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(metadataOutput) { session.addOutput(metadataOutput) }
        metadataOutput.setMetadataObjectsDelegate(self, queue: DispatchQueue.main)
        let wanted: [MetadataObject.ObjectType] = [.qr, .ean13]
        metadataOutput.metadataObjectTypes = wanted.filter { metadataOutput.availableMetadataObjectTypes.contains($0) }
        metadataOutput.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        if device.isFocusModeSupported(.continuousAutoFocus) {
            try? device.lockForConfiguration()
            device.focusMode = .continuousAutoFocus
            device.unlockForConfiguration()
        }
        session.commitConfiguration()
    }

    public func startScanning() {
        sessionQueue.async {
            if !self.session.isRunning { self.session.startRunning() }
        }
    }

    public func stopScanning() {
        sessionQueue.async {
            if self.session.isRunning { self.session.stopRunning() }
        }
    }

    public func toggleTorch() {
        guard let device = (session.inputs.first as? CaptureDeviceInput)?.device, device.hasTorch else { return }
        do {
            try device.lockForConfiguration()
            device.torchMode = device.torchMode == .on ? .off : .on
            device.unlockForConfiguration()
        } catch {
            print("torch: \(error)")
        }
    }

    public func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataObject], from connection: CaptureConnection) {
        lastCodes = metadataObjects.compactMap { ($0 as? MetadataMachineReadableCodeObject)?.stringValue }
        for object in metadataObjects {
            if let code = object as? MetadataMachineReadableCodeObject, let value = code.stringValue {
                didFindCode?(value)
            }
        }
    }
}
