import CaptureKit

extension PipelineFile.AudioFormatSpec {
    /// What audio `format` values look like, for messages.
    static let syntaxDescription = "a sample rate (48000Hz or 48kHz), mono|stereo|Nch and s16le|f32le, "
        + "in any order, e.g. '48000Hz stereo s16le'"

    /// Parses up to three space-separated words: `RATEHz` or `RATEkHz` (a fractional kHz rate
    /// must come to a whole number of hertz, as 44.1kHz does), `mono`, `stereo` or `Nch`, and a
    /// sample format. Units and words are case-insensitive; each part may appear once.
    ///
    /// Only the shape is checked; zero rates and channel counts parse and are rejected by
    /// ``isInRange``.
    /// - Parameter text: The text to parse.
    /// - Returns: `nil` if the text does not have the shape.
    init?(parsing text: String) {
        let words = text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        guard !words.isEmpty, words.count <= 3 else { return nil }
        self.init()
        for word in words {
            if let rate = Self.parseRate(word) {
                guard sampleRate == nil else { return nil }
                sampleRate = rate
            } else if let channels = Self.parseChannels(word) {
                guard channelCount == nil else { return nil }
                channelCount = channels
            } else if let format = AudioSampleFormat(rawValue: word) {
                guard sampleFormat == nil else { return nil }
                sampleFormat = format
            } else {
                return nil
            }
        }
    }

    /// Whether the rate and channel count, where given, are at least 1.
    var isInRange: Bool {
        (sampleRate.map { $0 >= 1 } ?? true) && (channelCount.map { $0 >= 1 } ?? true)
    }

    /// `DIGITShz`, or `DIGITSkhz` / `DIGITS.DIGITSkhz` that is a whole number of hertz.
    private static func parseRate(_ word: String) -> Int? {
        if word.hasSuffix("khz") {
            let number = word.dropLast(3)
            let pieces = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }), pieces[0].count <= 6,
                  pieces.count == 1 || pieces[1].count <= 3 else { return nil }
            let whole = Int(pieces[0])! * 1000
            guard pieces.count == 2 else { return whole }
            let fraction = pieces[1] + String(repeating: "0", count: 3 - pieces[1].count)
            return whole + Int(fraction)!
        }
        guard word.hasSuffix("hz") else { return nil }
        let digits = word.dropLast(2)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// `mono`, `stereo`, or `DIGITSch`.
    private static func parseChannels(_ word: String) -> Int? {
        switch word {
        case "mono": return 1
        case "stereo": return 2
        default:
            guard word.hasSuffix("ch") else { return nil }
            let digits = word.dropLast(2)
            guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            return Int(digits)
        }
    }
}
