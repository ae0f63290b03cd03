import ArgumentParser

/// `--keep 7d`: how long segments are kept, a number with a unit: s, m, h, d or w (seconds,
/// minutes, hours, days, weeks), from a second to 100 years.
enum KeepAge {
    static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// Seconds for `text`, or a usage error naming it and the valid forms.
    static func parse(_ text: String) throws(ValidationError) -> Double {
        let forms = "a number with a unit, s, m, h, d or w (e.g. 90m, 36h, 7d)"
        guard let unit = text.last, let scale = units[unit],
              text.dropLast().wholeMatch(of: /[0-9]+(\.[0-9]+)?/) != nil, let value = Double(text.dropLast()) else {
            throw ValidationError("--keep '\(text)' is not an age: write \(forms)")
        }
        let seconds = value * scale
        guard seconds >= 1, seconds <= 100 * 365 * 86_400 else {
            throw ValidationError("--keep \(text) is out of range: from 1s to 100 years, \(forms)")
        }
        return seconds
    }
}
