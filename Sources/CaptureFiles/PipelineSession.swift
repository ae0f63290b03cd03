@_spi(Plan) import CaptureKit

/// A capture session built one to one from a ``PipelineFile``, with the objects behind each of the
/// file's inputs and outputs.
///
/// Make one with ``PipelineFile/makeSession()``, inspect ``session`` (for example its
/// `pipelineDescription`), then ``run(writingTo:replacingExistingFiles:timeout:)`` it. The session is not running until
/// a run starts it, and a run leaves it stopped.
public final class PipelineSession: Sendable {
    /// The pipeline file the session was built from.
    public let file: PipelineFile
    /// The capture session: the file's preset, inputs, outputs and connections.
    public let session: CaptureSession
    /// The device input of each of the file's inputs, in file order.
    public let inputs: [CaptureDeviceInput]
    /// The capture output of each of the file's outputs, in file order: a `StillImageOutput` for
    /// each `still`, a `VideoDataOutput` for each `videoData`, a `MetadataOutput` for each
    /// `metadata` and an `AudioDataOutput` for each `audioData`.
    public let outputs: [any CaptureOutput]
    /// The connection feeding each of the file's outputs, in file order.
    public let connections: [CaptureConnection]
    /// What marks the segmented movies' events (each the delegate of a metadata output the
    /// session has besides the file's own).
    let eventTriggers: [MetadataEventTrigger]

    /// Creates the value for a session that has been built from `file`.
    init(
        file: PipelineFile,
        session: CaptureSession,
        inputs: [CaptureDeviceInput],
        outputs: [any CaptureOutput],
        connections: [CaptureConnection],
        eventTriggers: [MetadataEventTrigger] = []
    ) {
        self.file = file
        self.session = session
        self.inputs = inputs
        self.outputs = outputs
        self.connections = connections
        self.eventTriggers = eventTriggers
    }

    /// The device input built for the file's input called `name`, if there is one.
    /// - Parameter name: The input's name in the file.
    /// - Returns: The input, or nil.
    public func input(named name: String) -> CaptureDeviceInput? {
        file.inputs.firstIndex { $0.name == name }.map { inputs[$0] }
    }

    /// The capture output built for the file's output called `name`, if there is one.
    /// - Parameter name: The output's name in the file.
    /// - Returns: The output, or nil.
    public func output(named name: String) -> (any CaptureOutput)? {
        file.outputs.firstIndex { $0.name == name }.map { outputs[$0] }
    }

    /// The frame rate the session runs the file's input at `index` with, read from the compiled
    /// plan's caps; nil when the plan has no rate for it.
    func plannedFrameRate(ofInputAt index: Int) -> Double? {
        let plan = session.pipelinePlan
        guard case .caps(let caps) = plan.elements.first(where: { $0.name == "input\(index)_caps" })?
            .properties.first(where: { $0.name == "caps" })?.value,
            let field = caps.split(separator: ",").first(where: { $0.hasPrefix("framerate=") })
        else { return nil }
        let fraction = field.dropFirst("framerate=".count).split(separator: "/")
        guard let numerator = fraction.first.flatMap({ Double($0) }) else { return nil }
        let denominator = fraction.count > 1 ? Double(fraction[1]) ?? 1 : 1
        return denominator > 0 ? numerator / denominator : nil
    }
}
