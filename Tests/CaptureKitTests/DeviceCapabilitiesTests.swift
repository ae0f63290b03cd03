import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// Every kind states what it can do in one table, and `CaptureDevice`'s capability properties
/// answer from that table alone.
@Suite("Device capabilities", .ownDevices)
struct DeviceCapabilitiesTests {
    @Test("the virtual cameras: the sensor does every control; the loops are software; only the back camera has a torch and flash")
    func virtual() {
        let back = CaptureDevice.find(virtual: .back).capabilities, front = CaptureDevice.find(virtual: .front).capabilities
        #expect(back[.exposureCustom] == .device && back[.exposureContinuous] == .software(.exposureLoop))
        #expect(back[.whiteBalanceContinuous] == .software(.grayWorld) && back[.focusContinuous] == .software(.contrastDetectAutoFocus))
        #expect(back.byDevice(.torch) && back.byDevice(.flash) && !front[.torch].isSupported && !front[.flash].isSupported)
        #expect(CaptureDevice.find(virtual: .back).hasTorch && !CaptureDevice.find(virtual: .front).hasTorch && CaptureDevice.find(virtual: .back).lensAperture == VirtualCamera.aperture)
        for mode in [CaptureDevice.ExposureMode.locked, .autoExpose, .continuousAutoExposure, .custom] {
            #expect(CaptureDevice.find(virtual: .front).isExposureModeSupported(mode))
        }
    }

    @Test("a microphone, and a screen, offer no camera control at all")
    func none() throws {
        #expect(CaptureDevice.virtualMicrophone.capabilities == .none)
        #expect(!CaptureDevice.virtualMicrophone.isExposureModeSupported(.continuousAutoExposure))
        let screen = ScreenDescription(display: ":0", width: 640, height: 480, pixelFormat: .bgrx).makeDevice()
        #expect(screen.capabilities == .none && !screen.isFocusModeSupported(.locked) && !screen.hasTorch && screen.maxWhiteBalanceGain == 1)
    }

    @Test("a V4L2 camera's table is what its controls give (C920: autofocus, optical zoom, no torch; C270: digital zoom, no focus); unread controls leave continuous auto exposure only")
    func v4l2() throws {
        let c920 = V4L2Backend(path: "/dev/null", mapping: V4L2ControlMapping(try V4L2ControlTests.table("logitech-c920"))).capabilities
        #expect(c920[.focusContinuous] == .device && c920[.zoom] == .device && c920[.exposureCustom] == .device)
        #expect(c920[.whiteBalanceContinuous] == .device && c920[.torch] == .unsupported && c920.lensAperture == 0)
        let c270 = V4L2Backend(path: "/dev/null", mapping: V4L2ControlMapping(try V4L2ControlTests.table("logitech-c270"))).capabilities
        #expect(c270[.zoom] == .software(.digitalZoom) && !c270[.focusContinuous].isSupported && !c270[.lensPosition].isSupported)
        let unread = V4L2Backend(path: "/dev/null").capabilities
        #expect(unread.provisions == [.exposureContinuous: .device])
    }

    @Test("the benchmarks' test pattern zooms in the pipeline only where its format zooms")
    func testPattern() {
        #expect(CaptureDevice.testPattern(width: 64, height: 48, isLive: false, videoMaxZoomFactor: 4).zoomsInPipeline)
        #expect(!CaptureDevice.testPattern(width: 64, height: 48, isLive: false).zoomsInPipeline)
    }
}
