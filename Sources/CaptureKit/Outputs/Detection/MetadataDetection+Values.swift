import Foundation

@_spi(Detectors)
extension MetadataDetection {
    /// An 8-bit gray plane as mapped: `bytesPerRow` may exceed `width` (a driver's row padding).
    /// Valid only during the call it is passed to.
    public struct Plane {
        public let bytes: UnsafeRawBufferPointer
        public let width: Int
        public let height: Int
        public let bytesPerRow: Int
    }

    /// The part of a plane searched, in whole pixels.
    public struct Region: Sendable, Hashable {
        public let x, y, width, height: Int

        /// A normalised rect of a `width` x `height` plane; nil for the whole plane.
        init?(_ rect: CGRect, width: Int, height: Int) {
            guard rect != CGRect(x: 0, y: 0, width: 1, height: 1) else { return nil }
            x = Int((rect.minX * Double(width)).rounded(.down))
            y = Int((rect.minY * Double(height)).rounded(.down))
            self.width = Int((rect.width * Double(width)).rounded(.up))
            self.height = Int((rect.height * Double(height)).rounded(.up))
        }
    }

    /// A code read: its type, its text, its corners in pixels (top left, top right, bottom
    /// right, bottom left of the symbol as read).
    public struct Code: Sendable, Hashable {
        public let type: MetadataObjectType
        public let text: String
        public let corners: [CGPoint]

        public init(type: MetadataObjectType, text: String, corners: [CGPoint]) {
            self.type = type
            self.text = text
            self.corners = corners
        }
    }

    /// A face found: its box in pixels, and the angles the pass that found it gives
    /// (degrees; nil when unknown).
    public struct Face: Sendable, Hashable {
        public let bounds: CGRect
        public let rollAngle: Double?
        public let yawAngle: Double?

        public init(bounds: CGRect, rollAngle: Double?, yawAngle: Double?) {
            self.bounds = bounds
            self.rollAngle = rollAngle
            self.yawAngle = yawAngle
        }
    }

    /// A code's module matrix, for drawing: row-major, 1 for a dark module, no quiet zone.
    /// Linear codes are one row high; PDF417's rows are four matrix rows each.
    public struct Symbol: Sendable, Hashable {
        public let type: MetadataObjectType
        public let width: Int
        public let height: Int
        public let modules: [UInt8]

        public init(type: MetadataObjectType, width: Int, height: Int, modules: [UInt8]) {
            precondition(modules.count == width * height, "a \(width)x\(height) symbol has \(width * height) modules, not \(modules.count)")
            self.type = type
            self.width = width
            self.height = height
            self.modules = modules
        }

        /// Whether the module at column `x`, row `y` is dark.
        subscript(x x: Int, y y: Int) -> Bool { modules[y * width + x] != 0 }
    }
}
