import ArgumentParser

/// `--max-size 50M`: a number of bytes, with an optional K, M or G suffix (powers of 1000) or
/// Ki, Mi or Gi (powers of 1024), and an optional trailing B.
struct ByteCount: ExpressibleByArgument, Equatable {
    var bytes: Int64

    init?(argument: String) {
        var text = Substring(argument.trimmingCharacters(in: .whitespaces))
        if text.last == "B" || text.last == "b" { text = text.dropLast() }
        var multiplier: Int64 = 1
        let base: Int64 = text.hasSuffix("i") || text.hasSuffix("I") ? 1024 : 1000
        if base == 1024 { text = text.dropLast() }
        switch text.last?.uppercased() {
        case "K": multiplier = base
        case "M": multiplier = base * base
        case "G": multiplier = base * base * base
        default: guard base == 1000 else { return nil }
        }
        if multiplier > 1 { text = text.dropLast() }
        guard let value = Double(text), value.isFinite, value > 0, value * Double(multiplier) < Double(Int64.max) else { return nil }
        bytes = Int64((value * Double(multiplier)).rounded())
        guard bytes > 0 else { return nil }
    }

    static var defaultValueDescription: String { "bytes, e.g. 50M, 1.5G, 512Ki" }
}
