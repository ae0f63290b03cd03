import Foundation
import GStreamerSwift
import Synchronization

/// Runs the linked detectors (``MetadataDetection/linked``) on GRAY8 frames: a metadata branch's,
/// or a scanned file's; finds no codes or faces in a process linked without them. A live
/// branch's detector also looks for motion (``MotionDetector``) when asked.
///
/// Threading: `detect` runs on the appsink's thread, one frame at a time; it reads the settings
/// once per frame and hands the frame's objects to `deliver` on that thread (which must not
/// block: outputs pass them on to queues).
final class FrameDetector: Sendable {
    typealias Settings = @Sendable () -> (types: [MetadataObjectType], rectOfInterest: CGRect)

    /// What motion detection reads once per analysed frame: its settings, and a count of the
    /// changes to the device's own settings (white balance, exposure, torch, focus, zoom), after
    /// each of which frames for ``quietAfterDeviceChange`` only become the reference.
    struct MotionFeed: Sendable {
        let settings: @Sendable () -> MotionDetectionSettings
        let deviceChanges: @Sendable () -> Int
    }

    /// How long after a change of the device's settings motion is not compared: a camera applies
    /// a control over a few frames.
    static let quietAfterDeviceChange: UInt64 = 400_000_000

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
    private let motionFeed: MotionFeed?
    /// Touched by the appsink thread only: the motion detector, the device's change count it
    /// last saw, and the time until which frames only become the reference.
    private let motion = Mutex((detector: MotionDetector(), deviceChanges: Int?.none, quietUntil: UInt64(0)))

    /// `effort`: `.fast` for live frames, `.thorough` for still images (see ``MetadataDetection/Engine``).
    init(effort: MetadataFileScanner.Effort, deliversEmptyAfterObjects: Bool = false, engine: (any MetadataDetection.Engine)? = MetadataDetection.linked,
         motion: MotionFeed? = nil, settings: @escaping Settings, deliver: @escaping @Sendable ([any MetadataObject]) -> Void) {
        self.engine = engine
        motionFeed = motion
        self.effort = effort
        self.deliversEmptyAfterObjects = deliversEmptyAfterObjects
        self.settings = settings
        self.deliver = deliver
    }

    func detect(_ sample: Sample) {
        let (types, rect) = settings()
        // Still images may come without a timestamp: they are time zero.
        let pts = sample.presentationTime ?? 0
        let objects = (engine.map { codesAndFaces(in: sample, engine: $0, types: types, rect: rect, pts: pts) } ?? [])
            + (types.contains(.motion) ? motion(in: sample, pts: pts) : [])
        let hadObjects = memory.withLock { memory in
            defer { memory.hadObjects = !objects.isEmpty }
            return memory.hadObjects
        }
        guard !objects.isEmpty || (hadObjects && deliversEmptyAfterObjects) else { return }
        deliver(objects)
    }

    /// The motion in a frame due for analysis; none for the others.
    private func motion(in sample: Sample, pts: UInt64) -> [any MetadataObject] {
        guard let motionFeed else { return [] }
        let settings = motionFeed.settings()
        // Only this streaming thread analyses, so a frame due here is still due below; the
        // device's lock is taken only for those.
        let due = motion.withLock { motion in
            motion.detector.configure(settings)
            return motion.detector.isDue(pts)
        }
        guard due else { return [] }
        let changes = motionFeed.deviceChanges()
        return motion.withLock { motion -> [any MetadataObject] in
            guard let layout = memory.withLock({ $0.layouts.layout(of: sample) }) else { return [] }
            if let seen = motion.deviceChanges, seen != changes { motion.quietUntil = pts + Self.quietAfterDeviceChange }
            motion.deviceChanges = changes
            let settled = pts >= motion.quietUntil
            let regions = (try? sample.withPlanes { planes in
                motion.detector.analyse(planes[0].bytes, width: layout.width, height: layout.height, bytesPerRow: planes[0].bytesPerRow,
                                        time: pts, settled: settled)
            }) ?? []
            let time = CaptureTime(nanoseconds: pts)
            return regions.map { MotionObject(bounds: $0.bounds, changedArea: $0.area, score: $0.score, time: time) }
        }
    }

    /// The codes and faces in a frame, with their identities and durations.
    private func codesAndFaces(in sample: Sample, engine: any MetadataDetection.Engine, types: [MetadataObjectType], rect: CGRect,
                               pts: UInt64) -> [any MetadataObject] {
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
        guard let (layout, reader, faceDetector) = prepared else { return [] }
        let width = layout.width, height = layout.height
        let region = MetadataDetection.Region(rect, width: width, height: height)
        // The plane as mapped, honouring a driver's row padding (video meta) over the caps' layout.
        guard let (codes, faces) = try? sample.withPlanes({ planes in
            let plane = MetadataDetection.Plane(bytes: planes[0].bytes, width: width, height: height, bytesPerRow: planes[0].bytesPerRow)
            return (reader?.read(plane, region: region) ?? [], faceDetector?.find(plane) ?? [])
        }) else { return [] }
        let time = CaptureTime(nanoseconds: pts)
        return memory.withLock { memory -> [any MetadataObject] in
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
            return objects
        }
    }
}
