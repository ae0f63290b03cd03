import Foundation

/// How much of a shared link one running camera takes: the measure behind
/// `CaptureSession.hardwareCost`.
///
/// Cameras compete where their frames travel together: a USB bus's periodic bandwidth, or the
/// processors for cameras CaptureKit draws or decodes in software. A camera on a link of its
/// own (a CSI lane, a platform driver, a PipeWire node) competes with nothing but its own top
/// rate.
struct HardwareLoad: Sendable, Equatable {
    enum Link: Hashable, Sendable {
        /// A USB bus, by its number: every camera on it shares its periodic bandwidth.
        case usb(bus: String)
        /// The machine's processors, shared by every camera painted or decoded in software.
        case processors
        /// A link one device has to itself, by its unique ID.
        case own(device: String)
    }

    var link: Link
    /// The share of the link the camera takes: 1 is the whole link.
    var share: Double

    /// The cost of cameras running together: the busiest link's total share. Above 1 they
    /// cannot all run at their formats and rates (AVFoundation's `hardwareCost`).
    static func cost(of loads: [HardwareLoad]) -> Double {
        Dictionary(grouping: loads, by: \.link).values.map { $0.reduce(0) { $0 + $1.share } }.max() ?? 0
    }

    /// A USB camera's frames, uncompressed formats at their size and compressed ones at a
    /// typical camera's bit rate, against the bus's periodic bandwidth: USB reserves at most 80 %
    /// of a high-speed (480 Mbit/s) bus and 90 % of a SuperSpeed one for isochronous transfers.
    static func usb(bus: String, megabitsPerSecond: Double, format: CaptureDevice.Format, frameRate: Double) -> HardwareLoad {
        let periodic = megabitsPerSecond * 1e6 * (megabitsPerSecond <= 480 ? 0.8 : 0.9)
        let bits = Double(format.width * format.height) * format.pixelFormat.transferBitsPerPixel * frameRate
        return HardwareLoad(link: .usb(bus: bus), share: bits / periodic)
    }

    /// The processor time CaptureKit measured for painting one pixel of a virtual camera's
    /// frame and carrying it to a BGRA video data output: 1.3–1.5 ns (`capture-bench multicam`,
    /// one and two cameras at 1280x720 and 30 fps on a 2-core x86-64 machine; BENCHMARKS.md).
    static let paintedNanosecondsPerPixel = 1.4

    /// A camera drawn in software (the virtual cameras, a screen, a file played as a camera),
    /// at `nanosecondsPerPixel` of processor time, against every processor of the machine.
    static func processors(format: CaptureDevice.Format, frameRate: Double,
                           nanosecondsPerPixel: Double = paintedNanosecondsPerPixel) -> HardwareLoad {
        let busy = Double(format.width * format.height) * frameRate * nanosecondsPerPixel
        return HardwareLoad(link: .processors, share: busy / (Double(ProcessInfo.processInfo.activeProcessorCount) * 1e9))
    }

    /// A camera on a link of its own: its pixel rate against the highest any of its formats offers.
    static func ownLink(device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) -> HardwareLoad {
        let top = device.formats.map { Double($0.width * $0.height) * $0.maxFrameRate }.max() ?? 0
        let rate = Double(format.width * format.height) * frameRate
        return HardwareLoad(link: .own(device: device.uniqueID), share: top > 0 ? rate / top : 0)
    }
}

extension PixelFormat {
    /// Bits a camera sends per pixel: the layout's size for uncompressed formats, a webcam's
    /// typical rate for compressed ones (MJPEG at about 2 bits a pixel, H.264 at about 0.1).
    var transferBitsPerPixel: Double {
        switch self {
        case .bgra, .rgba, .bgrx: 32
        case .rgb, .bgr: 24
        case .yuy2, .uyvy: 16
        case .nv12, .i420: 12
        case .gray8: 8
        case .mjpeg: 2
        case .h264: 0.1
        }
    }
}
