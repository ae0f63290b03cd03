import Glibc

/// A numbered image sequence's path: one `%d` or `%0Nd` (N at most 9) standing for the number,
/// and no other `%`. Checked before GStreamer's `multifilesrc` formats it as a printf pattern.
struct ImageSequencePattern: Equatable {
    var prefix: Substring
    var width: Int
    var suffix: Substring

    /// Nil for a path without `%`.
    /// - Throws: `fileUnreadable` for any other use of `%`.
    init?(_ path: String) throws(CaptureError) {
        guard let percent = path.firstIndex(of: "%") else { return nil }
        var rest = path[path.index(after: percent)...]
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(digits.count)
        let padded = digits.first == "0" || digits.isEmpty
        guard padded, digits.count <= 2, rest.first == "d", !rest.dropFirst().contains("%"), let width = Int(digits.isEmpty ? "0" : digits), width <= 9 else {
            throw .fileUnreadable(path, reason: "an image sequence's path has one %d or %0Nd (N up to 9) for the number, and no other %")
        }
        prefix = path[..<percent]
        self.width = width
        suffix = rest.dropFirst()
    }

    /// The path of image `index`.
    func path(for index: Int) -> String {
        let number = String(index)
        return prefix + String(repeating: "0", count: max(0, width - number.count)) + number + suffix
    }

    /// The first index that exists, 0 or 1.
    func firstIndex() -> Int? {
        [0, 1].first { index in
            var status = stat()
            return stat(path(for: index), &status) == 0
        }
    }
}
