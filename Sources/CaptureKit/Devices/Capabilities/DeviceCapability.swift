/// A capability of SPEC.md's device-control table, one per mode where the seeds ask
/// `isXModeSupported` per mode: the neutral vocabulary every kind of device states what it
/// can do in (`DeviceCapabilities`).
enum DeviceCapability: String, CaseIterable, Sendable {
    case focusContinuous, focusAutoOnce, focusLocked, lensPosition, autoFocusRangeRestriction, smoothAutoFocus
    case exposureContinuous, exposureLocked, exposureCustom, exposureDuration, iso, exposureTargetBias, exposureTargetOffset
    case whiteBalanceContinuous, whiteBalanceLocked, whiteBalanceGains, grayWorldGains
    case zoom, torch, flash, lowLightBoost, videoHDR, subjectAreaChangeMonitoring
}
