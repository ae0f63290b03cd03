/// Pixels CaptureKit made itself (a photo's preview image), owned by the sample that holds
/// them: allocated once, written once before the sample exists, read-only after.
final class PixelMemory: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = .allocate(byteCount: byteCount, alignment: 16)
    }

    deinit { bytes.deallocate() }
}
