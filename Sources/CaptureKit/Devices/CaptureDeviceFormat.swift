import Foundation

extension CaptureDevice {
    /// A range of frame rates a format supports (AVFrameRateRange).
    public struct FrameRateRange: Sendable, Hashable, CustomStringConvertible {
        public var minFrameRate: Double
        public var maxFrameRate: Double

        public init(minFrameRate: Double, maxFrameRate: Double) {
            self.minFrameRate = minFrameRate
            self.maxFrameRate = maxFrameRate
        }

        /// The shortest frame duration, 1 / maxFrameRate.
        public var minFrameDuration: CaptureTime { Self.duration(for: maxFrameRate) }
        /// The longest frame duration, 1 / minFrameRate.
        public var maxFrameDuration: CaptureTime { Self.duration(for: minFrameRate) }

        static func duration(for rate: Double) -> CaptureTime {
            let (numerator, denominator) = Fraction.approximate(rate)
            return CaptureTime(value: Int64(denominator), timescale: Int32(numerator))
        }

        public var description: String {
            minFrameRate == maxFrameRate ? "\(Fraction.decimal(maxFrameRate)) fps"
                : "\(Fraction.decimal(minFrameRate))-\(Fraction.decimal(maxFrameRate)) fps"
        }
    }

    /// One way a device can deliver media (AVCaptureDevice.Format): size, pixel format and frame
    /// rates for a camera; sample rate, channels and sample format for a microphone.
    ///
    /// An audio format (`mediaType == .audio`) is described by `audioFormat`; its video
    /// properties carry no meaning there: `pixelFormat` reads `.h264` (a compressed format, so
    /// code handling raw video leaves it alone), `width` and `height` 0, no frame-rate ranges.
    public struct Format: Sendable, Hashable, CustomStringConvertible {
        public var mediaType: MediaType
        /// Sample rate, channel count and sample format of an audio format; nil for video.
        public var audioFormat: AudioFormat?
        public var pixelFormat: PixelFormat
        public var width: Int
        public var height: Int
        public var videoSupportedFrameRateRanges: [FrameRateRange]
        /// The lowest and highest ISO the format allows (0 where the device has no ISO control).
        public var minISO: Float
        public var maxISO: Float
        /// The shortest and longest exposure the format allows.
        public var minExposureDuration: CaptureTime
        public var maxExposureDuration: CaptureTime
        /// The largest zoom factor (1 where the format cannot zoom).
        public var videoMaxZoomFactor: Double
        /// Above this factor zoom is digital upscaling (1: all of it, for digital zoom).
        public var videoZoomFactorUpscaleThreshold: Double

        public init(mediaType: MediaType = .video, pixelFormat: PixelFormat, width: Int, height: Int,
                    videoSupportedFrameRateRanges: [FrameRateRange], minISO: Float = 0, maxISO: Float = 0,
                    minExposureDuration: CaptureTime = .zero, maxExposureDuration: CaptureTime = .zero,
                    videoMaxZoomFactor: Double = 1, videoZoomFactorUpscaleThreshold: Double = 1) {
            self.mediaType = mediaType
            self.pixelFormat = pixelFormat
            self.width = width
            self.height = height
            self.videoSupportedFrameRateRanges = videoSupportedFrameRateRanges
            self.minISO = minISO
            self.maxISO = maxISO
            self.minExposureDuration = minExposureDuration
            self.maxExposureDuration = maxExposureDuration
            self.videoMaxZoomFactor = videoMaxZoomFactor
            self.videoZoomFactorUpscaleThreshold = videoZoomFactorUpscaleThreshold
        }

        /// A microphone's format.
        public init(audioFormat: AudioFormat) {
            self.init(mediaType: .audio, pixelFormat: .h264, width: 0, height: 0, videoSupportedFrameRateRanges: [])
            self.audioFormat = audioFormat
        }

        /// The highest frame rate of any range.
        public var maxFrameRate: Double { videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 30 }

        /// The rate a device runs the format at unless told otherwise: 30 fps where the format
        /// offers it, else its highest.
        var defaultFrameRate: Double { supportsFrameRate(30) ? 30 : maxFrameRate }

        /// Whether `rate` lies in one of the ranges.
        public func supportsFrameRate(_ rate: Double) -> Bool {
            videoSupportedFrameRateRanges.contains { rate >= $0.minFrameRate - 1e-6 && rate <= $0.maxFrameRate + 1e-6 }
        }

        /// e.g. "1280x720 bgra 30 fps", "48000 Hz 2 ch s16le".
        public var description: String {
            if let audioFormat { return audioFormat.description }
            return "\(width)x\(height) \(pixelFormat) " + videoSupportedFrameRateRanges.map(\.description).joined(separator: ", ")
        }

        /// The caps this format asks of its source at `frameRate` (ignored for audio).
        func caps(frameRate: Double) -> String {
            if let audioFormat { return audioFormat.caps }
            let rate = Fraction.text(frameRate)
            switch pixelFormat {
            case .mjpeg: return "image/jpeg,width=\(width),height=\(height),framerate=\(rate)"
            case .h264: return "video/x-h264,width=\(width),height=\(height),framerate=\(rate)"
            default: return "video/x-raw,format=\(pixelFormat.gstFormat!),width=\(width),height=\(height),framerate=\(rate)"
            }
        }
    }

    /// Where a device is mounted (AVCaptureDevice.Position).
    /// With AVFoundation's integer raw values; interpolated, its name ("back").
    public enum Position: Int, Sendable, Hashable, CaseIterable {
        case unspecified = 0, back = 1, front = 2
    }
}

/// Frame rates as GStreamer fractions.
enum Fraction {
    /// A rate as numerator/denominator, exact for integers and the NTSC rates (29.97 → 30000/1001).
    static func approximate(_ rate: Double) -> (Int, Int) {
        if rate == rate.rounded() { return (Int(rate), 1) }
        let ntsc = rate * 1001 / 1000
        if abs(ntsc - ntsc.rounded()) < 1e-3 { return (Int(ntsc.rounded()) * 1000, 1001) }
        return (Int((rate * 1000).rounded()), 1000)
    }

    /// A rate for people: "30", "29.97".
    static func decimal(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(format: "%.2f", rate)
    }

    static func text(_ rate: Double) -> String {
        let (numerator, denominator) = approximate(rate)
        return "\(numerator)/\(denominator)"
    }
}
