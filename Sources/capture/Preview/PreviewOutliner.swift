import CaptureKit
import Foundation

/// Keeps a preview's overlay on what a metadata output sees: each code's corners, and each
/// face's box, in the preview's view coordinates (``VideoPreview/transformedMetadataObject(for:)``),
/// labelled with the code's string.
final class PreviewOutliner: Sendable {
    private let task: Task<Void, Never>

    init(preview: VideoPreview, metadata: MetadataOutput) {
        let batches = metadata.metadataObjects(bufferingNewest: 1)
        task = Task {
            for await objects in batches {
                preview.overlay = PreviewOverlay(shapes: objects.compactMap { object in Self.shape(for: object, in: preview) })
            }
        }
    }

    /// The outline of `object` as the preview shows it.
    static func shape(for object: any MetadataObject, in preview: VideoPreview) -> PreviewOverlay.Shape? {
        guard let shown = preview.transformedMetadataObject(for: object) else { return nil }
        if let code = shown as? MachineReadableCodeObject {
            return PreviewOverlay.Shape(points: code.corners, label: code.stringValue.map { "\(code.type.name): \($0)" })
        }
        let box = shown.bounds
        return PreviewOverlay.Shape(points: [CGPoint(x: box.minX, y: box.minY), CGPoint(x: box.maxX, y: box.minY),
                                             CGPoint(x: box.maxX, y: box.maxY), CGPoint(x: box.minX, y: box.maxY)],
                                    label: shown.type.name)
    }

    func stop() { task.cancel() }
}
