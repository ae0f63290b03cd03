import CGStreamer
import CGStreamerSys

/// A raw video buffer mapped for reading outside a closure, for APIs whose mapping spans calls
/// (CoreVideo's lock and unlock). The sample must outlive the mapping; `unmap()` ends it.
/// Not thread-safe: its owner serialises access.
public struct VideoFrameMapping: @unchecked Sendable {
    private var frame: GstVideoFrame

    /// The number of planes (1 for packed formats, 2 for NV12, 3 for I420).
    public var planeCount: Int { Int(frame.info.finfo.pointee.n_planes) }

    /// Plane `index` (0 ..< planeCount): its first byte, bytes per row and rows.
    public func plane(_ index: Int) -> VideoPlane {
        var frame = frame
        let pointer = withUnsafeBytes(of: &frame.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[index] }
        let stride = withUnsafeBytes(of: &frame.info.stride) { Int($0.bindMemory(to: Int32.self)[index]) }
        let height = Int(VideoLayout.planeHeight(frame.info, plane: index))
        return VideoPlane(bytes: UnsafeRawBufferPointer(start: pointer, count: stride * height), bytesPerRow: stride, height: height)
    }

    /// Unmaps the buffer; the planes' pointers are invalid afterwards.
    public mutating func unmap() {
        gst_video_frame_unmap(&frame)
    }

    fileprivate init(frame: GstVideoFrame) { self.frame = frame }
}

extension Sample {
    /// Maps a raw video sample's planes for reading until the mapping's `unmap()`; nil when the
    /// caps are not raw video or the buffer cannot be mapped.
    public func mapVideoFrame() -> VideoFrameMapping? {
        guard let buffer, let caps = gst_sample_get_caps(pointer.raw) else { return nil }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { return nil }
        return VideoFrameMapping(frame: frame)
    }
}
