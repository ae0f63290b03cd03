import CGStreamer
import CGStreamerSys

/// A buffer with its caps, as an appsink delivers it. Owns one reference.
public final class Sample: Sendable {
    let pointer: COpaquePointer

    init(owning sample: OpaquePointer) {
        self.pointer = COpaquePointer(sample)
    }

    deinit {
        gst_sample_unref(pointer.raw)
    }

    var buffer: UnsafeMutablePointer<GstBuffer>? { gst_sample_get_buffer(pointer.raw) }

    /// Presentation time in nanoseconds, nil when unset.
    public var presentationTime: UInt64? {
        guard let pts = buffer?.pointee.pts, pts != GstClockTime.max else { return nil }
        return UInt64(pts)
    }

    /// Duration in nanoseconds, nil when unset.
    public var duration: UInt64? {
        guard let duration = buffer?.pointee.duration, duration != GstClockTime.max else { return nil }
        return UInt64(duration)
    }

    /// Decode time in nanoseconds, nil when unset (raw frames; equal to the presentation time
    /// for streams without reordering).
    public var decodeTime: UInt64? {
        guard let dts = buffer?.pointee.dts, dts != GstClockTime.max else { return nil }
        return UInt64(dts)
    }

    /// Whether the buffer depends on earlier ones (GST_BUFFER_FLAG_DELTA_UNIT): false for a
    /// key frame.
    public var isDeltaUnit: Bool {
        guard let buffer else { return false }
        return buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0
    }

    /// The width and height the caps give (compressed video too), nil without them.
    public var videoSize: (width: Int, height: Int)? {
        guard let caps = gst_sample_get_caps(pointer.raw), gst_caps_get_size(caps) > 0,
              let structure = gst_caps_get_structure(caps, 0) else { return nil }
        var width: gint = 0, height: gint = 0
        guard gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// The buffer's size in bytes.
    public var byteCount: Int {
        buffer.map { Int(gst_buffer_get_size($0)) } ?? 0
    }

    /// Whether the sample's caps are the `caps` object (no allocation: for per-frame checks).
    public func hasCaps(_ caps: Caps?) -> Bool {
        guard let caps else { return false }
        return gst_sample_get_caps(pointer.raw) == caps.pointer.raw
    }

    /// The sample's caps object, held: two samples with the same `Caps` have the same format,
    /// so what is derived from caps can be cached per stream without parsing them per frame.
    public var capsObject: Caps? {
        gst_sample_get_caps(pointer.raw).map { Caps(retaining: $0) }
    }

    /// The first structure of the caps, typed (e.g. audio/x-raw with format, rate, channels).
    public var capsStructure: CapsStructure? {
        guard let caps = gst_sample_get_caps(pointer.raw), gst_caps_get_size(caps) > 0 else { return nil }
        return CapsStructure.structures(of: caps).first
    }

    /// The caps as a string.
    public var caps: String? {
        guard let caps = gst_sample_get_caps(pointer.raw), let text = gst_caps_to_string(caps) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The video layout described by the caps, or nil when the caps are not raw video.
    public var videoLayout: VideoLayout? {
        guard let caps = gst_sample_get_caps(pointer.raw) else { return nil }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        return VideoLayout(info)
    }

    /// Maps the whole buffer for reading, without copying.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let buffer else { throw GStreamerError.mapFailed }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { throw GStreamerError.mapFailed }
        defer { gst_buffer_unmap(buffer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Maps the planes of a raw video buffer for reading, without copying, honouring the
    /// strides and offsets of its video meta (drivers may pad rows).
    public func withPlanes<R>(_ body: ([VideoPlane]) throws -> R) throws -> R {
        guard let buffer, let caps = gst_sample_get_caps(pointer.raw) else { throw GStreamerError.mapFailed }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { throw GStreamerError.mapFailed }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { throw GStreamerError.mapFailed }
        defer { gst_video_frame_unmap(&frame) }
        let count = Int(frame.info.finfo.pointee.n_planes)
        var planes: [VideoPlane] = []
        planes.reserveCapacity(count)
        withUnsafeBytes(of: frame.data) { data in
            withUnsafeBytes(of: frame.info.stride) { strides in
                let pointers = data.bindMemory(to: UnsafeMutableRawPointer?.self)
                let strideValues = strides.bindMemory(to: Int32.self)
                for index in 0..<count {
                    let height = Int(VideoLayout.planeHeight(frame.info, plane: index))
                    let stride = Int(strideValues[index])
                    planes.append(VideoPlane(
                        bytes: UnsafeRawBufferPointer(start: pointers[index], count: stride * height),
                        bytesPerRow: stride, height: height))
                }
            }
        }
        return try body(planes)
    }
}

/// One plane of a mapped video frame; valid only inside `withPlanes`.
public struct VideoPlane {
    public let bytes: UnsafeRawBufferPointer
    public let bytesPerRow: Int
    public let height: Int

    public init(bytes: UnsafeRawBufferPointer, bytesPerRow: Int, height: Int) {
        self.bytes = bytes
        self.bytesPerRow = bytesPerRow
        self.height = height
    }
}

/// Size, pixel format and strides of raw video.
public struct VideoLayout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// GStreamer's format name ("BGRA", "NV12", "I420", "GRAY8", …).
    public var format: String
    public var bytesPerRow: [Int]
    public var planeOffsets: [Int]
    public var byteCount: Int
    /// Whether YUV values span the full 0…255 (true), the video range 16…235 (false), or the
    /// caps do not say (nil); from the caps' colorimetry. Meaningless for RGB formats.
    public var isFullRange: Bool?

    init(_ info: GstVideoInfo) {
        width = Int(info.width)
        height = Int(info.height)
        format = String(cString: info.finfo.pointee.name)
        let planes = Int(info.finfo.pointee.n_planes)
        var strides: [Int] = [], offsets: [Int] = []
        withUnsafeBytes(of: info.stride) { raw in
            let values = raw.bindMemory(to: Int32.self)
            for index in 0..<planes { strides.append(Int(values[index])) }
        }
        withUnsafeBytes(of: info.offset) { raw in
            let values = raw.bindMemory(to: Int.self)
            for index in 0..<planes { offsets.append(values[index]) }
        }
        bytesPerRow = strides
        planeOffsets = offsets
        byteCount = Int(info.size)
        isFullRange = switch info.colorimetry.range {
        case GST_VIDEO_COLOR_RANGE_0_255: true
        case GST_VIDEO_COLOR_RANGE_16_235: false
        default: nil
        }
    }

    /// The layout GStreamer gives raw video of these caps ("video/x-raw,format=I420,width=…,
    /// height=…") when no buffer says otherwise; nil for caps that are not raw video.
    public init?(caps text: String) {
        guard let caps = gst_caps_from_string(text) else { return nil }
        defer { gst_caps_unref(caps) }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        self.init(info)
    }

    /// GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT for a plane.
    static func planeHeight(_ info: GstVideoInfo, plane: Int) -> Int32 {
        let component = withUnsafeBytes(of: info.finfo.pointee.plane) { $0.bindMemory(to: guint.self)[plane] }
        let shift = withUnsafeBytes(of: info.finfo.pointee.h_sub) { $0.bindMemory(to: guint.self)[Int(component)] }
        return -((-info.height) >> Int32(shift))
    }
}

/// A reference to a caps object, compared by identity. Holding it keeps the caps alive, so the
/// identity cannot be reused by other caps while held.
public final class Caps: Sendable {
    let pointer: CPointer<GstCaps>

    init(retaining caps: UnsafeMutablePointer<GstCaps>) {
        pointer = CPointer(gst_caps_ref(caps))
    }

    deinit {
        gst_caps_unref(pointer.raw)
    }
}
