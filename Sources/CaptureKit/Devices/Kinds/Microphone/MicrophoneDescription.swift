import Foundation
import GStreamerSwift

/// What GstDeviceMonitor tells about a microphone (class Audio/Source: PulseAudio, PipeWire or
/// ALSA), turned into CaptureKit's terms: identity, formats, and the source element to make.
struct MicrophoneDescription: Equatable {
    var uniqueID: String
    var modelID: String
    var name: String
    var manufacturer: String
    /// The element the GstDevice makes for itself ("pulsesrc", "alsasrc", "pipewiresrc").
    var factory: String
    /// The properties the GstDevice set on it, in `Element.set`'s text.
    var elementProperties: [String: String]
    var formats: [CaptureDevice.Format]
    /// Whether the sound server calls it the default source (PulseAudio's `is-default`).
    var isSystemDefault: Bool

    /// The sample rates offered where a device accepts a range of rates.
    static let rangeSampleRates = [16000, 44100, 48000]
    /// The channel counts offered where a device accepts a range of counts.
    static let rangeChannelCounts = [1, 2]

    /// The sound server or API a source element's factory names: "pulse" for pulsesrc.
    static func api(of factory: String) -> String {
        factory.hasSuffix("src") ? String(factory.dropLast(3)) : factory
    }

    /// Nil for devices that are not microphones CaptureKit can open.
    init?(_ found: MonitoredDevice) {
        self.init(displayName: found.displayName, deviceClass: found.deviceClass, properties: found.properties, caps: found.caps,
                  elementFactory: found.elementFactory, elementProperties: found.elementProperties)
    }

    /// From what a GstDevice says: display name, class, properties (PulseAudio's proplist,
    /// PipeWire's node properties), caps, and the element `gst_device_create_element` made.
    /// Nil for other classes than Audio/Source, for PulseAudio's monitors of outputs
    /// (device.class "monitor": what plays, not a microphone), for devices that make no element,
    /// and for devices without raw-audio caps.
    init?(displayName: String, deviceClass: String, properties: [String: CapsValue], caps: [CapsStructure],
          elementFactory: String?, elementProperties: [String: String]) {
        guard deviceClass.split(separator: "/").map(String.init) == ["Audio", "Source"], let elementFactory else { return nil }
        func text(_ key: String) -> String? {
            guard let value = properties[key] else { return nil }
            if case .string(let string) = value { return string.isEmpty ? nil : string }
            return value.description
        }
        guard text("device.class") != "monitor" else { return nil }
        let formats = Self.formats(from: caps)
        guard !formats.isEmpty else { return nil }
        self.formats = formats
        factory = elementFactory
        self.elementProperties = elementProperties
        let api = Self.api(of: elementFactory)
        let identity = text("node.name")
            ?? ["device", "target-object", "path"].lazy.compactMap { elementProperties[$0].map(Self.unquoted) }.first
            ?? displayName
        uniqueID = "\(api):\(identity)"
        if let vendor = text("device.vendor.id"), let product = text("device.product.id") {
            modelID = "\(vendor):\(product)"
        } else {
            modelID = text("device.product.name") ?? text("alsa.card_name") ?? text("api.alsa.card.name") ?? displayName
        }
        name = displayName
        manufacturer = text("device.vendor.name") ?? "Unknown"
        isSystemDefault = properties["is-default"] == .bool(true)
    }

    /// A property value as GStreamer serialized it, without the quotes and escapes a string
    /// gets when it holds characters such as ',' or '='.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if !escaped && character == "\\" { escaped = true; continue }
            escaped = false
            result.append(character)
        }
        return result
    }

    /// Formats from raw-audio caps: every combination of the sample formats, rates and channel
    /// counts a structure allows. A range of rates offers the common capture rates inside it
    /// (`rangeSampleRates`, else its top), a range of channels mono and stereo where inside it
    /// (else its bottom), and a field left out means any. Sample formats other than S16LE and
    /// F32LE are not offered; a device with none of them offers S16LE, which the source's
    /// audioconvert makes from what the device sends.
    static func formats(from caps: [CapsStructure]) -> [CaptureDevice.Format] {
        var found: [AudioFormat] = []
        for structure in caps where structure.features == nil && structure.name == "audio/x-raw" {
            let sampleFormats: [AudioSampleFormat]
            if let field = structure.fields["format"] {
                let named = strings(field).compactMap(AudioSampleFormat.init(gstFormat:))
                sampleFormats = named.isEmpty ? [.s16le] : named
            } else {
                sampleFormats = AudioSampleFormat.allCases
            }
            let rates = integers(structure.fields["rate"], preferred: rangeSampleRates, fallback: { $0.upperBound })
            let channels = integers(structure.fields["channels"], preferred: rangeChannelCounts, fallback: { $0.lowerBound })
            for rate in rates where rate > 0 {
                for count in channels where count > 0 {
                    for format in sampleFormats {
                        let audio = AudioFormat(sampleRate: rate, channelCount: count, sampleFormat: format)
                        if !found.contains(audio) { found.append(audio) }
                    }
                }
            }
        }
        let order = AudioSampleFormat.allCases
        return found.sorted {
            ($0.sampleRate, $0.channelCount, order.firstIndex(of: $0.sampleFormat)!)
                < ($1.sampleRate, $1.channelCount, order.firstIndex(of: $1.sampleFormat)!)
        }.map { CaptureDevice.Format(audioFormat: $0) }
    }

    private static func strings(_ value: CapsValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .list(let values): values.flatMap(strings)
        default: []
        }
    }

    /// The integers a field allows: its value, a list's values, or for a range the `preferred`
    /// ones inside it (else `fallback(range)`); `preferred` when the field is absent.
    private static func integers(_ value: CapsValue?, preferred: [Int], fallback: (ClosedRange<Int>) -> Int) -> [Int] {
        switch value {
        case nil: return preferred
        case .int(let number)?: return [number]
        case .intRange(let low, let high)? where low <= high:
            let inside = preferred.filter { (low...high).contains($0) }
            return inside.isEmpty ? [fallback(low...high)] : inside
        case .list(let values)?: return values.flatMap { integers($0, preferred: preferred, fallback: fallback) }
        default: return []
        }
    }

    /// The format a microphone starts with: 48 kHz where offered (else the closest rate), then
    /// stereo, then mono, then S16LE.
    static func preferredFormat(among formats: [CaptureDevice.Format]) -> CaptureDevice.Format? {
        let order = AudioSampleFormat.allCases
        func channelRank(_ count: Int) -> Int { count == 2 ? 0 : count == 1 ? 1 : 1 + count }
        return formats.filter { $0.audioFormat != nil }.min { a, b in
            let x = a.audioFormat!, y = b.audioFormat!
            return (abs(x.sampleRate - 48000), channelRank(x.channelCount), order.firstIndex(of: x.sampleFormat)!)
                < (abs(y.sampleRate - 48000), channelRank(y.channelCount), order.firstIndex(of: y.sampleFormat)!)
        }
    }

    func makeDevice() -> CaptureDevice {
        CaptureDevice(uniqueID: uniqueID, modelID: modelID, localizedName: name, manufacturer: manufacturer,
                      position: .unspecified, formats: formats, activeFormat: Self.preferredFormat(among: formats)!,
                      backend: MicrophoneBackend(factory: factory, properties: elementProperties))
    }
}
