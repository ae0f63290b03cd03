import Foundation

/// How a ``MetadataOutput`` looks for motion (``MetadataObjectType/motion``).
///
/// Motion is measured on the output's low-resolution gray frames, a few times a second
/// (``analysisFrameRate``), by comparing each analysed frame with the one before after
/// allowing for a change of light across the whole frame (auto exposure, a torch, a lamp): only
/// a change that light cannot explain counts. See ``MotionObject``.
public struct MotionDetectionSettings: Sendable, Hashable {
    /// From 0 (only large, strong changes) to 1 (small, faint ones). 0.5 notices a mid-gray
    /// object moving over a mid-gray background that differs from it by about 10 %.
    public var sensitivity: Double
    /// The smallest changed region reported, as a fraction of the frame (0.002: a 57x29 patch at
    /// 1280x720).
    public var minimumArea: Double
    /// Where motion counts, as normalised rects in device coordinates; empty for the whole frame.
    public var includedRegions: [CGRect]
    /// Where motion never counts (a clock, a tree, a road), as normalised rects; wins over
    /// ``includedRegions``.
    public var ignoredRegions: [CGRect]
    /// Frames analysed per second (at most the camera's rate); the others are dropped before
    /// they are converted, so the cost follows this rate, not the camera's.
    public var analysisFrameRate: Double

    public init(sensitivity: Double = 0.5, minimumArea: Double = 0.002, includedRegions: [CGRect] = [], ignoredRegions: [CGRect] = [],
                analysisFrameRate: Double = 5) {
        self.sensitivity = sensitivity
        self.minimumArea = minimumArea
        self.includedRegions = includedRegions
        self.ignoredRegions = ignoredRegions
        self.analysisFrameRate = analysisFrameRate
    }

    /// Throws `invalidSetting` naming the first value out of range.
    func validate() throws(CaptureError) {
        guard sensitivity.isFinite, (0...1).contains(sensitivity) else {
            throw .invalidSetting(name: "motion sensitivity", value: "\(sensitivity)", valid: "0 to 1")
        }
        guard minimumArea.isFinite, (0..<1).contains(minimumArea) else {
            throw .invalidSetting(name: "motion minimumArea", value: "\(minimumArea)", valid: "a fraction of the frame from 0 up to (not including) 1")
        }
        guard analysisFrameRate.isFinite, analysisFrameRate >= 0.1, analysisFrameRate <= 120 else {
            throw .invalidSetting(name: "motion analysisFrameRate", value: "\(analysisFrameRate)", valid: "0.1 to 120 frames per second")
        }
        for (name, rects) in [("includedRegions", includedRegions), ("ignoredRegions", ignoredRegions)] {
            for rect in rects {
                do throws(CaptureError) { try MetadataOutput.validateRectOfInterest(rect) } catch {
                    throw .invalidSetting(name: "motion \(name)", value: "\(rect)", valid: "non-empty rects within {0, 0, 1, 1}")
                }
            }
        }
    }
}
