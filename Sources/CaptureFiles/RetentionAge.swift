/// How long segments are kept, as people write it: a number with a unit, `s`, `m`, `h`, `d` or
/// `w` (`90m`, `36h`, `7d`), from a second to 100 years.
///
/// `capture record --keep` and pipeline files' `keep` read ages this way.
public enum RetentionAge {
    static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// What ages look like, for messages.
    public static let expected = "a number with a unit, s, m, h, d or w (e.g. 90m, 36h, 7d), from 1s to 100 years"

    /// The seconds `text` stands for; nil unless it is an age of the expected form and range.
    public static func seconds(_ text: String) -> Double? {
        guard let unit = text.last, let scale = units[unit], text.dropLast().wholeMatch(of: /[0-9]+(\.[0-9]+)?/) != nil,
              let value = Double(text.dropLast()) else { return nil }
        let seconds = value * scale
        return seconds >= 1 && seconds <= 100 * 365 * 86_400 ? seconds : nil
    }
}
