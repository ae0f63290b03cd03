extension PipelineFile.FormatSpec {
    /// What `format` values look like, for messages.
    static let syntaxDescription = "WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, e.g. 1280x720 or 1280x720@29.97"

    /// Parses `WIDTHxHEIGHT` or `WIDTHxHEIGHT@FPS`, where FPS may have a fractional part.
    ///
    /// Only the shape is checked; zero sizes and rates parse and are rejected by ``isInRange``.
    /// - Parameter text: The text to parse.
    /// - Returns: `nil` if the text does not have the shape.
    init?(parsing text: String) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let size = PipelineFile.FrameSize(parsing: String(parts[0])) else {
            return nil
        }
        var frameRate: Double?
        if parts.count == 2 {
            guard let rate = Self.parseRate(parts[1]) else { return nil }
            frameRate = rate
        }
        self.init(width: size.width, height: size.height, frameRate: frameRate)
    }

    /// Whether the width and height are at least 1 and the frame rate, if any, is finite and above 0.
    var isInRange: Bool {
        PipelineFile.FrameSize(width: width, height: height).isInRange
            && (frameRate.map { $0.isFinite && $0 > 0 } ?? true)
    }

    /// Parses `DIGITS` or `DIGITS.DIGITS`.
    private static func parseRate(_ text: Substring) -> Double? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            return nil
        }
        return Double(text)
    }
}
