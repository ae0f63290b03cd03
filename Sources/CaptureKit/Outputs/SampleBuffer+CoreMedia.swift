import GStreamerSwift
import Synchronization

// CoreMedia's sample-buffer accessors under their own names, over ``SampleBuffer``.

/// CoreMedia's sample buffer: ``SampleBuffer``.
public typealias CMSampleBuffer = SampleBuffer

extension SampleBuffer {
    /// The frame as a pixel buffer: the sample itself for raw video, nil for compressed samples
    /// and audio (CMSampleBuffer.imageBuffer).
    public var imageBuffer: CVImageBuffer? { formatDescription.pixelFormat == nil ? nil : self }

    /// CoreMedia's name for ``presentationTime``.
    public var presentationTimeStamp: CMTime { presentationTime }

    /// CoreMedia's name for ``decodeTime``.
    public var decodeTimeStamp: CMTime { decodeTime }

    /// Whether the sample holds its data (always true for CaptureKit's samples).
    public var dataReadiness: Bool { true }

    /// Whether the sample can be used (CMSampleBuffer.isValid): always true.
    public var isValid: Bool { true }

    /// One lock of CoreVideo's base address: maps the planes on the first.
    func lockBaseAddress() -> CVReturn {
        guard formatDescription.pixelFormat != nil else { return kCVReturnInvalidArgument }
        let sample: Sample?
        switch storage {
        case .sample(let frame): sample = frame
        case .pixels: sample = nil
        case .data: return kCVReturnInvalidArgument
        }
        return pixelLock.withLock { lock in
            if lock.count == 0, let sample {
                guard let mapping = sample.mapVideoFrame() else { return kCVReturnError }
                lock.mapping = mapping
            }
            lock.count += 1
            return kCVReturnSuccess
        }
    }

    /// One unlock: the last unmaps the planes.
    func unlockBaseAddress() -> CVReturn {
        pixelLock.withLock { lock in
            guard lock.count > 0 else { return kCVReturnInvalidArgument }
            lock.count -= 1
            if lock.count == 0 { lock.unmap() }
            return kCVReturnSuccess
        }
    }

    /// Plane `index` while the base address is locked.
    func lockedPlane(_ index: Int) -> VideoPlane? {
        if case .pixels(let memory) = storage {
            let locked = pixelLock.withLock { $0.count > 0 }
            guard locked, index == 0 else { return nil }
            return VideoPlane(bytes: UnsafeRawBufferPointer(memory.bytes), bytesPerRow: formatDescription.bytesPerRow[0], height: formatDescription.height)
        }
        return pixelLock.withLock { lock in
            guard let mapping = lock.mapping, (0..<mapping.planeCount).contains(index) else { return nil }
            return mapping.plane(index)
        }
    }
}

/// CoreVideo's lock of a sample's planes: how many locks are open, and the mapping they share.
struct PixelBufferLock: Sendable {
    var count = 0
    var mapping: VideoFrameMapping?

    mutating func unmap() {
        mapping?.unmap()
        mapping = nil
        count = 0
    }
}

/// The frame's pixel buffer, nil for compressed samples and audio (CMSampleBufferGetImageBuffer).
public func CMSampleBufferGetImageBuffer(_ sampleBuffer: CMSampleBuffer) -> CVImageBuffer? { sampleBuffer.imageBuffer }

/// When the sample was captured (CMSampleBufferGetPresentationTimeStamp).
public func CMSampleBufferGetPresentationTimeStamp(_ sampleBuffer: CMSampleBuffer) -> CMTime { sampleBuffer.presentationTime }

/// When the sample is decoded (CMSampleBufferGetDecodeTimeStamp).
public func CMSampleBufferGetDecodeTimeStamp(_ sampleBuffer: CMSampleBuffer) -> CMTime { sampleBuffer.decodeTime }

/// How long the sample lasts (CMSampleBufferGetDuration).
public func CMSampleBufferGetDuration(_ sampleBuffer: CMSampleBuffer) -> CMTime { sampleBuffer.duration }

/// Frames in a video sample (1) or audio frames in an audio one (CMSampleBufferGetNumSamples).
public func CMSampleBufferGetNumSamples(_ sampleBuffer: CMSampleBuffer) -> Int { sampleBuffer.numSamples }

/// The sample's format (CMSampleBufferGetFormatDescription).
public func CMSampleBufferGetFormatDescription(_ sampleBuffer: CMSampleBuffer) -> FormatDescription? { sampleBuffer.formatDescription }

/// The data's size in bytes (CMSampleBufferGetTotalSampleSize).
public func CMSampleBufferGetTotalSampleSize(_ sampleBuffer: CMSampleBuffer) -> Int { sampleBuffer.dataLength }
