import Testing
@testable import CaptureKit
import GStreamerSwift

@Suite("CaptureError", .ownDevices)
struct CaptureErrorTests {
    static let allCodes: [CaptureError.Code] = [
        .unsupportedMediaType, .deviceNotFound, .mediaTypeNotSupported, .inputAlreadyAdded, .outputAlreadyAdded,
        .inputConflict, .notInSession, .noCompatibleInput, .unsupportedPreset, .unsupportedFormat,
        .inactiveConnection, .sessionNotRunning, .unbalancedConfiguration, .invalidSetting, .unsupportedOrientation,
        .pipelineFailed, .captureCancelled, .accessDenied, .wrongSampleFormat, .notLocked, .deviceLocked,
        .unsupported, .outOfRange, .deviceUnavailable, .branchFailed, .sessionFailed, .fileUnreadable, .fileUndecodable,
    ]

    @Test("every code is distinct and named after its member")
    func distinctCodes() {
        #expect(Set(Self.allCodes).count == Self.allCodes.count)
        #expect(Set(Self.allCodes.map(\.rawValue)).count == Self.allCodes.count)
        #expect(CaptureError.Code.deviceNotFound.rawValue == "deviceNotFound")
        #expect("\(CaptureError.Code.branchFailed)" == "branchFailed")
        #expect(CaptureError.Code(rawValue: "outOfRange") == .outOfRange)
    }

    @Test("the factories write the messages CaptureKit has always written, and set their codes")
    func messages() {
        let cases: [(CaptureError, CaptureError.Code, String)] = [
            (.deviceNotFound("no-such-camera", available: ["virtual:back", "virtual:front"]), .deviceNotFound,
             "no device 'no-such-camera'; available: virtual:back, virtual:front"),
            (.unsupportedMediaType(.text), .unsupportedMediaType, "media type 'text' is not captured; use .video or .audio"),
            (.invalidSetting(name: "JPEG quality", value: "1.5", valid: "0.0...1.0"), .invalidSetting,
             "'1.5' is not a valid JPEG quality; valid: 0.0...1.0"),
            (.outOfRange(name: "video zoom factor", value: 20, range: 1...16), .outOfRange,
             "video zoom factor 20.0 is out of range 1.0...16.0"),
            (.pipelineFailed(element: "input0_src", message: "device unplugged"), .pipelineFailed,
             "pipeline failed in 'input0_src': device unplugged"),
            (.pipelineFailed(element: nil, message: "no pipeline"), .pipelineFailed, "pipeline failed: no pipeline"),
            (.deviceLocked(device: "test-pattern:snow", holderPID: 42), .deviceLocked,
             "'test-pattern:snow' is locked for configuration by process 42"),
            (.deviceLocked(device: "test-pattern:snow", holderPID: nil), .deviceLocked,
             "'test-pattern:snow' is locked for configuration by another process"),
            (.notLocked(device: "virtual:back"), .notLocked,
             "'virtual:back' is not locked for configuration; call lockForConfiguration() first"),
            (.captureCancelled, .captureCancelled, "the session stopped before the still was captured"),
            (.sessionNotRunning, .sessionNotRunning, "the session is not running; call startRunning() first"),
            (.unbalancedConfiguration, .unbalancedConfiguration, "commitConfiguration() without beginConfiguration()"),
        ]
        for (error, code, message) in cases {
            #expect(error.code == code)
            #expect(error.message == message)
            #expect(error.description == message)
        }
    }

    @Test("the offending value and the valid ones stay reachable")
    func values() {
        let preset = CaptureError.unsupportedPreset(.hd4K3840x2160, supported: [.vga640x480, .medium])
        #expect(preset.value == SessionPreset.hd4K3840x2160.rawValue)
        #expect(preset.validValues == [SessionPreset.vga640x480.rawValue, SessionPreset.medium.rawValue])
        let format = CaptureError.unsupportedFormat("123x45", available: ["640x480 bgra"])
        #expect(format.value == "123x45")
        #expect(format.validValues == ["640x480 bgra"])
        #expect(CaptureError.notLocked(device: "virtual:back").value == nil)
        #expect(CaptureError.notLocked(device: "virtual:back").validValues.isEmpty)
    }

    @Test("a switch over the code needs only the codes it handles and a default")
    func switchOverCode() throws {
        func advice(for error: CaptureError) -> String {
            switch error.code {
            case .notLocked: "lock first"
            case .outOfRange, .invalidSetting: "fix the value"
            case .deviceUnavailable, .branchFailed, .sessionFailed: "restart"
            default: "report"
            }
        }
        #expect(advice(for: .notLocked(device: "virtual:front")) == "lock first")
        #expect(advice(for: .outOfRange(name: "ISO", value: 10, range: 50...3200)) == "fix the value")
        #expect(advice(for: CaptureError(code: .branchFailed, message: "the still branch failed")) == "restart")
        #expect(advice(for: .captureCancelled) == "report")
        #expect(advice(for: CaptureError(code: CaptureError.Code(rawValue: "somethingNew"), message: "new")) == "report")

        let device = CaptureDevice.find(virtual: .front)
        do {
            try device.setVideoZoomFactor(2)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notLocked)
        }
    }

    @Test("a wrapped GStreamer failure is the underlying error, names its element, and is left out of ==")
    func underlyingError() throws {
        let failure = GStreamerError.noSuchPad(element: "still_sink", pad: "src")
        let error = CaptureError.pipelineFailed(failure)
        #expect(error.code == .pipelineFailed)
        #expect(error.element == "still_sink")
        #expect(error.message == "pipeline failed in 'still_sink': element 'still_sink' has no pad 'src'")
        #expect(error.underlyingError as? GStreamerError == failure)
        #expect(CaptureError.pipelineFailed(failure, element: "still_tee").element == "still_tee")
        #expect(CaptureError.pipelineFailed(.missingElement(factory: "jifmux")).element == nil)

        let carried = CaptureError.pipelineFailed(element: "jifmux", message: "notJPEG", underlyingError: JPEGExif.Failure.notJPEG)
        #expect(carried.element == "jifmux")
        #expect(carried.underlyingError as? JPEGExif.Failure == .notJPEG)
        #expect(carried == .pipelineFailed(element: "jifmux", message: "notJPEG"))
        #expect(carried == CaptureError(code: .pipelineFailed, message: "pipeline failed in 'jifmux': notJPEG", element: "jifmux",
                                        underlyingError: GStreamerError.mapFailed))
        #expect(carried != .pipelineFailed(element: nil, message: "notJPEG"))
        #expect(carried != CaptureError(code: .branchFailed, message: "pipeline failed in 'jifmux': notJPEG", element: "jifmux"))
    }
}
