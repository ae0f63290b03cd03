import Foundation
import Synchronization

/// A patch the virtual camera draws on cue, so that motion detection has real motion to find:
/// from ``enter`` to ``leave`` seconds of the stream (the frames' presentation time), a flat
/// patch of gray ``level`` covers ``rect`` (normalised device coordinates), gliding to ``to``
/// over that time when given.
///
/// Set on a device with ``CaptureDevice/setVirtualMovers(_:)``, or for a whole process (the
/// `capture` command under test) with `CAPTUREKIT_VIRTUAL_MOVERS`: cues separated by `;`, each
/// `ENTER-LEAVE@X,Y,W,H` in seconds and fractions (`2-4@0.3,0.2,0.2,0.3`).
@_spi(Benchmark)
public struct VirtualMover: Sendable, Hashable {
    public var rect: CGRect
    public var to: CGRect?
    public var enter: Double
    public var leave: Double
    public var level: UInt8

    public init(rect: CGRect, to: CGRect? = nil, enter: Double, leave: Double, level: UInt8 = 32) {
        self.rect = rect
        self.to = to
        self.enter = enter
        self.leave = leave
        self.level = level
    }

    /// Where the patch is at `seconds`, or nil outside its cue.
    func rect(at seconds: Double) -> CGRect? {
        guard seconds >= enter, seconds < leave else { return nil }
        guard let to, leave > enter else { return rect }
        let t = (seconds - enter) / (leave - enter)
        return CGRect(x: rect.minX + (to.minX - rect.minX) * t, y: rect.minY + (to.minY - rect.minY) * t,
                      width: rect.width + (to.width - rect.width) * t, height: rect.height + (to.height - rect.height) * t)
    }

    /// The cues of `CAPTUREKIT_VIRTUAL_MOVERS`; malformed cues are left out.
    static func parse(_ text: String) -> [VirtualMover] {
        text.split(separator: ";").compactMap { cue in
            let parts = cue.split(separator: "@")
            guard parts.count == 2 else { return nil }
            let times = parts[0].split(separator: "-").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            let box = parts[1].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard times.count == 2, box.count == 4 else { return nil }
            return VirtualMover(rect: CGRect(x: box[0], y: box[1], width: box[2], height: box[3]), enter: times[0], leave: times[1])
        }
    }
}

/// What the virtual camera's moving square does: crosses its band (the default), stands still
/// at the band's left end, or is not drawn. `CAPTUREKIT_VIRTUAL_SQUARE` sets it for a process.
@_spi(Benchmark)
public enum VirtualSquare: String, Sendable {
    case moving, still, hidden
}

/// A virtual camera's movers and square, shared by the copies of its backend; read by its
/// sensor once per frame.
final class VirtualSceneMotion: Sendable {
    let value: Mutex<(movers: [VirtualMover], square: VirtualSquare)>

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        value = Mutex((environment["CAPTUREKIT_VIRTUAL_MOVERS"].map(VirtualMover.parse) ?? [],
                       environment["CAPTUREKIT_VIRTUAL_SQUARE"].flatMap(VirtualSquare.init(rawValue:)) ?? .moving))
    }
}

extension CaptureDevice {
    /// The patches the virtual camera draws on cue (replacing any set before); for tests and
    /// demos of motion detection. Does nothing on other devices.
    @_spi(Benchmark)
    public func setVirtualMovers(_ movers: [VirtualMover]) {
        (backend as? VirtualCameraBackend)?.sceneMotion.value.withLock { $0.movers = movers }
    }

    /// What the virtual camera's moving square does; does nothing on other devices.
    @_spi(Benchmark)
    public func setVirtualSquare(_ square: VirtualSquare) {
        (backend as? VirtualCameraBackend)?.sceneMotion.value.withLock { $0.square = square }
    }
}
