import ArgumentParser
import CaptureKit
import Foundation

/// `capture controls`: every control of a device with mode, value and range; `--set` changes
/// them on a running session and shows the result.
struct Controls: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a device's controls; --set changes them on a running session.")

    @Option(name: .shortAndLong, help: "A uniqueID, an index from 'capture devices', or 'virtual' / 'virtual-front'.")
    var device = "default"

    @Option(name: .customLong("set"), help: "NAME=VALUE, repeatable: iso, shutter, lens, focus, zoom, torch, wb (as in 'capture snap'), or a V4L2 control by its v4l2-ctl name, e.g. brightness=200.")
    var settings: [ControlSetting] = []

    @Flag(help: "Print JSON (one object with a 'controls' array).")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        global.bootstrapLogging()
        let camera = try CaptureDevice.find(device)
        if !settings.isEmpty {
            var options = try ControlOptions.parse([])
            for setting in settings where setting.rawValue == nil { try setting.apply(to: &options) }
            let session = CaptureSession()
            try session.setSessionPreset(.inputPriority)
            try session.addInput(CaptureDeviceInput(device: camera))
            let output = VideoDataOutput()
            try session.addOutput(output)
            var frames = output.sampleBuffers().makeAsyncIterator()
            try await session.startRunning()
            _ = await frames.next()
            do {
                try options.apply(to: camera)
                try camera.lockForConfiguration()
                defer { camera.unlockForConfiguration() }
                for setting in settings { if let value = setting.rawValue { try camera.setV4L2Control(setting.name, to: value) } }
            } catch {
                await session.stopRunning()
                throw error
            }
            // Let the sensor apply the change and auto modes settle on a frame.
            for _ in 0..<2 { _ = await frames.next() }
            await session.stopRunning()
        }
        let controls = try camera.controls()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(["controls": controls]), as: UTF8.self))
            return
        }
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

/// `--set NAME=VALUE`.
struct ControlSetting: ExpressibleByArgument {
    var name: String
    var value: String

    static let names = ["iso", "shutter", "lens", "focus", "zoom", "torch", "wb"]

    /// The value of a V4L2 control (a name that is not one of `names`).
    var rawValue: Int64? { Self.names.contains(name) ? nil : Int64(value) }

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        name = parts[0]
        value = parts[1]
        guard Self.names.contains(name) || (name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && Int64(value) != nil) else {
            return nil
        }
    }

    static var allValueStrings: [String] { names.map { "\($0)=VALUE" } }

    /// Parses the value as the matching `capture snap` option would.
    func apply(to options: inout ControlOptions) throws {
        func parse<T: ExpressibleByArgument>(_ type: T.Type) throws -> T {
            guard let parsed = T(argument: value) else {
                throw ValidationError("--set \(name)=\(value): '\(value)' is not a valid \(name)")
            }
            return parsed
        }
        switch name {
        case "iso": options.iso = try parse(Float.self)
        case "shutter": options.shutter = try parse(ShutterSpeed.self)
        case "lens": options.lens = try parse(Float.self)
        case "focus": options.focus = try parse(FocusOption.self)
        case "zoom": options.zoom = try parse(Double.self)
        case "torch": options.torch = try parse(Float.self)
        default: options.wb = try parse(WhiteBalanceOption.self)
        }
    }
}
