@_spi(Benchmark) import CaptureKit

/// A session of `device` at 1280x720 with a metadata output looking for `types`, not started:
/// what the scan and motion benchmarks measure.
enum MetadataSession {
    static func make(_ device: CaptureDevice, types: [MetadataObjectType]) throws -> (CaptureSession, MetadataOutput) {
        let session = CaptureSession()
        try session.setSessionPreset(.hd1280x720)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = MetadataOutput()
        try session.checked.addOutput(output)
        try output.setMetadataObjectTypes(types)
        return (session, output)
    }
}
