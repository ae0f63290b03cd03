import CaptureKit

extension PipelineFile {
    /// A segmented `movie` output's `events`: what the camera sees that marks an event
    /// (`on: [code, face, motion]`), the seconds kept before and after (`pre`, `post`), whether
    /// each event's clip is written beside the segments (`clips`), and how motion is detected
    /// (`motion`).
    public struct EventsSpec: Sendable, Equatable {
        /// The triggers (`on`), each a ``MetadataEventTrigger/Kind``.
        public var triggers: Set<MetadataEventTrigger.Kind>
        /// Seconds before an event's first trigger (`pre`, 0 to 60; 5 when not given).
        public var preRoll: Double
        /// Seconds after its last trigger (`post`, 0 to 3600; 10 when not given).
        public var postRoll: Double
        /// Whether clips are written to the folder's `clips/` as well as the events marked in
        /// its index (`clips`; false when not given).
        public var writesClips: Bool
        /// Motion detection for a `motion` trigger (`motion`); CaptureKit's defaults when not given.
        public var motion: MotionDetectionSettings
        /// Where the `events` key is.
        public var location: SourceLocation

        public init(triggers: Set<MetadataEventTrigger.Kind>, preRoll: Double = 5, postRoll: Double = 10, writesClips: Bool = false,
                    motion: MotionDetectionSettings = MotionDetectionSettings(), location: SourceLocation) {
            self.triggers = triggers
            self.preRoll = preRoll
            self.postRoll = postRoll
            self.writesClips = writesClips
            self.motion = motion
            self.location = location
        }

        /// The recording's event settings.
        public var recording: EventRecording {
            EventRecording(preRoll: preRoll, postRoll: postRoll, writesClips: writesClips)
        }
    }
}
