import CGStreamer
import CGStreamerSys

/// What kind of failure an error message reports, from its GStreamer error domain and code:
/// enough to tell a device that went away or is in use from every other failure.
public enum BusErrorReason: Sendable, Equatable {
    /// The device is not there (`GST_RESOURCE_ERROR_NOT_FOUND`, or it cannot be opened:
    /// `OPEN_READ`, `OPEN_READ_WRITE`).
    case deviceNotFound
    /// Another process holds the device (`GST_RESOURCE_ERROR_BUSY`).
    case deviceBusy
    /// The device stopped answering while in use, as an unplugged camera does
    /// (`GST_RESOURCE_ERROR_READ`).
    case deviceFailed
    /// A write found the disk full (`GST_RESOURCE_ERROR_NO_SPACE_LEFT`).
    case noSpaceLeft
    /// Anything else.
    case other

    init(_ error: UnsafeMutablePointer<GError>?) {
        guard let error, error.pointee.domain == gst_resource_error_quark() else {
            self = .other
            return
        }
        switch GstResourceError(rawValue: UInt32(error.pointee.code)) {
        case GST_RESOURCE_ERROR_NOT_FOUND, GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_OPEN_READ_WRITE: self = .deviceNotFound
        case GST_RESOURCE_ERROR_BUSY: self = .deviceBusy
        case GST_RESOURCE_ERROR_READ: self = .deviceFailed
        case GST_RESOURCE_ERROR_NO_SPACE_LEFT: self = .noSpaceLeft
        default: self = .other
        }
    }

    /// The resource error code an element posts for this reason (`postError`).
    var resourceCode: Int32 {
        switch self {
        case .deviceNotFound: Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue)
        case .deviceBusy: Int32(GST_RESOURCE_ERROR_BUSY.rawValue)
        case .deviceFailed: Int32(GST_RESOURCE_ERROR_READ.rawValue)
        case .noSpaceLeft: Int32(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue)
        case .other: Int32(GST_RESOURCE_ERROR_FAILED.rawValue)
        }
    }
}
