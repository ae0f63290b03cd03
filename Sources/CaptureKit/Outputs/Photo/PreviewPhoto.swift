import Foundation
import GStreamerSwift

/// A photo's preview image (iOS 10's `previewPhotoSampleBuffer`): the frame the photo was
/// encoded from, as the still branch hands it to the JPEG encoder (full-range BT.601 I420),
/// scaled to the asked size by averaging each output pixel's box of source pixels, in BGRA.
enum PreviewPhoto {
    /// The preview size for settings' `previewPhotoFormat`: its width and height keys, fitted
    /// inside the photo with the photo's aspect ratio; 160 pixels wide where it gives none.
    static func size(for format: [String: Any], photo: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let number = { (key: String) in (format[key] as? NSNumber)?.intValue ?? (format[key] as? Int) }
        let askedWidth = number(kCVPixelBufferWidthKey), askedHeight = number(kCVPixelBufferHeightKey)
        let aspect = Double(photo.height) / Double(max(photo.width, 1))
        var width = min(max(askedWidth ?? 160, 1), photo.width)
        var height = max(Int((Double(width) * aspect).rounded()), 1)
        if let askedHeight, askedHeight > 0, height > askedHeight {
            height = min(askedHeight, photo.height)
            width = max(Int((Double(height) / aspect).rounded()), 1)
        }
        return (width, height)
    }

    /// BGRA pixels `width`×`height` from an I420 frame laid out as `layout`.
    static func bgra(fromI420 frame: UnsafeRawBufferPointer, layout: VideoLayout, width: Int, height: Int,
                     presentationTime: CaptureTime, attachments: SampleAttachments) -> SampleBuffer {
        let memory = PixelMemory(byteCount: width * height * 4)
        let out = memory.bytes.bindMemory(to: UInt8.self)
        let source = frame.bindMemory(to: UInt8.self)
        let (yRow, cRow) = (layout.bytesPerRow[0], layout.bytesPerRow[1])
        let (uBase, vBase) = (layout.planeOffsets[1], layout.planeOffsets[2])
        for row in 0..<height {
            let top = row * layout.height / height, bottom = max((row + 1) * layout.height / height, top + 1)
            for column in 0..<width {
                let left = column * layout.width / width, right = max((column + 1) * layout.width / width, left + 1)
                var luma = 0
                for y in top..<bottom { for x in left..<right { luma += Int(source[y * yRow + x]) } }
                let count = (bottom - top) * (right - left)
                let (cy, cx) = ((top + bottom) / 4, (left + right) / 4)
                let y = Double(luma) / Double(count)
                let cb = Double(source[uBase + cy * cRow + cx]) - 128, cr = Double(source[vBase + cy * cRow + cx]) - 128
                let pixel = (row * width + column) * 4
                out[pixel] = clamp(y + 1.772 * cb)
                out[pixel + 1] = clamp(y - 0.344136 * cb - 0.714136 * cr)
                out[pixel + 2] = clamp(y + 1.402 * cr)
                out[pixel + 3] = 255
            }
        }
        let format = FormatDescription(codec: nil, pixelFormat: .bgra, width: width, height: height, bytesPerRow: [width * 4])
        return SampleBuffer(presentationTime: presentationTime, duration: .zero, formatDescription: format,
                            attachments: attachments, storage: .pixels(memory))
    }

    private static func clamp(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
}
