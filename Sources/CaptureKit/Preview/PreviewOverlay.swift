import Foundation

/// Outlines and labels a ``VideoPreview`` draws over its picture, in view coordinates (the
/// points of ``VideoPreview/bounds``): what an app on a UI toolkit would draw in layers above
/// the preview, for sinks an app cannot draw over (a window, a board's display, frames).
///
/// Place them with ``VideoPreview/transformedMetadataObject(for:)``: a code's corners become
/// a shape, its string the label.
public struct PreviewOverlay: Sendable, Hashable {
    /// A closed outline and the text shown beside it.
    public struct Shape: Sendable, Hashable {
        /// The outline's corners in view coordinates, in drawing order (closed back to the first).
        public var points: [CGPoint]
        /// Shown above the outline's top-left corner; nil for none.
        public var label: String?

        public init(points: [CGPoint], label: String? = nil) {
            self.points = points
            self.label = label
        }
    }

    /// The outlines drawn, in order; the first ``maximumLabels`` labels are shown.
    public var shapes: [Shape]

    /// How many labels are shown at once.
    public static let maximumLabels = 4

    public init(shapes: [Shape] = []) {
        self.shapes = shapes
    }
}
