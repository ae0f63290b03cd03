import CaptureKit
import Foundation

extension PipelineFile {
    /// The settings of a `metadata` output: codes found in the frames (`MetadataOutput`).
    public struct MetadataSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// The types looked for (`types: [qr, ean13, motion]`); every machine-readable code when not given.
        public var types: [MetadataObjectType]
        /// The part of the frame searched, normalised (`rect: [x, y, w, h]`); all of it when not given.
        public var rectOfInterest: CGRect
        /// Where each code is written as a JSON line when first seen, if given.
        public var path: String?
        /// The input the output is connected to and how.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `metadata` key).
        public var location: SourceLocation
        /// Where the `path` value is written; nil when the file does not write it (errors about the path
        /// then point at ``location``).
        public var pathLocation: SourceLocation?
        /// How motion is detected when `types` has `motion` (`motion`); nil for CaptureKit's defaults.
        public var motion: MotionDetectionSettings?

        public init(name: String, types: [MetadataObjectType], rectOfInterest: CGRect, path: String?,
                    connection: ConnectionSpec, location: SourceLocation, pathLocation: SourceLocation? = nil, motion: MotionDetectionSettings? = nil) {
            self.name = name
            self.types = types
            self.rectOfInterest = rectOfInterest
            self.path = path
            self.connection = connection
            self.location = location
            self.pathLocation = pathLocation
            self.motion = motion
        }
    }
}
