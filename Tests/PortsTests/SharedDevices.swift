import Testing

/// The ports' suites, one at a time: written as apps are, they use the process's shared devices
/// (`CaptureDevice.default(for:)`, the virtual cameras of `CaptureContext.shared`) and change
/// their controls, formats and configuration locks, so two of them at once would see each
/// other's changes. Every other suite runs beside them, on devices of its own.
@Suite(.serialized)
enum SharedDevices {}
