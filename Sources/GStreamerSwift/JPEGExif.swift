import CGStreamer
import Foundation

/// Completes the EXIF block GStreamer's `jifmux` writes (libexif, in the C shim).
public enum JPEGExif {
    /// Failures of `normalize`, from the C function's return codes.
    public enum Failure: Error, Equatable, Sendable {
        case notJPEG, badExif, outOfMemory
    }

    /// Returns the JPEG with a complete, well-formed EXIF block: every tag GStreamer wrote is
    /// kept, and the ones Exif 2.3 requires (ColorSpace, ComponentsConfiguration,
    /// ExifImageWidth/Height, YCbCrPositioning, resolution, versions) are added.
    public static func normalize(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int) throws(Failure) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = ck_exif_normalize(jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), jpeg.count,
                                       UInt32(width), UInt32(height), &output, &length)
        switch status {
        case 0:
            return Data(bytesNoCopy: output!, count: length, deallocator: .free)
        case -1: throw .notJPEG
        case -3: throw .outOfMemory
        default: throw .badExif
        }
    }
}
