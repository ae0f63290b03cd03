import CaptureKit
import Foundation
import Yams

/// Decoding of a segmented `movie` output's `events`, and of `motion` settings (there and in
/// `metadata` outputs).
extension PipelineFileDecoder {
    /// The keys allowed in `events`.
    static let eventsKeys = ["on", "pre", "post", "clips", "motion"]
    /// The keys allowed in `motion`.
    static let motionKeys = ["sensitivity", "minimumArea", "include", "ignore", "analysisFrameRate"]

    func decodeEvents(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.EventsSpec {
        let settings = try mapping(entry.value, key: entry.key, context: "events")
        try settings.rejectUnknownKeys(allowed: Self.eventsKeys)
        let on = try settings.required("on")
        var triggers: Set<MetadataEventTrigger.Kind> = []
        for node in try list(on) {
            triggers.insert(try choice(YAMLMapping.Entry(key: on.key, keyLocation: on.keyLocation, value: node, valueLocation: location(of: node)),
                                       of: MetadataEventTrigger.Kind.self))
        }
        func roll(_ key: String, limit: Double, default fallback: Double) throws(PipelineFileError) -> Double {
            guard let entry = settings[key] else { return fallback }
            let value = try seconds(entry, allowingZero: true)
            guard value <= limit else {
                throw PipelineFileError(.outOfRange(key: key, value: entry.value.string ?? "", valid: "from 0 to \(Int(limit)) seconds"), at: entry.valueLocation)
            }
            return value
        }
        let motion = try settings["motion"].map { entry throws(PipelineFileError) in try decodeMotion(entry) }
        if let entry = settings["motion"], !triggers.contains(.motion) {
            throw PipelineFileError(.conflictingKeys("motion", with: "on", reason: "motion settings apply to a motion trigger: add motion to on"),
                                    at: entry.keyLocation)
        }
        return PipelineFile.EventsSpec(
            triggers: triggers, preRoll: try roll("pre", limit: 60, default: 5), postRoll: try roll("post", limit: 3600, default: 10),
            writesClips: try settings["clips"].map { entry throws(PipelineFileError) in try boolean(entry) } ?? false,
            motion: motion ?? MotionDetectionSettings(), location: entry.keyLocation
        )
    }

    /// `motion: {sensitivity, minimumArea, include, ignore, analysisFrameRate}`.
    func decodeMotion(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> MotionDetectionSettings {
        let settings = try mapping(entry.value, key: entry.key, context: "motion")
        try settings.rejectUnknownKeys(allowed: Self.motionKeys)
        var motion = MotionDetectionSettings()
        func fraction(_ key: String, in range: ClosedRange<Double>, valid: String) throws(PipelineFileError) -> Double? {
            guard let entry = settings[key] else { return nil }
            let value = try number(entry)
            guard range.contains(value) else {
                throw PipelineFileError(.outOfRange(key: key, value: entry.value.string ?? "", valid: valid), at: entry.valueLocation)
            }
            return value
        }
        if let value = try fraction("sensitivity", in: 0...1, valid: "from 0 to 1") { motion.sensitivity = value }
        if let value = try fraction("minimumArea", in: 0...0.999, valid: "a fraction of the frame from 0 up to 1") { motion.minimumArea = value }
        if let value = try fraction("analysisFrameRate", in: 0.1...120, valid: "from 0.1 to 120 frames per second") { motion.analysisFrameRate = value }
        for (key, path) in [("include", \MotionDetectionSettings.includedRegions), ("ignore", \MotionDetectionSettings.ignoredRegions)] {
            guard let regions = settings[key] else { continue }
            var rects: [CGRect] = []
            for node in try list(regions) {
                rects.append(try rect(YAMLMapping.Entry(key: key, keyLocation: regions.keyLocation, value: node, valueLocation: location(of: node))))
            }
            motion[keyPath: path] = rects
        }
        return motion
    }

    /// `[x, y, width, height]`: a non-empty rect within the unit square.
    func rect(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> CGRect {
        var values: [Double] = []
        for node in try list(entry) {
            values.append(try number(YAMLMapping.Entry(key: entry.key, keyLocation: entry.keyLocation, value: node, valueLocation: location(of: node))))
        }
        let candidate = values.count == 4 ? CGRect(x: values[0], y: values[1], width: values[2], height: values[3]) : nil
        guard let candidate, candidate.width > 0, candidate.height > 0, candidate.minX >= 0, candidate.minY >= 0,
              candidate.maxX <= 1, candidate.maxY <= 1 else {
            throw PipelineFileError(
                .outOfRange(key: entry.key, value: "[" + values.map { "\($0)" }.joined(separator: ", ") + "]",
                            valid: "[x, y, width, height], a non-empty rect within 0...1"),
                at: entry.valueLocation
            )
        }
        return candidate
    }
}
