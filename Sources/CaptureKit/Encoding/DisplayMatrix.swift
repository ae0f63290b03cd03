/// The transformation matrix an MP4/MOV video track's header (`tkhd`) carries: how a player
/// turns (and mirrors) the stored pixels for display. qtmux 1.22 ignores the
/// `image-orientation` tag, so a recording writes the matrix into each `moov` it sends to the
/// file (the first fragment's and the final index) on its way to the sink. qtmux 1.26 honours
/// the tag (checked with ffprobe on Debian 13), but the rewrite gives the same matrix on both
/// releases, mirrored ones included, so it stays the one way.
struct DisplayMatrix: Sendable, Equatable {
    /// a, b, c, d of the matrix in 16.16 fixed point (u, v, w and the translation keep their
    /// identity values).
    var a: Int32, b: Int32, c: Int32, d: Int32

    static let identity = DisplayMatrix(a: 1 << 16, b: 0, c: 0, d: 1 << 16)

    /// The matrix for a picture shown turned `degrees` clockwise (0, 90, 180, 270), mirrored
    /// left to right first when `mirrored`.
    init(clockwiseDegrees degrees: Int, mirrored: Bool) {
        let one: Int32 = 1 << 16
        // Rows (a b; c d) act on row vectors: (x', y') = (x, y) · M. qtdemux reads (0 1; -1 0)
        // as "rotate-90".
        var m: (Int32, Int32, Int32, Int32) = switch ((degrees % 360) + 360) % 360 {
        case 90: (0, one, -one, 0)
        case 180: (-one, 0, 0, -one)
        case 270: (0, -one, one, 0)
        default: (one, 0, 0, one)
        }
        if mirrored { m = (-m.0, -m.1, m.2, m.3) }
        self.init(a: m.0, b: m.1, c: m.2, d: m.3)
    }

    private init(a: Int32, b: Int32, c: Int32, d: Int32) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    /// Writes the matrix into every video track header (`tkhd` with a non-zero width) of a
    /// buffer holding a whole `moov` box; returns how many it changed. Other buffers are left
    /// alone.
    @discardableResult
    func write(intoMovieHeader bytes: UnsafeMutableRawBufferPointer) -> Int {
        guard bytes.count > 8, Array(bytes[4..<8]) == Array("moov".utf8) else { return 0 }
        let tkhd = Array("tkhd".utf8)
        var changed = 0
        var index = 8
        while index + 4 <= bytes.count {
            defer { index += 1 }
            guard bytes[index] == tkhd[0], Array(bytes[index..<index + 4]) == tkhd else { continue }
            let body = index + 4
            guard body < bytes.count else { break }
            let version = bytes[body]
            // version+flags, then times and duration (4 or 8 bytes each), reserved, layer,
            // group, volume, reserved: the matrix follows, then width and height.
            let matrix = body + 4 + (version == 1 ? 8 + 8 + 4 + 4 + 8 : 4 + 4 + 4 + 4 + 4) + 8 + 2 + 2 + 2 + 2
            guard matrix + 36 + 8 <= bytes.count else { continue }
            let width = Self.readUInt32(bytes, at: matrix + 36)
            guard width != 0 else { continue }
            for (offset, value) in [(0, a), (4, b), (12, c), (16, d)] {
                Self.writeInt32(value, into: bytes, at: matrix + offset)
            }
            changed += 1
        }
        return changed
    }

    private static func readUInt32(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    private static func writeInt32(_ value: Int32, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        let raw = UInt32(bitPattern: value)
        for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: raw >> (24 - 8 * UInt32(byte))) }
    }
}
