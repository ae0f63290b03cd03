import CaptureKit
import Testing

/// Finding cameras the way AVFoundation code does, on the machine's devices (the virtual
/// cameras and microphone where no hardware is connected, as here).
extension SharedDevices {
    @Suite("Discovery sessions and default devices")
    struct DiscoveryTests {
        @Test("a discovery session lists by type, media type and position; default(_:for:position:) takes the first")
        func discovery() throws {
            let cameras = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera, .external], mediaType: .video, position: .unspecified).devices
            #expect(cameras.contains { $0.uniqueID == "virtual:back" } && cameras.contains { $0.uniqueID == "virtual:front" })
            #expect(cameras.allSatisfy { $0.deviceType == .builtInWideAngleCamera || $0.deviceType == .external })
            let front = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front).devices
            #expect(front.map(\.uniqueID) == ["virtual:front"])
            #expect(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)?.uniqueID == "virtual:back")
            #expect(CaptureDevice.default(.builtInDualCamera, for: .video, position: .back) == nil, "no such hardware on Linux")
            #expect(CaptureDevice.default(.builtInTrueDepthCamera, for: .video, position: .front) == nil)
            let microphones = CaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
            #expect(microphones.contains { $0.uniqueID.hasPrefix("virtual") } && microphones.allSatisfy { $0.hasMediaType(.audio) })
            #expect(CaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .video, position: .unspecified).devices.isEmpty)
            #expect(CaptureDevice.systemPreferredCamera == CaptureDevice.default(for: .video))
            CaptureDevice.userPreferredCamera = front.first
            defer { CaptureDevice.userPreferredCamera = nil }
            #expect(CaptureDevice.systemPreferredCamera?.uniqueID == "virtual:front")
            #expect(CaptureDevice.Position(rawValue: 2) == .front && "\(CaptureDevice.Position.back)" == "back")
        }
    }
}
