import Synchronization

/// X displays' screens, grabbed by `ximagesrc`: `screen` names the screen of the display
/// `$DISPLAY` names, and `screen:<display>` (its uniqueID, e.g. `screen::99`) any display that
/// answers. The screen of `$DISPLAY` is listed after the cameras; a screen is never the
/// default camera.
///
/// A display is asked afresh each time: the same object while it answers with the same screen,
/// else a new one, and the old one is disconnected.
final class ScreenKind: DeviceKind {
    let mayBeDefault = false
    /// Screens by uniqueID.
    private let known = Mutex<[String: CaptureDevice]>([:])

    func device(named reference: String, in registry: DeviceRegistry) -> CaptureDevice? {
        if reference == "screen" { return ScreenDescription.currentDisplay.flatMap(screen(display:)) }
        guard reference.hasPrefix(ScreenDescription.uniqueIDPrefix) else { return nil }
        return screen(display: String(reference.dropFirst(ScreenDescription.uniqueIDPrefix.count)))
    }

    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice] {
        ScreenDescription.currentDisplay.flatMap(screen(display:)).map { [$0] } ?? []
    }

    /// The screen of `display`, asked afresh; nil when it does not answer.
    func screen(display: String) -> CaptureDevice? {
        let uniqueID = ScreenDescription.uniqueIDPrefix + display
        let description = display.isEmpty ? nil : ScreenDescription.probe(display: display)
        return known.withLock { known in
            if let description, let existing = known[uniqueID], existing.isConnected, existing.formats == [description.format] {
                return existing
            }
            known[uniqueID]?.setConnected(false)
            known[uniqueID] = description?.makeDevice()
            return known[uniqueID]
        }
    }
}
