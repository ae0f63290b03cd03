import GStreamerSwift

extension CaptureDevice.Format {
    /// Formats from caps: one per size and pixel format, with the frame rates offered. A structure with no frame rate (libcamera's provider states
    /// none) gets `unstatedFrameRates`, and is skipped when that is empty.
    static func formats(from caps: [CapsStructure], unstatedFrameRates: [CaptureDevice.FrameRateRange] = []) -> [CaptureDevice.Format] {
        var formats: [CaptureDevice.Format] = []
        for structure in caps where structure.features == nil {
            let pixelFormat: PixelFormat?
            switch structure.name {
            case "image/jpeg": pixelFormat = .mjpeg
            case "video/x-h264": pixelFormat = .h264
            case "video/x-raw":
                if case .string(let name)? = structure.fields["format"] { pixelFormat = PixelFormat(gstFormat: name) } else { pixelFormat = nil }
            default: pixelFormat = nil
            }
            guard let pixelFormat, let width = largest(structure.fields["width"]), let height = largest(structure.fields["height"]) else { continue }
            let ranges = structure.fields["framerate"] == nil ? unstatedFrameRates : frameRateRanges(structure.fields["framerate"])
            guard !ranges.isEmpty else { continue }
            let format = CaptureDevice.Format(pixelFormat: pixelFormat, width: width, height: height, videoSupportedFrameRateRanges: ranges)
            if !formats.contains(format) { formats.append(format) }
        }
        return formats
    }

    fileprivate static func largest(_ value: CapsValue?) -> Int? {
        switch value {
        case .int(let v)?: v
        case .intRange(_, let hi)?: hi
        case .list(let values)?: values.compactMap { largest($0) }.max()
        default: nil
        }
    }

    fileprivate static func frameRateRanges(_ value: CapsValue?) -> [CaptureDevice.FrameRateRange] {
        func rate(_ value: CapsValue) -> Double? {
            if case .fraction(let n, let d) = value, d != 0 { return Double(n) / Double(d) }
            return nil
        }
        switch value {
        case .fraction?:
            return rate(value!).map { [.init(minFrameRate: $0, maxFrameRate: $0)] } ?? []
        case .fractionRange(let lo, let hi)?:
            guard let min = rate(lo), let max = rate(hi) else { return [] }
            return [.init(minFrameRate: Swift.max(min, 1), maxFrameRate: max)]
        case .list(let values)?:
            return values.flatMap { frameRateRanges($0) }.filter { $0.maxFrameRate > 0 }
                .sorted { $0.maxFrameRate > $1.maxFrameRate }
        default:
            return []
        }
    }
}
