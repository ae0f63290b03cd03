import Foundation
import GStreamerSwift
import Synchronization

/// Runs the linked detectors (``MetadataDetection/linked``) on GRAY8 frames: a metadata branch's,
/// or a scanned file's; finds nothing in a process linked without them.
///
/// Threading: `detect` runs on the appsink's thread, one frame at a time; it reads the settings
/// once per frame and hands the frame's objects to `deliver` on that thread (which must not
/// block: outputs pass them on to queues).
final class FrameDetector: Sendable {
    typealias Settings = @Sendable () -> (types: [MetadataObjectType], rectOfInterest: CGRect)

    private let engine: (any MetadataDetection.Engine)?
    private let effort: MetadataFileScanner.Effort
    private let settings: Settings
    private let deliver: @Sendable ([any MetadataObject]) -> Void
    /// Whether the frame after the last object left is delivered, empty (AVFoundation's
    /// metadata output does this, so overlays clear).
    private let deliversEmptyAfterObjects: Bool
    /// Touched by the appsink thread only: the frame layout, object identities, the reader
    /// made for the types last asked for (rebuilt only when they change), and whether the last
    /// frame delivered had objects.
    private let memory = Mutex((layouts: LayoutCache(), tracker: ObjectTracker(), reader: (types: [MetadataObjectType]?.none, reader: (any MetadataDetection.CodeReader)?.none),
                                 faces: (any MetadataDetection.FaceFinder)?.none, hadObjects: false))

    /// `effort`: `.fast` for live frames, `.thorough` for still images (see ``MetadataDetection/Engine``).
    init(effort: MetadataFileScanner.Effort, deliversEmptyAfterObjects: Bool = false, engine: (any MetadataDetection.Engine)? = MetadataDetection.linked,
         settings: @escaping Settings, deliver: @escaping @Sendable ([any MetadataObject]) -> Void) {
        self.engine = engine
        self.effort = effort
        self.deliversEmptyAfterObjects = deliversEmptyAfterObjects
        self.settings = settings
        self.deliver = deliver
    }

    func detect(_ sample: Sample) {
        guard let engine else { return }
        let (types, rect) = settings()
        // Still images may come without a timestamp: they are time zero.
        let pts = sample.presentationTime ?? 0
        let prepared = memory.withLock { memory -> (VideoLayout, (any MetadataDetection.CodeReader)?, (any MetadataDetection.FaceFinder)?)? in
            if memory.reader.types != types {
                let codes = Set(types).intersection(MetadataObjectType.machineReadableCodes)
                memory.reader = (types, codes.isEmpty ? nil : engine.codeReader(for: codes, effort: effort))
                if types.contains(.face) && memory.faces == nil { memory.faces = engine.faceFinder(effort: effort) }
            }
            let faces = types.contains(.face) ? memory.faces : nil
            guard memory.reader.reader != nil || faces != nil, let layout = memory.layouts.layout(of: sample) else { return nil }
            return (layout, memory.reader.reader, faces)
        }
        guard let (layout, reader, faceDetector) = prepared else { return }
        let width = layout.width, height = layout.height
        let region = MetadataDetection.Region(rect, width: width, height: height)
        // The plane as mapped, honouring a driver's row padding (video meta) over the caps' layout.
        guard let (codes, faces) = try? sample.withPlanes({ planes in
            let plane = MetadataDetection.Plane(bytes: planes[0].bytes, width: width, height: height, bytesPerRow: planes[0].bytesPerRow)
            return (reader?.read(plane, region: region) ?? [], faceDetector?.find(plane) ?? [])
        }) else { return }
        let time = CaptureTime(nanoseconds: pts)
        let (objects, hadObjects) = memory.withLock { memory -> ([any MetadataObject], Bool) in
            memory.tracker.forget(before: time)
            var objects: [any MetadataObject] = codes.map { code in
                let duration = memory.tracker.seen("\(code.type.rawValue)\u{1F}\(code.text)", at: time)
                let corners = code.corners.map { CGPoint(x: $0.x / Double(width), y: $0.y / Double(height)) }
                return MachineReadableCodeObject(type: code.type, stringValue: code.text, corners: corners, time: time, duration: duration)
            }
            for face in faces {
                let box = CGRect(x: face.bounds.minX / Double(width), y: face.bounds.minY / Double(height),
                                 width: face.bounds.width / Double(width), height: face.bounds.height / Double(height))
                // Faces are searched in the whole frame; the rect of interest keeps those centred in it.
                guard rect.contains(CGPoint(x: box.midX, y: box.midY)) else { continue }
                let (id, duration) = memory.tracker.face(at: box, time: time)
                objects.append(FaceObject(faceID: id, bounds: box, rollAngle: face.rollAngle, yawAngle: face.yawAngle, time: time, duration: duration))
            }
            defer { memory.hadObjects = !objects.isEmpty }
            return (objects, memory.hadObjects)
        }
        guard !objects.isEmpty || (hadObjects && deliversEmptyAfterObjects) else { return }
        deliver(objects)
    }
}
