/// Every GStreamer failure, mapped from its C return code or message in one place.
public enum GStreamerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `gst_element_factory_make` failed: the plugin that provides `factory` is not installed.
    case missingElement(factory: String)
    /// The element has no property of that name.
    case noSuchProperty(element: String, property: String)
    /// The value cannot be converted to the property's type.
    case invalidPropertyValue(element: String, property: String, value: String, expectedType: String)
    /// Two elements cannot be linked (incompatible caps or pads).
    case linkFailed(from: String, to: String, caps: String?)
    /// A caps string could not be parsed.
    case invalidCaps(String)
    /// A state change failed; `message` is GStreamer's own error text when one was posted.
    case stateChangeFailed(element: String, state: String, message: String?)
    /// A pad that was expected is missing.
    case noSuchPad(element: String, pad: String)
    /// The element was not found in the pipeline.
    case noSuchElement(name: String)
    /// A buffer could not be mapped.
    case mapFailed
    /// A tag list string could not be parsed.
    case invalidTags(String)
    /// A `webrtcbin` offer/answer step failed (`message` says which and why).
    case webRTCFailed(element: String, message: String)
    /// A server could not listen at `address` (the port is in use, the host is not one of
    /// this machine's); `message` is GLib's own text.
    case listenFailed(address: String, message: String)

    public var description: String {
        switch self {
        case .missingElement(let factory):
            return "no GStreamer element '\(factory)': install the plugin package that provides it (gst-inspect-1.0 \(factory))"
        case .noSuchProperty(let element, let property):
            return "element '\(element)' has no property '\(property)'"
        case .invalidPropertyValue(let element, let property, let value, let type):
            return "'\(value)' is not a valid \(type) for \(element).\(property)"
        case .linkFailed(let from, let to, let caps):
            return "cannot link '\(from)' to '\(to)'" + (caps.map { " with caps \($0)" } ?? "")
        case .invalidCaps(let caps):
            return "invalid caps '\(caps)'"
        case .stateChangeFailed(let element, let state, let message):
            return "'\(element)' failed to change to \(state)" + (message.map { ": \($0)" } ?? "")
        case .noSuchPad(let element, let pad):
            return "element '\(element)' has no pad '\(pad)'"
        case .noSuchElement(let name):
            return "no element named '\(name)' in the pipeline"
        case .mapFailed:
            return "buffer could not be mapped"
        case .invalidTags(let tags):
            return "invalid tag list '\(tags)'"
        case .webRTCFailed(let element, let message):
            return "WebRTC on '\(element)': \(message)"
        case .listenFailed(let address, let message):
            return "cannot listen at \(address): \(message)"
        }
    }
}
