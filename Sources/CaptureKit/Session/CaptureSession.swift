import Foundation
import Observation
import Synchronization

/// Coordinates inputs, outputs and their connections, and runs them as one GStreamer pipeline
/// (AVCaptureSession).
///
/// Every method may be called from any thread. `startRunning()`/`stopRunning()` block until the
/// pipeline has started or stopped; async forms exist beside them. Changes between
/// `beginConfiguration()` and `commitConfiguration()` apply together; on a running session the
/// commit changes only what differs in the running pipeline (an output's branch added or
/// removed, a camera's source swapped) while everything else keeps running: presentation
/// times continue, and the other outputs see no gap.
public final class CaptureSession: Sendable, Observable {
    /// Where the session is in its life. One value behind the state lock, changed only by steps
    /// on the session's executor.
    enum RunState: Sendable, Equatable {
        case idle, starting, running, reconfiguring, stopping, failed
    }

    struct State {
        var inputs: [any CaptureInput] = []
        var outputs: [any OutputNode] = []
        /// Each output's stable number, given when it is added: its branch's key `outputN`.
        var outputKeys: [ObjectIdentifier: Int] = [:]
        var nextOutputKey = 0
        var connections: [CaptureConnection] = []
        var preset: SessionPreset = .high
        var configurationDepth = 0
        var runState = RunState.idle
        /// An input's device gone or busy while running.
        var interruption: Interruption?
        var runtime: SessionRuntime?
        /// Counts pipelines built, to tell a current pipeline's messages from a stopped one's.
        var generation = 0

        var isRunning: Bool { runState == .running || runState == .reconfiguring }

        /// Numbers a newly added output.
        mutating func key(_ output: any OutputNode) {
            outputKeys[ObjectIdentifier(output)] = nextOutputKey
            nextOutputKey += 1
        }
    }

    let state = Mutex(State())
    /// The session's serial executor for the running pipeline: start, stop, commit, branch
    /// failures and interruptions change it one at a time, in the order they were asked for.
    let executor = SessionExecutor()
    let registrar = ObservationRegistrar()
    /// Where runtime-error notifications are posted: off the bus thread, in order.
    let notifications = DispatchQueue(label: "capturekit.session.notifications")

    /// What this session shares with the others of its context (the encoder choice).
    public let context: CaptureContext

    /// A session of `context` (``CaptureContext/shared`` unless given).
    public init(context: CaptureContext = .shared) {
        self.context = context
    }

    /// The inputs, in the order added.
    public var inputs: [any CaptureInput] { state.withLock { $0.inputs } }

    /// The outputs, in the order added. A ``VideoPreview`` is not one, as AVFoundation's preview
    /// layer is not: a loop that removes every output leaves the preview in place.
    public var outputs: [any CaptureOutput] { state.withLock { $0.outputs.filter { !($0 is VideoPreview) } } }

    /// Every connection of the session, the preview's included (as in AVFoundation).
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    /// Whether the pipeline is running (observable).
    public var isRunning: Bool {
        registrar.access(self, keyPath: \.isRunning)
        return state.withLock { $0.isRunning }
    }

    /// Moves to `runState`, announcing `isRunning` when it changes.
    func setRunState(_ runState: RunState) {
        let (was, now) = state.withLock { state in
            let was = state.isRunning
            state.runState = runState
            return (was, state.isRunning)
        }
        guard was != now else { return }
        registrar.withMutation(of: self, keyPath: \.isRunning) {}
    }

    /// The `gst-launch-1.0` line for the pipeline the session runs (or would run now).
    public var pipelineDescription: String { pipelinePlan.launchDescription }

    /// The plan the session runs (or would run now).
    @_spi(Plan) public var pipelinePlan: PipelinePlan {
        let graph = graph()
        return PipelineCompiler.compile(graph, environment: context.compilerEnvironment(for: graph))
    }

    /// The graph the compiler reads: enabled connections of inputs that are in the session.
    func graph() -> SessionGraph {
        state.withLock { state in
            var inputs: [SessionGraph.Input] = []
            var branches: [SessionGraph.Branch] = []
            var inputIndex: [CaptureDevice: Int] = [:]
            for input in state.inputs {
                guard let device = (input as? CaptureDeviceInput)?.device else { continue }
                inputIndex[device] = inputs.count
                inputs.append(.init(name: "input\(inputs.count)", device: device, mediaType: device.hasMediaType(.video) ? .video : .audio,
                                    format: device.activeFormat, frameRate: device.activeFrameRate))
            }
            for output in state.outputs where output.wantsBranch {
                let key = state.outputKeys[ObjectIdentifier(output)] ?? 0
                var ports: [SessionGraph.Branch.Port] = []
                for mediaType in output.mediaTypes where !ports.contains(where: { inputs[$0.input].mediaType == mediaType }) {
                    for connection in state.connections where connection.output === output && connection.isEnabled {
                        guard let port = connection.inputPorts.first, port.mediaType == mediaType, let index = inputIndex[port.device],
                              connection.inputPorts.allSatisfy(\.isEnabled) else { continue }
                        ports.append(.init(input: index, connection: connection))
                        break
                    }
                }
                guard ports.first.map({ inputs[$0.input].mediaType == output.mediaType }) == true else { continue }
                branches.append(.init(name: "output\(key)", output: output, ports: ports))
            }
            return SessionGraph(inputs: inputs, branches: branches)
        }
    }
}
