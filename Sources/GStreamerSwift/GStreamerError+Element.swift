extension GStreamerError {
    /// The name of the element the failure concerns, when it names one: the element with the
    /// missing property, pad or state change, the upstream element of a failed link, or the element
    /// that was not found in the pipeline. `nil` for a missing plugin, caps, tags, a buffer map or an
    /// address a server cannot listen at.
    public var elementName: String? {
        switch self {
        case .noSuchProperty(let element, _), .invalidPropertyValue(let element, _, _, _),
             .stateChangeFailed(let element, _, _), .noSuchPad(let element, _), .webRTCFailed(let element, _):
            return element
        case .linkFailed(let from, _, _):
            return from
        case .noSuchElement(let name):
            return name
        case .listenFailed:
            return nil
        case .missingElement, .invalidCaps, .mapFailed, .invalidTags:
            return nil
        }
    }
}
