import Foundation

extension SegmentArchive {
    /// Whole seconds only: the style's own fractions are truncated from a binary value
    /// (`.521` printed as `.520`), so milliseconds are written and read here.
    private static let seconds = Date.ISO8601FormatStyle()

    /// `date` the way the index, the `capture` command and the server write times: ISO 8601 in
    /// UTC with milliseconds, rounded (`2026-11-29T10:00:00.123Z`).
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let whole = (milliseconds / 1000).rounded(.down)
        let text = seconds.format(Date(timeIntervalSince1970: whole))
        let fraction = Int(milliseconds - whole * 1000)
        return text.dropLast() + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }

    /// An ISO 8601 time with or without fractional seconds, in UTC (`Z`) or at an offset
    /// (`+01:00`); nil for other text.
    public static func date(fromTimestamp text: String) -> Date? {
        guard let match = text.wholeMatch(of: /(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(Z|z|[+-]\d{2}:?\d{2})/),
              let whole = try? seconds.parse(String(match.1) + match.3) else { return nil }
        let fraction = match.2.flatMap { Double("0" + $0) } ?? 0
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + fraction)
    }
}
