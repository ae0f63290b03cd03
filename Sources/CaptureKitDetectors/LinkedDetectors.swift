@_spi(Detectors) import CaptureKit
import Detectors
import Foundation

/// zxing-cpp's reader and writer and OpenCV's cascades (through `Detectors`), as CaptureKit's
/// metadata outputs and file scanner ask for them.
final class LinkedDetectors: MetadataDetection.Engine {
    var availableTypes: [MetadataObjectType] {
        MetadataObjectType.machineReadableCodes + (FaceDetector.isAvailable ? [.face] : [])
    }

    func codeReader(for types: Set<MetadataObjectType>, effort: MetadataFileScanner.Effort) -> any MetadataDetection.CodeReader {
        CodeReader(reader: BarcodeReader(symbologies: Set(types.compactMap(\.symbology)),
                                         passes: effort == .thorough ? BarcodeReader.thorough : BarcodeReader.live))
    }

    func faceFinder(effort: MetadataFileScanner.Effort) -> (any MetadataDetection.FaceFinder)? {
        FaceDetector().map { FaceFinder(detector: $0, passes: effort == .thorough ? .thorough : .live) }
    }

    func encode(_ text: String, as type: MetadataObjectType) throws(CaptureError) -> MetadataDetection.Symbol {
        guard let symbology = type.symbology else {
            throw .invalidSetting(name: "code type", value: type.rawValue,
                                  valid: MetadataObjectType.machineReadableCodes.map(\.name).joined(separator: ", "))
        }
        do {
            let symbol = try BarcodeSymbol(encoding: text, as: symbology)
            return MetadataDetection.Symbol(type: type, width: symbol.width, height: symbol.height, modules: symbol.modules)
        } catch {
            throw .invalidSetting(name: "\(type.name) text", value: text, valid: error.reason)
        }
    }

    /// A reader of some symbologies with some passes.
    struct CodeReader: MetadataDetection.CodeReader {
        let reader: BarcodeReader

        func read(_ plane: MetadataDetection.Plane, region: MetadataDetection.Region?) -> [MetadataDetection.Code] {
            let region = region.map { BarcodeReader.Region(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            return reader.read(plane.bytes, width: plane.width, height: plane.height, rowStride: plane.bytesPerRow, region: region)
                .compactMap { code in
                    guard let type = MetadataObjectType(code.symbology) else { return nil }
                    return MetadataDetection.Code(type: type, text: code.text, corners: code.corners.map { CGPoint(x: $0.x, y: $0.y) })
                }
        }
    }

    /// A face detector (one OpenCV handle, serialised by `FaceDetector`) with some passes.
    struct FaceFinder: MetadataDetection.FaceFinder {
        let detector: FaceDetector
        let passes: FaceDetector.Passes

        func find(_ plane: MetadataDetection.Plane) -> [MetadataDetection.Face] {
            detector.detect(plane.bytes, width: plane.width, height: plane.height, rowStride: plane.bytesPerRow, passes: passes).map {
                MetadataDetection.Face(bounds: CGRect(x: $0.bounds.x, y: $0.bounds.y, width: $0.bounds.width, height: $0.bounds.height),
                                       rollAngle: $0.rollAngle, yawAngle: $0.yawAngle)
            }
        }
    }
}
