import Foundation
import Synchronization

extension CaptureDevice {
    /// Posted (object: the device) when the scene in front of a running device changed a lot,
    /// while `isSubjectAreaChangeMonitoringEnabled` (AVCaptureDeviceSubjectAreaDidChange).
    public static let subjectAreaDidChangeNotification = Notification.Name("CaptureDeviceSubjectAreaDidChange")

    /// Whether the device watches its frames for large changes (computed by CaptureKit from
    /// the frames, for every kind of camera).
    public var isSubjectAreaChangeMonitoringEnabled: Bool {
        get {
            observed(\.isSubjectAreaChangeMonitoringEnabled)
            return state.subjectAreaMonitoring.load(ordering: .relaxed)
        }
        set { reportingFailure(of: "isSubjectAreaChangeMonitoringEnabled", newValue) { () throws(CaptureError) in try setSubjectAreaChangeMonitoringEnabled(newValue) } }
    }

    /// Turns subject-area change monitoring on or off; needs the configuration lock.
    public func setSubjectAreaChangeMonitoringEnabled(_ enabled: Bool) throws(CaptureError) {
        try requireConfigurationLock()
        try requireVideo("subject area change monitoring")
        if state.subjectAreaMonitoring.exchange(enabled, ordering: .relaxed) != enabled {
            announceChange(of: \.isSubjectAreaChangeMonitoringEnabled)
        }
    }
}

/// Detects large changes between frames: a 32x24 grid of luma samples every third frame,
/// compared with a reference grid; when more than a fifth of the cells moved by more than
/// 24 levels, the device posts `subjectAreaDidChangeNotification` and the grid becomes the new
/// reference. A small moving object (the virtual scene's square) stays below the threshold.
///
/// Threading: `inspect` runs on the source's streaming thread; it samples 768 bytes and
/// returns, posting on the device callback queue.
final class SubjectAreaMonitor: Sendable {
    static let columns = 32, rows = 24, interval = 3
    static let cellThreshold = 24, areaFraction = 0.2

    private let device: CaptureDevice
    private let width: Int, height: Int
    /// Bytes per pixel of the first plane and the offset of a luma-like byte within a pixel.
    private let pixelStride: Int, lumaOffset: Int
    private let state = Mutex<(frame: Int, reference: [UInt8]?)>((0, nil))
    /// Whether `state` holds a reference to forget when monitoring is turned off.
    private let hasReference = Atomic<Bool>(false)

    init(device: CaptureDevice, width: Int, height: Int, pixelFormat: PixelFormat) {
        self.device = device
        self.width = width
        self.height = height
        switch pixelFormat {
        case .bgra, .rgba, .bgrx: (pixelStride, lumaOffset) = (4, 1)
        case .rgb, .bgr: (pixelStride, lumaOffset) = (3, 1)
        case .yuy2: (pixelStride, lumaOffset) = (2, 0)
        case .uyvy: (pixelStride, lumaOffset) = (2, 1)
        default: (pixelStride, lumaOffset) = (1, 0)
        }
    }

    /// Whether to map the frame at all: one atomic load per frame while monitoring is off.
    var isActive: Bool {
        if device.isSubjectAreaChangeMonitoringEnabled { return true }
        if hasReference.load(ordering: .relaxed), hasReference.exchange(false, ordering: .relaxed) {
            state.withLock { $0.reference = nil }
        }
        return false
    }

    /// Looks at one frame's first plane.
    func inspect(_ bytes: UnsafeRawBufferPointer) {
        let due = state.withLock { state -> Bool in
            state.frame += 1
            return state.frame % Self.interval == 0
        }
        guard due, bytes.count >= width * height * pixelStride else { return }
        var grid = [UInt8](repeating: 0, count: Self.columns * Self.rows)
        let rowBytes = width * pixelStride
        for row in 0..<Self.rows {
            let y = (row * 2 + 1) * height / (Self.rows * 2)
            for column in 0..<Self.columns {
                let x = (column * 2 + 1) * width / (Self.columns * 2)
                grid[row * Self.columns + column] = bytes[y * rowBytes + x * pixelStride + lumaOffset]
            }
        }
        let changed = state.withLock { state -> Bool in
            guard let reference = state.reference else {
                state.reference = grid
                hasReference.store(true, ordering: .relaxed)
                return false
            }
            let moved = zip(reference, grid).filter { abs(Int($0) - Int($1)) > Self.cellThreshold }.count
            guard Double(moved) > Double(grid.count) * Self.areaFraction else { return false }
            state.reference = grid
            return true
        }
        if changed {
            let device = device
            device.callbacks.async {
                NotificationCenter.default.post(name: CaptureDevice.subjectAreaDidChangeNotification, object: device)
            }
        }
    }
}
