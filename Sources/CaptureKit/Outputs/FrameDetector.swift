import Detectors
import Foundation
import GStreamerSwift
import Synchronization

/// Runs the detectors on GRAY8 frames: a metadata branch's, or a scanned file's.
///
/// Threading: `detect` runs on the appsink's thread, one frame at a time; it reads the settings
/// once per frame and hands the frame's objects to `deliver` on that thread (which must not
/// block: outputs pass them on to queues).
final class FrameDetector: Sendable {
    typealias Settings = @Sendable () -> (types: [MetadataObjectType], rectOfInterest: CGRect)

    private let passes: [BarcodeReader.Pass]
    private let settings: Settings
    private let deliver: @Sendable ([any MetadataObject]) -> Void
    /// Touched by the appsink thread only: the frame layout, object identities, and the reader
    /// made for the types last asked for (rebuilt only when they change).
    private let memory = Mutex((layouts: LayoutCache(), tracker: ObjectTracker(), reader: (types: [MetadataObjectType]?.none, reader: BarcodeReader?.none)))

    init(passes: [BarcodeReader.Pass], settings: @escaping Settings, deliver: @escaping @Sendable ([any MetadataObject]) -> Void) {
        self.passes = passes
        self.settings = settings
        self.deliver = deliver
    }

    func detect(_ sample: Sample) {
        let (types, rect) = settings()
        // Still images may come without a timestamp: they are time zero.
        let pts = sample.presentationTime ?? 0
        let prepared = memory.withLock { memory -> (VideoLayout, BarcodeReader)? in
            if memory.reader.types != types {
                let symbologies = Set(types.compactMap(\.symbology))
                memory.reader = (types, symbologies.isEmpty ? nil : BarcodeReader(symbologies: symbologies, passes: passes))
            }
            guard let reader = memory.reader.reader, let layout = memory.layouts.layout(of: sample) else { return nil }
            return (layout, reader)
        }
        guard let (layout, reader) = prepared else { return }
        let width = layout.width, height = layout.height
        let region = BarcodeReader.Region(rect, width: width, height: height)
        guard let codes = try? sample.withBytes({ bytes in
            reader.read(bytes, width: width, height: height, rowStride: layout.bytesPerRow[0], region: region)
        }) else { return }
        let time = CaptureTime(nanoseconds: pts)
        let objects: [any MetadataObject] = memory.withLock { memory in
            memory.tracker.forget(before: time)
            return codes.compactMap { code -> MachineReadableCodeObject? in
                guard let type = MetadataObjectType(code.symbology) else { return nil }
                let duration = memory.tracker.seen("\(type.rawValue)\u{1F}\(code.text)", at: time)
                let corners = code.corners.map { CGPoint(x: $0.x / Double(width), y: $0.y / Double(height)) }
                return MachineReadableCodeObject(type: type, stringValue: code.text, corners: corners, time: time, duration: duration)
            }
        }
        guard !objects.isEmpty else { return }
        deliver(objects)
    }
}
