// CoreMedia's time functions and constants under their own names, over ``CaptureTime``
// (CMTime), so that AVFoundation code doing time arithmetic ports unchanged.

/// CoreMedia's name for ``CaptureTime``.
public typealias CMTime = CaptureTime
/// CoreMedia's name for a timescale.
public typealias CMTimeScale = Int32
/// CoreMedia's name for a time's value.
public typealias CMTimeValue = Int64

/// `value / timescale` seconds (CMTimeMake).
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

/// The time nearest `seconds` in `preferredTimescale` (CMTimeMakeWithSeconds).
public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// The time in seconds: NaN for invalid and indefinite times, ±∞ for the infinities (CMTimeGetSeconds).
public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }

/// -1, 0 or 1 as `time1` is before, equal to or after `time2` (CMTimeCompare).
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 { time1 < time2 ? -1 : time1 == time2 ? 0 : 1 }

/// `lhs + rhs` (CMTimeAdd).
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs + rhs }

/// `lhs - rhs` (CMTimeSubtract).
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs - rhs }

/// `time` in `newTimescale` (CMTimeConvertScale).
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTime.RoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

/// Zero seconds (kCMTimeZero).
public let kCMTimeZero = CMTime.zero
/// The invalid time (kCMTimeInvalid).
public let kCMTimeInvalid = CMTime.invalid
/// The indefinite time (kCMTimeIndefinite).
public let kCMTimeIndefinite = CMTime.indefinite
/// +∞ (kCMTimePositiveInfinity).
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// −∞ (kCMTimeNegativeInfinity).
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity

extension CaptureTime {
    /// CMTime(): every field zero, which is the invalid time.
    public init() { self = .invalid }
}
