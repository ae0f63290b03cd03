/// Which of a camera's own automatic adjustments are moving, from successive readings of its
/// values (`AutoValues`): one whose value changed within the last `settlingReadings` readings
/// is adjusting (AVFoundation's `isAdjustingExposure`, `isAdjustingFocus`,
/// `isAdjustingWhiteBalance`). The first reading changes nothing.
struct AutoAdjustment: Sendable {
    struct Adjusting: Equatable, Sendable {
        var exposure = false
        var focus = false
        var whiteBalance = false
    }

    /// About 100 ms at 30 fps: a camera's auto exposure moves its controls every frame or few
    /// while it converges.
    static let settlingReadings = 3

    private var last: AutoValues?
    private var sinceChange = (exposure: settlingReadings, focus: settlingReadings, whiteBalance: settlingReadings)

    /// Takes a reading; which adjustments are moving.
    mutating func take(_ values: AutoValues) -> Adjusting {
        defer { last = values }
        func count(_ changed: Bool, _ readings: inout Int) -> Bool {
            readings = changed ? 0 : min(readings + 1, Self.settlingReadings)
            return readings < Self.settlingReadings
        }
        guard let last else { return Adjusting() }
        let exposureChanged = values.exposureDuration != last.exposureDuration || values.iso != last.iso
        return Adjusting(exposure: count(exposureChanged, &sinceChange.exposure),
                         focus: count(values.lensPosition != last.lensPosition, &sinceChange.focus),
                         whiteBalance: count(values.whiteBalanceGains != last.whiteBalanceGains, &sinceChange.whiteBalance))
    }
}
