import Foundation
import GStreamerSwift
import Synchronization

extension MetadataOutput {
    /// The widest frame the detectors look at; larger sources are scaled down to it.
    static let maxDetectionWidth = 1280

    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        var caps = "video/x-raw,format=GRAY8"
        var chain: [PipelinePlan.Element] = [
            .init("queue", .queue, in: prefix, [.init("max-size-buffers", 1), .init("leaky", .nick("downstream"))]),
            .init("videoconvert", .convert, in: prefix),
        ]
        if source.width > Self.maxDetectionWidth {
            let height = source.height * Self.maxDetectionWidth / source.width / 2 * 2
            chain.append(.init("videoscale", .scale, in: prefix))
            caps += ",width=\(Self.maxDetectionWidth),height=\(height)"
        }
        chain.append(.init("capsfilter", .format, in: prefix, [.init("caps", .caps(caps))]))
        chain.append(.init("appsink", .sink, in: prefix, [
            .init("sync", false), .init("async", false), .init("emit-signals", false), .init("enable-last-sample", false),
            .init("max-buffers", 1), .init("drop", true), .init("wait-on-eos", false),
        ]))
        return chain
    }

    func attach(_ branch: RunningBranch) throws(CaptureError) {
        let slot = branch.slot
        let connection = slot.connection
        let motion = FrameDetector.MotionFeed(settings: { [weak self] in self?.state.withLock { $0.motion } ?? MotionDetectionSettings() },
                                              deviceChanges: { connection.device?.ownSettingsChanges ?? 0 })
        let detector = FrameDetector(effort: .fast, deliversEmptyAfterObjects: true, motion: motion, settings: { [weak self] in
            self?.state.withLock { ($0.types, $0.rectOfInterest) } ?? ([], .zero)
        }, deliver: { [weak self] objects in self?.deliver(objects, from: connection) })
        AppSink.setHandlers(.init(newSample: { sample in detector.detect(sample) }), on: try branch.element(.sink))
        // Frames the detectors do not want (motion alone wants a few a second) stop before the
        // conversion to gray. Runs on the branch's streaming thread: atomics only.
        let gate = gate, passed = MetadataFrameGate.Passed(), queue = try branch.element(.queue)
        do {
            try queue.staticPad("src").addBufferProbe { buffer in gate.admits(buffer.presentationTime, passed: passed) ? .pass : .drop }
        } catch {
            throw .pipelineFailed(error)
        }
    }

    func detach(error: CaptureError) { state.withLock { $0.faces = [] } }

    /// The faces in view at the last frame examined (empty unless faces are among the types).
    var facesInView: [FaceObject] { state.withLock { $0.faces } }

    /// Hands a frame's objects to the streams and the delegate.
    func deliver(_ objects: [any MetadataObject], from connection: CaptureConnection) {
        let faces = objects.compactMap { $0 as? FaceObject }
        let (delivery, streams) = state.withLock { state in
            state.faces = faces
            return (state.delivery, state.subscribers.all)
        }
        for stream in streams { stream.yield(objects) }
        guard delivery.delegate != nil, let queue = delivery.queue else { return }
        queue.async { delivery.delegate?.metadataOutput(self, didOutput: objects, from: connection) }
    }
}
