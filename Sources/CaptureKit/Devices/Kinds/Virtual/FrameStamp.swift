import Dispatch
import Foundation
import Synchronization

/// A frame number painted into the virtual camera's pictures, so that a client at the far end of
/// a stream knows which frame it decoded, and when that frame was painted: latency from capture
/// to a client's decoded frame (`capture-bench stream-latency`).
///
/// When on, every frame gets its number's low 16 bits as 16 blocks of 16x16 pixels along the top
/// left edge (white 1, black 0, least significant first): they survive H.264 at any sensible
/// bit rate. Off by default: the scene is then as the tests know it.
///
/// A process started with `CAPTUREKIT_FRAME_STAMP=clock` in its environment stamps every
/// frame instead with the wall clock's milliseconds since 1970, low 24 bits, in 24 such blocks:
/// a client on the same machine (a browser showing `capture serve`'s page, say) reads the time
/// back and subtracts it from its own clock, with no way back to this process needed
/// (scripts/page-latency.py).
@_spi(Benchmark)
public enum FrameStamp {
    static let bits = 16, block = 16
    /// The wall-clock stamp's width in blocks.
    static let clockBits = 24
    /// Whether the environment asks for wall-clock stamps (read once).
    static let stampsWallClock = ProcessInfo.processInfo.environment["CAPTUREKIT_FRAME_STAMP"] == "clock"
    private static let enabled = Atomic<Bool>(false)
    /// Uptime nanoseconds each frame number was painted at, by number modulo the ring's size.
    private static let painted = Mutex([UInt64](repeating: 0, count: 1024))

    /// Whether the virtual camera stamps its frames.
    public static var isEnabled: Bool {
        get { stampsWallClock || enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    /// Paints `frame`'s number into a BGRA picture `width` pixels wide and notes the time.
    static func paint(frame: Int, into bytes: UnsafeMutableRawBufferPointer, width: Int) {
        if stampsWallClock {
            paint(number: Int(Date().timeIntervalSince1970 * 1000), bits: clockBits, into: bytes, width: width)
            return
        }
        paint(number: frame, bits: bits, into: bytes, width: width)
    }

    private static func paint(number frame: Int, bits: Int, into bytes: UnsafeMutableRawBufferPointer, width: Int) {
        guard width >= bits * block, bytes.count >= width * block * 4 else { return }
        let pixels = bytes.bindMemory(to: UInt32.self)
        for bit in 0..<bits {
            let word: UInt32 = (frame >> bit) & 1 == 1 ? 0xFFFF_FFFF : 0xFF00_0000
            for y in 0..<block {
                let start = y * width + bit * block
                for x in start..<start + block { pixels[x] = word }
            }
        }
        let now = DispatchTime.now().uptimeNanoseconds
        painted.withLock { $0[frame & 1023] = now }
    }

    /// The frame number stamped into a decoded picture's luma plane (`bytesPerRow` apart), read
    /// at each block's centre.
    public static func read(luma: UnsafeRawBufferPointer, bytesPerRow: Int) -> Int {
        var number = 0
        for bit in 0..<bits where luma[(block / 2) * bytesPerRow + bit * block + block / 2] > 128 {
            number |= 1 << bit
        }
        return number
    }

    /// When the frame whose number ends in `stamp` (16 bits) was painted, in uptime
    /// nanoseconds; nil when that is no longer known.
    public static func paintedAt(stamp: Int) -> UInt64? {
        let time = painted.withLock { $0[stamp & 1023] }
        return time == 0 ? nil : time
    }
}
