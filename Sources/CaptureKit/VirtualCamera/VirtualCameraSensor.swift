import GStreamerSwift
import Synchronization

/// Paints the virtual camera's frames on the source's streaming thread.
///
/// Threading: `paint` runs on the `videotestsrc` streaming thread, once per frame, before the
/// frame reaches any output; it copies the pre-rendered scene into the buffer in place and
/// draws the moving square. Settings read here apply from the frame being painted on.
final class VirtualCameraSensor: Sendable {
    let scene: VirtualScene
    private let frames = Atomic<Int>(0)

    init(width: Int, height: Int) {
        scene = VirtualScene.scene(width: width, height: height)
    }

    /// Frames painted so far.
    var frameCount: Int { frames.load(ordering: .relaxed) }

    /// Installs the painter on `pad` (the source's caps filter output).
    func install(on pad: Pad) {
        pad.addBufferProbe { [self] buffer in
            let index = frames.add(1, ordering: .relaxed).oldValue
            try? buffer.withWritableBytes { bytes in paint(frame: index, into: bytes) }
            return .pass
        }
    }

    /// The moving square's left edge for a frame: it crosses the band in 4 seconds at 30 fps.
    func squareX(frame: Int) -> Int {
        let side = scene.movingBand.count
        let travel = max(1, scene.width - side)
        return (frame * travel / 120) % travel
    }

    private func paint(frame: Int, into bytes: UnsafeMutableRawBufferPointer) {
        let width = scene.width
        guard bytes.count >= scene.pixels.count * 4 else { return }
        scene.pixels.withUnsafeBytes { source in
            bytes.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
        let band = scene.movingBand
        let x0 = squareX(frame: frame), side = band.count
        let rowBytes = side * 4
        for y in band {
            let start = (y * width + x0) * 4
            (bytes.baseAddress! + start).initializeMemory(as: UInt8.self, repeating: 255, count: rowBytes)
        }
    }
}
