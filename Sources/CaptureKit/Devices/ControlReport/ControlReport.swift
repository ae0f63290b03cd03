/// Every control of a device as data, keyed by AVFoundation's property names: what
/// `capture controls --json` prints, and what a program can decode from it.
///
/// ## Schema
///
/// `serializationVersion` is 1 for the shape described here. A later version that only adds keys
/// keeps the number; one that renames, removes or changes the meaning of a key raises it, so a
/// reader checks it first (as swift-argument-parser's `ToolInfoV0` does).
///
/// Modes (`focusMode`, `exposureMode`, `whiteBalanceMode`, `torchMode`, `flashMode`) are
/// ``ControlReport/Mode``: the current case name as AVFoundation spells it (`"continuousAutoFocus"`)
/// and the names the device supports. Numbers are ``ControlReport/Number``: a value with `min`
/// and `max` where the property has a range, and a `unit` where it has one: `exposureDuration` in
/// seconds (`"s"`), `exposureTargetBias` and `exposureTargetOffset` in `"EV"`, `temperature` in
/// kelvin (`"K"`). `deviceWhiteBalanceGains` is `{red, green, blue, min, max}`, `activeFormat`
/// is `{width, height, pixelFormat, frameRate, frameRateRanges}`, `focusPointOfInterest` and
/// `exposurePointOfInterest` are ``ControlReport/Point`` `{x, y, supported}` in device coordinates. V4L2 cameras add
/// `v4l2Controls`, their raw controls by their `v4l2-ctl` names, with types, ranges and menus.
///
/// ```json
/// {
///   "serializationVersion" : 1,
///   "uniqueID" : "virtual:back",
///   "iso" : { "max" : 3200, "min" : 50, "value" : 100 },
///   "exposureDuration" : { "max" : 0.0333, "min" : 0.000125, "unit" : "s", "value" : 0.0166 },
///   "focusMode" : { "supported" : [ "locked", "autoFocus", "continuousAutoFocus" ], "value" : "continuousAutoFocus" },
///   …
/// }
/// ```
///
/// `capture controls --set NAME=VALUE` takes the same names (`--set iso=400`,
/// `--set focusMode=locked`, `--set deviceWhiteBalanceGains=1,1.2,2`), and V4L2 names.
public struct ControlReport: Sendable, Hashable, Codable {
    /// The schema version this library writes.
    public static let currentSerializationVersion = 1

    /// The schema version of this report.
    public var serializationVersion: Int
    /// The device's `uniqueID`.
    public var uniqueID: String
    /// The device's `localizedName`.
    public var localizedName: String

    public var focusMode: Mode
    /// 0 (nearest) … 1 (farthest).
    public var lensPosition: Number
    public var exposureMode: Mode
    /// Seconds, within the active format's exposure range.
    public var exposureDuration: Number
    public var iso: Number
    /// EV.
    public var exposureTargetBias: Number
    /// EV, metered from the frames: how far the picture is from the exposure target.
    public var exposureTargetOffset: Number
    public var whiteBalanceMode: Mode
    public var deviceWhiteBalanceGains: Gains
    /// The gains' correlated colour temperature, in kelvin.
    public var temperature: Number
    /// The gains' tint (green–magenta), -150 … 150.
    public var tint: Number
    public var videoZoomFactor: Number
    public var torchMode: Mode
    /// 0 … 1.
    public var torchLevel: Number
    public var flashMode: Mode
    public var activeFormat: Format
    /// Where focus is measured, in device coordinates; nil in reports written before it was added.
    public var focusPointOfInterest: Point? = nil
    /// Where exposure is metered, in device coordinates; nil in reports written before it was added.
    public var exposurePointOfInterest: Point? = nil
    /// A V4L2 camera's raw controls; nil for other devices.
    public var v4l2Controls: [V4L2Control]?
}
