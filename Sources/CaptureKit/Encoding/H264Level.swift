/// An H.264 level: its `level_idc` (the last byte of an SDP `profile-level-id`) and its name as
/// h264parse writes it in caps ("3.1", "4", "1b").
struct H264Level: Equatable, Sendable {
    /// `level_idc`: ten times the level (9 for 1b).
    let idc: UInt8

    init(idc: UInt8) { self.idc = idc }

    /// Nil for a name that is not a level.
    init?(name: String) {
        if name == "1b" { idc = 9; return }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let major = UInt8(parts[0]), (1...6).contains(major) else { return nil }
        let minor = parts.count == 2 ? UInt8(parts[1]) : 0
        guard let minor, minor <= 3 else { return nil }
        idc = major * 10 + minor
    }

    /// "3.1", "4", "1b".
    var name: String { idc == 9 ? "1b" : idc % 10 == 0 ? "\(idc / 10)" : "\(idc / 10).\(idc % 10)" }
}
