import Detectors
import Foundation
import GStreamerSwift
import Synchronization

extension MetadataOutput {
    /// The widest frame the detectors look at; larger sources are scaled down to it.
    static let maxDetectionWidth = 1280

    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        var caps = "video/x-raw,format=GRAY8"
        var chain: [PipelinePlan.Element] = [
            .init("queue", name: "\(prefix)_queue", [.init("max-size-buffers", "1"), .init("leaky", "downstream")]),
            .init("videoconvert", name: "\(prefix)_convert"),
        ]
        if source.width > Self.maxDetectionWidth {
            let height = source.height * Self.maxDetectionWidth / source.width / 2 * 2
            chain.append(.init("videoscale", name: "\(prefix)_scale"))
            caps += ",width=\(Self.maxDetectionWidth),height=\(height)"
        }
        chain.append(.init("capsfilter", name: "\(prefix)_format", [.init("caps", caps)]))
        chain.append(.init("appsink", name: "\(prefix)_sink", [
            .init("sync", "false"), .init("async", "false"), .init("emit-signals", "false"), .init("enable-last-sample", "false"),
            .init("max-buffers", "1"), .init("drop", "true"), .init("wait-on-eos", "false"),
        ]))
        return chain
    }

    func attach(_ branch: RunningBranch) throws(CaptureError) {
        let detector = FrameDetector(output: self, connection: branch.connection)
        AppSink.setHandlers(.init(newSample: { sample in detector.detect(sample) }), on: try branch.element("sink"))
    }

    func detach() {}

    /// Hands a frame's objects to the streams and the delegate.
    func deliver(_ objects: [any MetadataObject], from connection: CaptureConnection) {
        let (delivery, streams) = state.withLock { ($0.delivery, Array($0.streams.values)) }
        for stream in streams { stream.yield(objects) }
        guard let delegate = delivery.delegate, let queue = delivery.queue else { return }
        queue.async { delegate.metadataOutput(self, didOutput: objects, from: connection) }
    }
}

/// Runs the detectors on one running branch's GRAY8 frames.
///
/// Threading: `detect` runs on the branch's appsink thread (behind its leaky queue), one frame
/// at a time; it reads the output's settings once per frame and delivers through the output.
final class FrameDetector: Sendable {
    private let output: MetadataOutput
    private let connection: CaptureConnection
    private let memory = Mutex((layouts: LayoutCache(), tracker: ObjectTracker()))

    init(output: MetadataOutput, connection: CaptureConnection) {
        self.output = output
        self.connection = connection
    }

    func detect(_ sample: Sample) {
        let (types, rect) = output.state.withLock { ($0.types, $0.rectOfInterest) }
        let symbologies = Set(types.compactMap(\.symbology))
        guard !symbologies.isEmpty, let pts = sample.presentationTime,
              let layout = memory.withLock({ $0.layouts.layout(of: sample) }) else { return }
        let reader = BarcodeReader(symbologies: symbologies)
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
        output.deliver(objects, from: connection)
    }
}

extension BarcodeReader.Region {
    /// A normalised rect of a `width` x `height` frame in pixels; nil for the whole frame.
    init?(_ rect: CGRect, width: Int, height: Int) {
        guard rect != CGRect(x: 0, y: 0, width: 1, height: 1) else { return nil }
        self.init(x: Int((rect.minX * Double(width)).rounded(.down)), y: Int((rect.minY * Double(height)).rounded(.down)),
                  width: Int((rect.width * Double(width)).rounded(.up)), height: Int((rect.height * Double(height)).rounded(.up)))
    }
}
