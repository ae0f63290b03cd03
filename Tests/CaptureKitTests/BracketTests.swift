import Foundation
import Synchronization
import Testing
@_spi(Benchmark) @testable import CaptureKit

@Suite("Bracketed capture", .ownDevices, .serialized)
struct BracketTests {
    /// Takes a bracket and writes each JPEG to a file of its own, in order.
    static func jpegFiles(_ still: StillImageOutput, _ connection: CaptureConnection,
                          _ settings: [any BracketedStillImageSettings]) async throws -> [URL] {
        let directory = try temporaryDirectory()
        let files = AsyncStream<URL>.makeStream()
        let index = Atomic<Int>(0)
        try still.captureStillImageBracket(from: connection, withSettingsArray: settings) { sample, _, _ in
            let file = directory.appendingPathComponent("bracket-\(index.add(1, ordering: .relaxed).newValue).jpg")
            if let sample, let data = try? StillImageOutput.jpegStillImageData(from: sample) { try? data.write(to: file) }
            files.continuation.yield(file)
        }
        var written: [URL] = []
        for await file in files.stream {
            written.append(file)
            if written.count == settings.count { break }
        }
        return written
    }

    @Test("a -2/0/+2 EV bracket gets strictly brighter, in order, and leaves the device's exposure alone")
    func autoBracket() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let still = StillImageOutput()
        try still.setOutputSettings(.uncompressed(.bgra))
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [still])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(still.connection(with: .video))
        let settings = [-2, 0, 2].map { AutoExposureBracketedStillImageSettings(exposureTargetBias: Float($0)) }
        let results = AsyncStream<(Float, Int)>.makeStream()
        try still.captureStillImageBracket(from: connection, withSettingsArray: settings) { sample, setting, error in
            #expect(error == nil)
            let bias = (setting as? AutoExposureBracketedStillImageSettings)?.exposureTargetBias ?? .nan
            let level = (try? sample.map { try ExposureTests.patchLevel($0, index: 1) }) ?? -1
            results.continuation.yield((bias, level))
        }
        var seen: [(Float, Int)] = []
        for await result in results.stream {
            seen.append(result)
            if seen.count == 3 { break }
        }
        #expect(seen.map(\.0) == [-2, 0, 2])
        #expect(seen[0].1 < seen[1].1 && seen[1].1 < seen[2].1, "\(seen)")
        #expect(seen[1].1 == 51, "the 0 EV image is the metered exposure")
        // The device's own exposure is untouched, and frames return to it.
        #expect(device.exposureMode == .continuousAutoExposure)
        for _ in 0..<50 where device.withState({ $0.exposure.override }) != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(device.withState { $0.exposure.override } == nil)
        let after = try await still.captureStillImage(from: connection)
        #expect(try ExposureTests.patchLevel(after, index: 1) == 51)
    }

    @Test("manual bracket images carry their own exposure in EXIF")
    func manualBracketExif() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let still = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [still])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(still.connection(with: .video))
        let settings = [ManualExposureBracketedStillImageSettings(exposureDuration: CaptureTime(value: 1, timescale: 250), iso: 400),
                        ManualExposureBracketedStillImageSettings(exposureDuration: CaptureTime(value: 1, timescale: 60), iso: 100)]
        let written = try await Self.jpegFiles(still, connection, settings)
        let first = try exifTags(written[0], ["ExposureTime", "ISO"]), second = try exifTags(written[1], ["ExposureTime", "ISO"])
        #expect(first["ExposureTime"] == "0.004" && first["ISO"] == "400", "\(first)")
        #expect(second["ISO"] == "100" && second["ExposureTime"]?.hasPrefix("0.0166") == true, "\(second)")
    }

    @Test("mixed kinds, too many images and out-of-range values are errors")
    func bracketMisuse() async throws {
        let still = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [still])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(still.connection(with: .video))
        let mixed: [any BracketedStillImageSettings] = [AutoExposureBracketedStillImageSettings(exposureTargetBias: 0),
                                                         ManualExposureBracketedStillImageSettings(exposureDuration: CaptureDevice.currentExposureDuration, iso: 100)]
        #expect(throws: CaptureError.invalidSetting(name: "bracket", value: "mixed settings",
                                                    valid: "all AutoExposure… or all ManualExposure…BracketedStillImageSettings")) {
            try still.captureStillImageBracket(from: connection, withSettingsArray: mixed) { _, _, _ in }
        }
        let tooMany = (0..<9).map { _ in AutoExposureBracketedStillImageSettings(exposureTargetBias: 0) }
        #expect(throws: CaptureError.invalidSetting(name: "bracket size", value: "9", valid: "1...8")) {
            try still.captureStillImageBracket(from: connection, withSettingsArray: tooMany) { _, _, _ in }
        }
        let badISO = [ManualExposureBracketedStillImageSettings(exposureDuration: CaptureDevice.currentExposureDuration, iso: 10)]
        #expect(throws: CaptureError.outOfRange(name: "ISO", value: 10, range: 50...3200)) {
            try still.captureStillImageBracket(from: connection, withSettingsArray: badISO) { _, _, _ in }
        }
        let prepared = AsyncStream<Bool>.makeStream()
        still.prepareToCaptureStillImageBracket(from: connection, withSettingsArray: tooMany) { ready, _ in prepared.continuation.yield(ready) }
        var iterator = prepared.stream.makeAsyncIterator()
        #expect(await iterator.next() == false)
    }

    @Test("auto bracket images are offset from the metered exposure, not a fixed one, and the flash stays dark (seed 003)")
    func bracketFromMeteredExposureWithoutFlash() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let still = StillImageOutput()
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [still, frames])
        var iterator = frames.sampleBuffers(bufferingNewest: 1).makeAsyncIterator()
        try await test.session.checked.startRunning()
        defer {
            test.session.stopRunning()
            device.setVirtualSceneLight(ev: 0)
            device.restoreDefaultControls()
        }
        // A scene 2 EV darker: auto exposure settles at 4 × 1/120 s = 1/30 s.
        device.setVirtualSceneLight(ev: -2)
        for _ in 0..<5 { _ = await iterator.next() }
        for _ in 0..<150 where device.isAdjustingExposure { _ = await iterator.next() }
        #expect(abs(device.exposureDuration.seconds * 30 - 1) < 0.08 && device.iso == 100, "within AE's 0.1 EV: \(device.exposureDuration) ISO \(device.iso)")
        try device.lockForConfiguration()
        try device.setFlashMode(.on)
        device.unlockForConfiguration()
        let connection = try #require(still.connection(with: .video))
        let settings = [-2, 0].map { AutoExposureBracketedStillImageSettings(exposureTargetBias: Float($0)) }
        let written = try await Self.jpegFiles(still, connection, settings)
        let tags = try written.map { try exifTags($0, ["ExposureTime", "ISO", "Flash", "ExposureCompensation"]) }
        let times = tags.map { Double($0["ExposureTime"] ?? "") ?? 0 }
        #expect(abs(times[0] * 120 - 1) < 0.02, "-2 EV from the metered 1/30 s: 1/120 s: \(tags[0])")
        #expect(abs(times[1] * 30 - 1) < 0.02 && tags[1]["ISO"] == "100", "0 EV: the metered 1/30 s, not a fixed 1/120 s: \(tags[1])")
        #expect(tags.map { $0["ExposureCompensation"] } == ["-2", "0"])
        for tag in tags { #expect((Int(tag["Flash"] ?? "") ?? 1) & 1 == 0, "the flash did not fire: \(tag)") }
    }
}
