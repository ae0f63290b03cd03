/// How often a camera delivers frames between its two frame-duration limits (AVFoundation's
/// `activeVideoMinFrameDuration` … `activeVideoMaxFrameDuration`): at the shortest interval
/// unless the exposure needs longer (low light), then at the fastest rate the format offers
/// whose interval holds the exposure, never slower than the longest interval allows.
///
/// Pure: the virtual camera paces its source with it, and a V4L2 camera chooses among the
/// frame intervals its driver offers for the format (its discrete rates).
struct FramePacing: Sendable, Equatable {
    /// 1 / `activeVideoMinFrameDuration`: the fastest the device may run.
    var fastest: Double
    /// 1 / `activeVideoMaxFrameDuration`: the slowest it may run (at most `fastest`).
    var slowest: Double

    /// The rate to run at for frames exposed `exposure` seconds long, chosen among `ranges`:
    /// `fastest` while a frame at that rate holds the exposure; else the highest offered rate
    /// whose interval does (whole frames per second within a continuous range), but not below
    /// `slowest`.
    func rate(exposure: Double, ranges: [CaptureDevice.FrameRateRange]) -> Double {
        guard slowest < fastest - 1e-9, exposure * fastest > 1 + 1e-6 else { return fastest }
        let needed = 1 / exposure
        let offered = ranges.flatMap { range -> [Double] in
            guard range.minFrameRate < range.maxFrameRate else { return [range.maxFrameRate] }
            let whole = Int(range.minFrameRate.rounded(.up))...Int(range.maxFrameRate.rounded(.down))
            return [range.minFrameRate, range.maxFrameRate] + whole.map(Double.init)
        }
        let fitting = offered.filter { $0 <= needed + 1e-6 && $0 >= slowest - 1e-6 && $0 <= fastest + 1e-6 }
        return fitting.max() ?? slowest
    }
}
