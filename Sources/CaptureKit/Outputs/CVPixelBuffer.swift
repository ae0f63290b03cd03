import GStreamerSwift

// CoreVideo's pixel-buffer functions under their own names, over ``SampleBuffer``: a raw video
// frame is its own image buffer, so `CMSampleBufferGetImageBuffer` neither copies nor
// allocates. As in CoreVideo, the base addresses are valid between
// `CVPixelBufferLockBaseAddress` and `CVPixelBufferUnlockBaseAddress` (locks nest; the last
// unlock unmaps, and so does the buffer's release) and nil outside them.
//
// The pixels are GStreamer's buffer, shared with the session's other outputs: read them only,
// whatever the lock flags say.

/// CoreVideo's image buffer: a raw video ``SampleBuffer``.
public typealias CVImageBuffer = SampleBuffer
/// CoreVideo's pixel buffer: a raw video ``SampleBuffer``.
public typealias CVPixelBuffer = SampleBuffer
/// A CoreVideo result code.
public typealias CVReturn = Int32
/// A four-character code, as pixel formats are named.
public typealias OSType = UInt32

/// Success (kCVReturnSuccess).
public let kCVReturnSuccess: CVReturn = 0
/// An invalid argument: the buffer is not raw video, or unlocked more often than locked (kCVReturnInvalidArgument).
public let kCVReturnInvalidArgument: CVReturn = -6661
/// The buffer could not be mapped (kCVReturnError).
public let kCVReturnError: CVReturn = -6660

/// How a pixel buffer is locked (CVPixelBufferLockFlags).
public struct CVPixelBufferLockFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// For reading only: the only way CaptureKit's frames may be used.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// Maps the frame's planes so that the base addresses are valid until the matching unlock.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.lockBaseAddress()
}

/// Ends one lock; the last one unmaps the planes.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.unlockBaseAddress()
}

/// The first plane's first byte while locked; nil when not locked (CVPixelBufferGetBaseAddress).
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.lockedPlane(0).flatMap { UnsafeMutableRawPointer(mutating: $0.bytes.baseAddress) }
}

/// Plane `planeIndex`'s first byte while locked; nil when not locked or out of range.
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    pixelBuffer.lockedPlane(planeIndex).flatMap { UnsafeMutableRawPointer(mutating: $0.bytes.baseAddress) }
}

/// Bytes per row of the first plane.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.formatDescription.bytesPerRow.first ?? 0
}

/// Bytes per row of plane `planeIndex`; 0 out of range.
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    let rows = pixelBuffer.formatDescription.bytesPerRow
    return rows.indices.contains(planeIndex) ? rows[planeIndex] : 0
}

/// The width in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.formatDescription.width }

/// The height in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.formatDescription.height }

/// The width of plane `planeIndex` in samples (chroma planes of 4:2:0 formats are half as wide).
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.formatDescription.planeSize(planeIndex).width
}

/// The height of plane `planeIndex` in rows (chroma planes of 4:2:0 formats are half as tall).
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.formatDescription.planeSize(planeIndex).height
}

/// The number of planes: 0 for packed formats, as in CoreVideo; 2 for NV12, 3 for I420.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int {
    let planes = pixelBuffer.formatDescription.bytesPerRow.count
    return planes > 1 ? planes : 0
}

/// Whether the frame has more than one plane.
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool { CVPixelBufferGetPlaneCount(pixelBuffer) > 0 }

/// The frame's pixel format as CoreVideo's four-character code (`kCVPixelFormatType_32BGRA`, …); 0 for
/// compressed samples and audio.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType {
    pixelBuffer.formatDescription.cvPixelFormatType
}

/// The bytes of every plane, rows included.
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.dataLength }
