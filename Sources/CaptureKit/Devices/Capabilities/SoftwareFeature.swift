/// What CaptureKit computes itself, where a device does not (SPEC.md's device controls).
enum SoftwareFeature: String, Sendable {
    /// A contrast-detect sweep over the lens (manual focus, no autofocus).
    case contrastDetectAutoFocus
    /// Lens moves spread over frames when CaptureKit drives the lens.
    case lensMoveSmoothing
    /// An exposure loop driving exposure time and gain towards the metered target.
    case exposureLoop
    /// The metered offset from the exposure target, in EV.
    case exposureMetering
    /// Gray-world gains over the centre 50% of the frame.
    case grayWorld
    /// Crop around the centre and scale (videocrop + videoscale).
    case digitalZoom
    /// A frame-difference detector.
    case subjectAreaChangeDetector
}
