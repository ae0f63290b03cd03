import CaptureKit
import Foundation
import Synchronization
import Testing

/// A multi-camera session configured the way Apple's AVMultiCamPiP sample configures one, run
/// on both virtual cameras and the virtual microphone.
extension SharedDevices {
    @Suite("Two cameras at once")
    struct MultiCamTests {
        struct Seen {
            var backDevices: Set<String> = [], frontDevices: Set<String> = []
            var backSizes: [(Int, Int)] = [], frontSizes: [(Int, Int)] = []
            var backAudio = 0, frontAudio = 0
        }

        @Test("each camera feeds its own video data output and preview, and the microphone both audio outputs")
        func pictureInPicture() throws {
            let pip = MultiCamPiP()
            pip.backCameraVideoPreviewLayer.sink = .frames()
            pip.frontCameraVideoPreviewLayer.sink = .frames()
            #expect(pip.configureSession() == .success)
            let session = pip.session
            #expect(session.inputs.count == 3 && session.outputs.count == 4, "the previews are not outputs")
            #expect(session.connections.count == 6)
            #expect(session.hardwareCost > 0 && session.hardwareCost <= 1, "two virtual cameras take \(session.hardwareCost) of the processors")
            #expect(session.systemPressureCost == session.hardwareCost, "both cameras are drawn on the processors")
            for connection in session.connections {
                let port = try #require(connection.inputPorts.first)
                #expect(port.input?.ports.contains { $0 === port } == true)
            }
            #expect(pip.backCameraVideoPreviewLayer.connection?.videoPreviewLayer === pip.backCameraVideoPreviewLayer)
            #expect(pip.frontCameraVideoPreviewLayer.connection?.inputPorts.first?.sourceDevicePosition == .front)

            let seen = Mutex(Seen())
            pip.onVideo = { isBack, device, width, height in
                seen.withLock {
                    if isBack { $0.backDevices.insert(device); $0.backSizes.append((width, height)) } else {
                        $0.frontDevices.insert(device); $0.frontSizes.append((width, height))
                    }
                }
            }
            pip.onAudio = { isBack in seen.withLock { if isBack { $0.backAudio += 1 } else { $0.frontAudio += 1 } } }
            pip.start()
            defer { pip.stop() }
            let deadline = Date().addingTimeInterval(15)
            func enough() -> Bool {
                seen.withLock { $0.backSizes.count >= 10 && $0.frontSizes.count >= 10 && $0.backAudio >= 3 && $0.frontAudio >= 3 }
                    && pip.backCameraVideoPreviewLayer.framesShown >= 3 && pip.frontCameraVideoPreviewLayer.framesShown >= 3
            }
            while !enough() && Date() < deadline { usleep(20_000) }
            let result = seen.withLock { $0 }
            #expect(result.backDevices == ["virtual:back"] && result.frontDevices == ["virtual:front"],
                    "each output hears only its own camera: back \(result.backDevices), front \(result.frontDevices)")
            #expect(result.backSizes.count >= 10 && result.frontSizes.count >= 10)
            #expect(result.backSizes.allSatisfy { $0.1 > $0.0 } && result.frontSizes.allSatisfy { $0.1 > $0.0 }, "both connections ask for portrait")
            #expect(result.backAudio >= 3 && result.frontAudio >= 3)
            #expect(pip.backCameraVideoPreviewLayer.framesShown >= 3 && pip.frontCameraVideoPreviewLayer.framesShown >= 3)
        }

        @Test("a camera's ports are found by media type, device type and position; a microphone's serve every position")
        func ports() throws {
            let back = try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try CaptureDeviceInput(device: back)
            #expect(input.ports(for: .video, sourceDeviceType: back.deviceType, sourceDevicePosition: .back).count == 1)
            #expect(input.ports(for: .video, sourceDeviceType: back.deviceType, sourceDevicePosition: .front).isEmpty)
            #expect(input.ports(for: .video, sourceDeviceType: .external, sourceDevicePosition: .back).isEmpty)
            #expect(input.ports(for: .audio, sourceDeviceType: nil, sourceDevicePosition: .unspecified).isEmpty)
            let microphone = try #require(CaptureDevice.default(for: .audio))
            let audio = try CaptureDeviceInput(device: microphone)
            #expect(audio.ports(for: .audio, sourceDeviceType: microphone.deviceType, sourceDevicePosition: .front).count == 1)
            #expect(audio.ports(for: .audio, sourceDeviceType: microphone.deviceType, sourceDevicePosition: .back).count == 1)
            #expect(CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified)
                .supportedMultiCamDeviceSets.contains([back, try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))]))
            let dimensions = CMVideoFormatDescriptionGetDimensions(back.activeFormat.formatDescription)
            #expect(Int(dimensions.width) == back.activeFormat.width && Int(dimensions.height) == back.activeFormat.height)
        }

        @Test("hardwareCost grows with the cameras' pixel rates")
        func cost() throws {
            let back = try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let front = try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            let session = MultiCamSession()
            session.sessionPreset = .inputPriority
            #expect(session.hardwareCost == 0)
            let (backFormat, frontFormat) = (back.activeFormat, front.activeFormat)
            defer {
                for (device, format) in [(back, backFormat), (front, frontFormat)] {
                    try? device.lockForConfiguration()
                    device.activeFormat = format
                    device.unlockForConfiguration()
                }
            }
            for device in [back, front] {
                try device.lockForConfiguration()
                device.activeFormat = try #require(device.formats.first { $0.width == 640 })
                device.unlockForConfiguration()
            }
            session.addInput(try CaptureDeviceInput(device: back))
            let one = session.hardwareCost
            session.addInput(try CaptureDeviceInput(device: front))
            let two = session.hardwareCost
            #expect(one > 0 && abs(two - 2 * one) < one * 0.01, "two equal cameras on the processors cost twice one: \(one), \(two)")
            try back.lockForConfiguration()
            back.activeFormat = try #require(back.formats.first { $0.width == 1280 })
            back.unlockForConfiguration()
            #expect(session.hardwareCost > two * 1.9, "1280x720 has three times 640x480's pixels: \(session.hardwareCost) against \(two)")
        }
    }
}
