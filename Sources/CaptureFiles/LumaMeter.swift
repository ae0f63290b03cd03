import CaptureKit

/// Measures a frame's mean luma, 0...255.
enum LumaMeter {
    /// The mean luma of a raw frame: the mean of the Y plane for GRAY8, NV12 and I420, and of
    /// 0.299 R + 0.587 G + 0.114 B (BT.601) for 32-bit RGB formats.
    static func meanLuma(of sample: SampleBuffer) throws(PipelineRunError) -> Double {
        let format = sample.formatDescription
        guard let pixelFormat = format.pixelFormat else {
            throw .capture(.wrongSampleFormat(expected: "raw video", found: format.codec?.rawValue ?? "none"),
                           during: "measuring luma")
        }
        let channels: (r: Int, g: Int, b: Int, step: Int)?
        switch pixelFormat {
        case .gray8, .nv12, .i420: channels = nil
        case .bgra, .bgrx: channels = (2, 1, 0, 4)
        case .rgba: channels = (0, 1, 2, 4)
        default:
            throw .capture(.wrongSampleFormat(expected: "gray8, nv12, i420, bgra or rgba", found: pixelFormat.rawValue),
                           during: "measuring luma")
        }
        do {
            return try sample.withPlanes { planes in
                guard let plane = planes.first, let base = plane.bytes.baseAddress else { return 0 }
                let bytes = base.assumingMemoryBound(to: UInt8.self)
                let width = format.width, height = min(format.height, plane.height)
                let rowBytes = width * (channels?.step ?? 1)
                guard width > 0, height > 0, plane.bytesPerRow >= rowBytes,
                      plane.bytes.count >= plane.bytesPerRow * (height - 1) + rowBytes else { return 0 }
                var total: UInt64 = 0
                for y in 0..<height {
                    let row = bytes + y * plane.bytesPerRow
                    if let channels {
                        var x = 0
                        while x < rowBytes {
                            total &+= 299 * UInt64(row[x + channels.r]) + 587 * UInt64(row[x + channels.g])
                                + 114 * UInt64(row[x + channels.b])
                            x += channels.step
                        }
                    } else {
                        for x in 0..<width { total &+= UInt64(row[x]) }
                    }
                }
                let scale = channels == nil ? 1.0 : 1000.0
                return Double(total) / scale / Double(width * height)
            }
        } catch {
            throw .capture(error as? CaptureError ?? .wrongSampleFormat(expected: "raw video", found: "\(error)"),
                           during: "measuring luma")
        }
    }
}
