import ArgumentParser
import CaptureKit
import Foundation

/// `capture devices`: the cameras, then the microphones, with their formats.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List cameras and microphones and their formats.")

    @Flag(help: "Print JSON (one object with a 'devices' array).")
    var json = false

    @Option(parsing: .unconditional, help: "After listing, print devices connected and disconnected for this many seconds.",
            transform: Seconds.positive)
    var watch: Double?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        let devices = CaptureDevice.devices(for: .video) + CaptureDevice.devices(for: .audio)
        if json {
            let report = DeviceReport(devices: devices.enumerated().map { DeviceReport.Entry($0.offset, $0.element) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            printList(devices)
        }
        // The listing goes through stdout's buffer, hot-plug lines straight to the descriptor:
        // flush first, or a notification lands in the middle of the last listed line.
        fflush(nil)
        if let watch { watchHotPlug(seconds: watch) }
    }

    private func printList(_ devices: [CaptureDevice]) {
        for (index, device) in devices.enumerated() {
            let kind = (device.hasMediaType(.video) ? "position \(device.position)" : "audio") + ", via \(device.route)"
            print("\(index): \(device.localizedName) [\(device.uniqueID)] model \(device.modelID), \(kind)")
            for format in device.formats {
                print("     \(format)\(format == device.activeFormat ? "  (active)" : "")")
            }
        }
    }

    /// Prints hot-plug notifications as they arrive, one line each.
    private func watchHotPlug(seconds: Double) {
        let center = NotificationCenter.default
        let observers = [(CaptureDevice.wasConnectedNotification, "connected"), (CaptureDevice.wasDisconnectedNotification, "disconnected")]
            .map { name, word in
                center.addObserver(forName: name, object: nil, queue: nil) { note in
                    guard let device = note.object as? CaptureDevice else { return }
                    FileHandle.standardOutput.write(Data("\(word): \(device.localizedName) [\(device.uniqueID)]\n".utf8))
                }
            }
        Thread.sleep(forTimeInterval: seconds)
        observers.forEach(center.removeObserver)
    }
}

/// The JSON form of `capture devices`.
struct DeviceReport: Encodable {
    /// A video format (width, height, pixelFormat, frameRates) or an audio one (sampleRate,
    /// channelCount, sampleFormat); the other kind's keys are left out.
    struct Format: Encodable {
        var width: Int?
        var height: Int?
        var pixelFormat: String?
        var frameRates: [[Double]]?
        var sampleRate: Int?
        var channelCount: Int?
        var sampleFormat: String?

        init(_ format: CaptureDevice.Format) {
            if let audio = format.audioFormat {
                sampleRate = audio.sampleRate
                channelCount = audio.channelCount
                sampleFormat = audio.sampleFormat.rawValue
            } else {
                width = format.width
                height = format.height
                pixelFormat = format.pixelFormat.rawValue
                frameRates = format.videoSupportedFrameRateRanges.map { [$0.minFrameRate, $0.maxFrameRate] }
            }
        }
    }

    struct Entry: Encodable {
        var index: Int
        var uniqueID: String
        var modelID: String
        var name: String
        var position: String
        /// How CaptureKit reaches the device: "v4l2", "virtual", "x11", "pulse"…
        var route: String
        /// "video" for cameras, "audio" for microphones.
        var mediaTypes: [String]
        var connected: Bool
        var activeFormat: String
        var formats: [Format]

        init(_ index: Int, _ device: CaptureDevice) {
            self.index = index
            uniqueID = device.uniqueID
            modelID = device.modelID
            name = device.localizedName
            position = "\(device.position)"
            route = device.route
            mediaTypes = device.mediaTypes.map(\.rawValue).sorted()
            connected = device.isConnected
            activeFormat = device.activeFormat.description
            formats = device.formats.map(Format.init)
        }
    }

    var devices: [Entry]
}
