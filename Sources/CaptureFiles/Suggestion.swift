/// Finds the closest valid spelling for a misspelt key or value.
enum Suggestion {
    /// The candidate the user most likely meant, if any is close enough.
    ///
    /// A candidate is close when it differs only in case, when its edit distance (with
    /// transpositions, ignoring case) is at most 1 for short words and 2 for words of four or
    /// more characters, or when the written text is a case-insensitive prefix of exactly one
    /// candidate. The smallest distance wins; ties go to the earlier candidate. Text more than
    /// two characters longer than every candidate is too far from all of them and is not
    /// compared, nor is text or a candidate (an input's name) longer than ``longestCompared``:
    /// the comparison costs the product of the lengths, and a file's value can be megabytes long.
    /// - Parameters:
    ///   - written: What the file says.
    ///   - candidates: The valid spellings, in preference order.
    /// - Returns: The suggested spelling, or `nil`.
    static func closest(to written: String, among all: [String]) -> String? {
        let candidates = all.filter { $0.utf8.count <= 4 * longestCompared && $0.count <= longestCompared }
        let longest = candidates.map(\.count).max() ?? 0
        guard written.utf8.count <= 4 * (longest + 2), written.count <= longest + 2 else { return nil }
        let target = Array(written.lowercased())
        guard !target.isEmpty else { return nil }
        let limit = target.count >= 4 ? 2 : 1
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != written {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        if let best {
            return best.candidate
        }
        guard target.count >= 2 else { return nil }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(String(target)) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// The longest text compared, in characters.
    static let longestCompared = 256

    /// The optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of adjacent characters each cost 1.
    static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var table = Array(repeating: Array(repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
        for row in 0...lhs.count { table[row][0] = row }
        for column in 0...rhs.count { table[0][column] = column }
        for row in 1...lhs.count {
            for column in 1...rhs.count {
                let cost = lhs[row - 1] == rhs[column - 1] ? 0 : 1
                var value = min(
                    table[row - 1][column] + 1,
                    table[row][column - 1] + 1,
                    table[row - 1][column - 1] + cost
                )
                if row > 1, column > 1, lhs[row - 1] == rhs[column - 2], lhs[row - 2] == rhs[column - 1] {
                    value = min(value, table[row - 2][column - 2] + 1)
                }
                table[row][column] = value
            }
        }
        return table[lhs.count][rhs.count]
    }
}
