import Foundation

/// Triggers a ``SegmentedMovieFileOutput``'s events from what a ``MetadataOutput`` sees. Made the
/// metadata output's delegate, it triggers an event of each kind it watches that a batch holds
/// (`code`, `face` or `motion`), with the union of those objects' bounds.
///
/// ```swift
/// let trigger = MetadataEventTrigger(recording: segments, kinds: [.motion, .face])
/// let metadata = MetadataOutput()
/// try session.addOutput(metadata)
/// try trigger.watch(metadata, motion: MotionDetectionSettings(), queue: DispatchQueue(label: "triggers"))
/// ```
///
/// The metadata output only delivers batches with objects in them (and one empty batch when
/// the last leaves), so a face in view keeps extending its event by the post-roll, and motion
/// triggers on each analysed frame it is seen in.
///
/// Threading: the delegate method runs on the metadata output's delegate queue and only calls
/// ``SegmentedMovieFileOutput/triggerEvent(_:bounds:)``, which never waits.
public final class MetadataEventTrigger: MetadataOutputObjectsDelegate, Sendable {
    /// What triggers an event; its raw value is the event's kind.
    public enum Kind: String, CaseIterable, Sendable, Hashable {
        /// A machine-readable code, any symbology.
        case code
        case face
        case motion

        /// The metadata types that trigger this kind.
        public var metadataObjectTypes: [MetadataObjectType] {
            switch self {
            case .code: MetadataObjectType.machineReadableCodes
            case .face: [.face]
            case .motion: [.motion]
            }
        }

        init(_ type: MetadataObjectType) {
            self = type == .face ? .face : type == .motion ? .motion : .code
        }
    }

    /// The recording whose events are triggered.
    public let recording: SegmentedMovieFileOutput
    /// The kinds watched.
    public let kinds: Set<Kind>

    public init(recording: SegmentedMovieFileOutput, kinds: Set<Kind>) {
        self.recording = recording
        self.kinds = kinds
    }

    /// The metadata types to ask the metadata output for, in ``Kind``'s order (filter by its
    /// `availableMetadataObjectTypes`: codes and faces need the detectors product).
    public var metadataObjectTypes: [MetadataObjectType] {
        Kind.allCases.filter(kinds.contains).flatMap(\.metadataObjectTypes)
    }

    /// Makes `metadata` look for the kinds watched (motion with `motion`'s settings) and deliver
    /// its batches to this trigger on `queue`.
    ///
    /// - Throws: ``CaptureError/Code/unsupported`` naming a kind's detector the metadata output
    ///   does not have (codes and faces need the detectors product), before changing anything.
    public func watch(_ metadata: MetadataOutput, motion: MotionDetectionSettings, queue: DispatchQueue) throws(CaptureError) {
        let available = metadata.availableMetadataObjectTypes
        if let missing = metadataObjectTypes.first(where: { !available.contains($0) }) {
            throw .unsupported(feature: "\(missing.name) detection", device: "this machine")
        }
        try metadata.setMetadataObjectTypes(metadataObjectTypes)
        try metadata.setMotionDetection(motion)
        metadata.setMetadataObjectsDelegate(self, queue: queue)
    }

    public func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection) {
        var places: [Kind: CGRect] = [:]
        for object in metadataObjects {
            let kind = Kind(object.type)
            guard kinds.contains(kind) else { continue }
            places[kind] = places[kind].map { $0.union(object.bounds) } ?? object.bounds
        }
        for kind in Kind.allCases {
            if let bounds = places[kind] { recording.triggerEvent(kind.rawValue, bounds: bounds) }
        }
    }
}
