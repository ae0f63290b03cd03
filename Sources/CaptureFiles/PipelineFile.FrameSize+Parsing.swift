extension PipelineFile.FrameSize {
    /// What `size` values look like, for messages.
    static let syntaxDescription = "WIDTHxHEIGHT, e.g. 320x240"

    /// Parses `WIDTHxHEIGHT` (decimal digits around a lowercase `x`).
    ///
    /// Only the shape is checked; zero sizes parse and are rejected by ``isInRange``.
    /// - Parameter text: The text to parse.
    /// - Returns: `nil` if the text does not have the shape or a number is too large.
    init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let width = Int(parts[0]),
              let height = Int(parts[1])
        else {
            return nil
        }
        self.init(width: width, height: height)
    }

    /// Whether the width and height are both at least 1.
    var isInRange: Bool {
        width >= 1 && height >= 1
    }
}
