import ArgumentParser
import CaptureKit
import Foundation

/// `capture controls`: every control of a device with mode, value and range; `--set` changes
/// them on a running session and shows the result.
struct Controls: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "controls", abstract: "List a device's controls; --set changes them on a running session.")

    @Option(name: .shortAndLong, help: .device)
    var device = "default"

    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue,
            help: "NAME=VALUE, repeatable, applied in order: a name from --json (iso=400, exposureDuration=1/60, focusMode=locked, deviceWhiteBalanceGains=1.5,1,2, …), a 'capture snap' option (shutter, lens, focus, zoom, torch, wb, ev, flash), or a V4L2 control by its v4l2-ctl name, e.g. brightness=200.")
    var settings: [ControlSetting] = []

    @Flag(help: "Print JSON keyed by AVFoundation's property names (schema: ControlReport, serializationVersion 1).")
    var json = false

    func validate() throws {
        for setting in settings { _ = try setting.change() }
    }

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        global.bootstrapLogging()
        let camera = try CaptureDevice.find(device)
        if !settings.isEmpty {
            let changes = try settings.map { try $0.change() }
            let session = CaptureSession()
            try session.setSessionPreset(.inputPriority)
            try session.checked.addInput(CaptureDeviceInput(device: camera))
            let output = VideoDataOutput()
            try session.checked.addOutput(output)
            var frames = output.sampleBuffers().makeAsyncIterator()
            try await session.checked.startRunning()
            _ = await frames.next()
            do {
                try camera.lockForConfiguration()
                defer { camera.unlockForConfiguration() }
                for change in changes { try change.apply(to: camera) }
            } catch {
                await session.checked.stopRunning()
                throw error
            }
            // Let the sensor apply the change and auto modes settle on a frame.
            for _ in 0..<2 { _ = await frames.next() }
            await session.checked.stopRunning()
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(try camera.controlReport()), as: UTF8.self))
            return
        }
        let controls = try camera.controls()
        print("\(camera.localizedName) [\(camera.uniqueID)]")
        let width = controls.map(\.name.count).max() ?? 0
        for control in controls {
            var line = control.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + control.value
            if let mode = control.mode { line += "  mode \(mode)" }
            if let range = control.range { line += "  range \(range)" }
            line += "  [\(control.provider)]"
            print(line)
        }
    }
}
