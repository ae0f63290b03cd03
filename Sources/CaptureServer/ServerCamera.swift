import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// The one session behind the server: the device's video into a ``StreamOutput`` for WebRTC
/// viewers (one encode, however many), a ``StillImageOutput`` (stills at the format's full
/// size while the stream runs), a ``MovieFileOutput`` (its branch only while recording, on the
/// same encode), and, only while someone watches them, a ``MetadataOutput`` for
/// `/ws/metadata` and a JPEG ``VideoPreview`` for `/mjpeg`.
///
/// Threading: what blocks on the session (starting, stopping, switching the device,
/// reconfiguring) runs on ``work``, one change at a time, off Swift concurrency's threads;
/// state is behind ``state``'s lock.
final class ServerCamera: Sendable {
    struct State {
        var input: CaptureDeviceInput
        var recording: RecordingJob?
        var running = false
    }

    let session: CaptureSession
    let stream: StreamOutput
    let still = StillImageOutput()
    let movie = MovieFileOutput()
    let recordings: RecordingsDirectory
    let state: Mutex<State>
    let work = DispatchQueue(label: "CaptureServer.camera")
    let metadata: MetadataFeed
    let frames: FrameFeed
    /// `/api/record/start` and `/api/record/stop`, one at a time.
    let recordCommands = SerialQueue()
    /// The continuous recording, when the server has one, and its events.
    let continuous: SegmentedMovieFileOutput?
    let events = EventFeed()
    /// What marks events from what the camera sees (`--on`): its metadata output's delegate.
    let trigger: MetadataEventTrigger?
    /// Where the continuous recording's segments go: `continuous/` in the recordings' folder.
    var continuousFolder: URL { recordings.url.appendingPathComponent("continuous", isDirectory: true) }

    /// The continuous recording's settings.
    struct Continuous {
        var segmentDuration: Double
        var retention = SegmentRetention()
        var events = EventRecording(writesClips: false)
        var triggers: Set<MetadataEventTrigger.Kind> = []
        var motion = MotionDetectionSettings()
    }

    /// A camera for the device `reference` (as `capture devices` names it) among `context`'s,
    /// recording into `recordings`, and continuously when asked, every encoded picture with
    /// `overlay` (one encode for the stream and both recordings). Throws for an unknown device.
    init(device reference: String, preset: SessionPreset, recordings: RecordingsDirectory, context: CaptureContext,
         continuous settings: Continuous? = nil, overlay: VideoOverlay? = nil) throws(CaptureError) {
        session = CaptureSession(context: context)
        let device = try context.find(reference)
        let input = try CaptureDeviceInput(device: device)
        let encoding = VideoCodecSettings(overlay: overlay)
        stream = try StreamOutput(target: .webRTC, videoSettings: encoding)
        self.recordings = recordings
        try session.setSessionPreset(preset)
        try session.checked.addInput(input)
        try session.checked.addOutput(stream)
        try session.checked.addOutput(still)
        try session.checked.addOutput(movie)
        if overlay != nil, let connection = movie.connection(with: .video) { try movie.setOutputSettings(encoding, for: connection) }
        if let settings {
            let output = SegmentedMovieFileOutput()
            try output.setSegmentDuration(CaptureTime(seconds: settings.segmentDuration, preferredTimescale: 1000))
            try output.setRetention(settings.retention)
            var events = settings.events
            events.writesClips = false
            try output.setEventRecording(events)
            if overlay != nil { try output.setOutputSettings(encoding) }
            try session.checked.addOutput(output)
            continuous = output
            if !settings.triggers.isEmpty {
                let trigger = MetadataEventTrigger(recording: output, kinds: settings.triggers)
                let seen = MetadataOutput()
                try session.checked.addOutput(seen)
                try trigger.watch(seen, motion: settings.motion, queue: DispatchQueue(label: "CaptureServer.triggers"))
                self.trigger = trigger
            } else {
                trigger = nil
            }
        } else {
            continuous = nil
            trigger = nil
        }
        state = Mutex(State(input: input))
        metadata = MetadataFeed(session: session)
        frames = FrameFeed(session: session)
    }

    /// Runs `body` on ``work`` and returns what it returns.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws(CaptureError) -> T) async throws(CaptureError) -> T {
        let result: Result<T, CaptureError> = await withCheckedContinuation { continuation in
            work.async {
                do throws(CaptureError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Starts the session; returns once frames flow.
    func start() async throws(CaptureError) {
        try await perform { [self] () throws(CaptureError) in
            try session.checked.startRunning()
            state.withLock { $0.running = true }
            try continuous?.startRecording(to: continuousFolder, delegate: events)
        }
    }

    /// Finishes a recording in progress, ends every feed, stops the session.
    func stop() async {
        if state.withLock({ $0.recording }) != nil { _ = try? await stopRecording() }
        if let continuous, continuous.isRecording {
            continuous.stopRecording()
            await events.recordingFinished()
        }
        events.finishAll()
        metadata.finishAll()
        frames.finishAll()
        _ = try? await perform { [self] () throws(CaptureError) in
            state.withLock { $0.running = false }
            session.stopRunning()
        }
    }

    /// The device in use.
    var device: CaptureDevice { state.withLock { $0.input.device } }

    /// The cameras there are, in the session's context.
    func cameras() -> [CaptureDevice] {
        let context = session.context
        var devices = context.devices(for: .video)
        for virtual in ["virtual", "virtual-front"] {
            if let camera = try? context.find(virtual), !devices.contains(camera) { devices.append(camera) }
        }
        return devices
    }

    /// Switches the session to the camera `uniqueID` while it runs: the live runtime replaces
    /// the source; the outputs' branches (the WebRTC viewers, a recording) stay. Throws
    /// `deviceNotFound` naming the cameras there are.
    func switchDevice(to uniqueID: String) async throws(CaptureError) -> CaptureDevice {
        let cameras = self.cameras()
        guard let device = cameras.first(where: { $0.uniqueID == uniqueID }) else {
            throw .deviceNotFound(uniqueID, available: cameras.map(\.uniqueID))
        }
        return try await perform { [self] () throws(CaptureError) in
            let current = state.withLock { $0.input }
            guard current.device != device else { return device }
            let next = try CaptureDeviceInput(device: device)
            session.beginConfiguration()
            do throws(CaptureError) {
                try session.checked.removeInput(current)
                try session.checked.addInput(next)
                try session.checked.commitConfiguration()
            } catch {
                // Back to the camera that worked.
                if session.inputs.contains(where: { $0 === next }) { try? session.checked.removeInput(next) }
                if !session.inputs.contains(where: { $0 === current }) { try? session.checked.addInput(current) }
                try? session.checked.commitConfiguration()
                throw error
            }
            state.withLock { $0.input = next }
            return device
        }
    }

    /// A still at the active format's full size: JPEG with EXIF (the device's exposure, ISO,
    /// focal length, time, orientation).
    func snap() async throws(CaptureError) -> Data {
        guard state.withLock({ $0.running }), let connection = still.connection(with: .video) else { throw .sessionNotRunning }
        let sample = try await still.captureStillImage(from: connection)
        return try StillImageOutput.jpegStillImageData(from: sample)
    }
}
