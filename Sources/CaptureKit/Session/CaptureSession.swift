import Foundation
import Observation
import Synchronization

/// Coordinates inputs, outputs and their connections, and runs them as one GStreamer pipeline
/// (AVCaptureSession).
///
/// Every method may be called from any thread. `startRunning()`/`stopRunning()` block until the
/// pipeline has started or stopped; async forms exist beside them. Changes between
/// `beginConfiguration()` and `commitConfiguration()` apply together; on a running session the
/// commit rebuilds the pipeline from the new graph without a `didStopRunning`.
public final class CaptureSession: Sendable, Observable {
    struct State {
        var inputs: [any CaptureInput] = []
        var outputs: [any OutputNode] = []
        var connections: [CaptureConnection] = []
        var preset: SessionPreset = .high
        var configurationDepth = 0
        var isRunning = false
        var runtime: PipelineRuntime?
        /// Counts pipelines built, to tell a current pipeline's messages from a replaced one's.
        var generation = 0
    }

    let state = Mutex(State())
    /// Serialises start, stop and commit so the pipeline changes one at a time.
    let transitions = Mutex(())
    let registrar = ObservationRegistrar()
    /// Where runtime-error notifications are posted: off the bus thread, in order.
    let notifications = DispatchQueue(label: "capturekit.session.notifications")

    public init() {
        Self.register(self)
    }

    /// The inputs, in the order added.
    public var inputs: [any CaptureInput] { state.withLock { $0.inputs } }

    /// The outputs, in the order added.
    public var outputs: [any CaptureOutput] { state.withLock { $0.outputs } }

    /// Every connection of the session.
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    /// Whether the pipeline is running (observable).
    public var isRunning: Bool {
        registrar.access(self, keyPath: \.isRunning)
        return state.withLock { $0.isRunning }
    }

    func setRunning(_ running: Bool) {
        registrar.withMutation(of: self, keyPath: \.isRunning) {
            state.withLock { $0.isRunning = running }
        }
    }

    /// The `gst-launch-1.0` line for the pipeline the session runs (or would run now).
    public var pipelineDescription: String {
        PipelineCompiler.compile(graph()).launchDescription
    }

    /// The plan the session runs (or would run now).
    public var pipelinePlan: PipelinePlan {
        PipelineCompiler.compile(graph())
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
                inputs.append(.init(name: "input\(inputs.count)", device: device,
                                    format: device.activeFormat, frameRate: device.activeFrameRate))
            }
            for (outputIndex, output) in state.outputs.enumerated() {
                for connection in state.connections where connection.output === output && connection.isEnabled {
                    guard let device = connection.device, let index = inputIndex[device],
                          connection.inputPorts.allSatisfy(\.isEnabled) else { continue }
                    branches.append(.init(name: "output\(outputIndex)", input: index, output: output, connection: connection))
                    break
                }
            }
            return SessionGraph(inputs: inputs, branches: branches)
        }
    }
}
