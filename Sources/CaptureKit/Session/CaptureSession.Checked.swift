import Foundation
import Dispatch

extension CaptureSession {
    /// The session's calls in forms that throw a ``CaptureError`` naming what was refused, and
    /// its async forms, for new code: `try session.checked.addInput(input)`,
    /// `try await session.checked.startRunning()`.
    ///
    /// The AVFoundation-named calls on `CaptureSession` itself never throw and never suspend,
    /// as AVFoundation's do not, so AVFoundation code compiles unchanged (inside actors and
    /// async functions too).
    public struct Checked: Sendable {
        /// The session the calls change.
        public let session: CaptureSession

        /// Adds an input and connects it to every output that has no connection yet. Throws
        /// `inputAlreadyAdded` or `unsupportedPreset` (naming the presets that would work).
        public func addInput(_ input: any CaptureInput) throws(CaptureError) { try session.checkedAddInput(input) }

        /// Adds an input without forming connections.
        public func addInputWithNoConnections(_ input: any CaptureInput) throws(CaptureError) {
            try session.checkedAddInputWithNoConnections(input)
        }

        /// Removes an input and its connections; throws `notInSession` for an input the session lacks.
        public func removeInput(_ input: any CaptureInput) throws(CaptureError) { try session.checkedRemoveInput(input) }

        /// Adds an output and connects it; throws `outputAlreadyAdded` or `noCompatibleInput`.
        public func addOutput(_ output: any CaptureOutput) throws(CaptureError) { try session.checkedAddOutput(output) }

        /// Adds an output without forming connections.
        public func addOutputWithNoConnections(_ output: any CaptureOutput) throws(CaptureError) {
            try session.checkedAddOutputWithNoConnections(output)
        }

        /// Removes an output and its connections; throws `notInSession` for an output the session lacks.
        public func removeOutput(_ output: any CaptureOutput) throws(CaptureError) { try session.checkedRemoveOutput(output) }

        /// Adds a connection; throws when its ports or output are not in the session, or the
        /// output already has a connection of that media type.
        public func addConnection(_ connection: CaptureConnection) throws(CaptureError) { try session.checkedAddConnection(connection) }

        /// Removes a connection; throws `notInSession` for a connection the session lacks.
        public func removeConnection(_ connection: CaptureConnection) throws(CaptureError) {
            try session.checkedRemoveConnection(connection)
        }

        /// Commits a batch; throws `unbalancedConfiguration` without a begin, or the error that
        /// made the running pipeline stop (posted as a runtime error too).
        public func commitConfiguration() throws(CaptureError) { try session.checkedCommitConfiguration() }

        /// Builds and starts the pipeline, blocking until it runs; throws when the graph cannot
        /// run (an output without an input, a missing element, a device that fails to start).
        public func startRunning() throws(CaptureError) { try session.checkedStartRunning() }

        /// `startRunning()` without blocking the caller's thread: the start runs on the
        /// session's executor and the caller resumes when the session runs or failed.
        public func startRunning() async throws(CaptureError) {
            let session = session
            // The request's transition, not a blocking call on the executor: a start that
            // finishes at a later event (a WHEP server binding its port) gets its own error.
            let started = try await session.executor.perform { (transition: Transition<Bool, CaptureError>) in
                session.start(transition, nested: false)
            }
            if started { NotificationCenter.default.post(name: CaptureSession.didStartRunningNotification, object: session) }
        }

        /// `stopRunning()` without blocking the caller's thread: the stop runs on the
        /// session's executor.
        public func stopRunning() async {
            let session = session
            await session.executor.perform { session.stopRunning() }
        }
    }

    /// The session's calls in forms that throw, and its async forms; see ``Checked``.
    public var checked: Checked { Checked(session: self) }
}
