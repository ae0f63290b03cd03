/// What a camera's own automatic modes hold now, read from the camera (its exposure time and
/// gain, lens position and white-balance controls, each nil where it cannot say), and which of
/// its automatic switches are on.
struct AutoValues: Equatable, Sendable {
    var exposureDuration: CaptureTime?
    var iso: Float?
    var lensPosition: Float?
    var whiteBalanceGains: CaptureDevice.WhiteBalanceGains?
    /// Whether the camera moves its exposure by itself now (auto exposure or automatic gain on).
    var exposureIsAutomatic = false
    /// Whether the camera focuses by itself now.
    var focusIsAutomatic = false
    /// Whether the camera balances white by itself now.
    var whiteBalanceIsAutomatic = false
}
