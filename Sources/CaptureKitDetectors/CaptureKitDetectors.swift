// Barcode and face detection for CaptureKit: an app that scans depends on this product
// (`.product(name: "CaptureKitDetectors", package: "CaptureKit")`) and `MetadataOutput`,
// `MetadataFileScanner` and the virtual camera's codes work with nothing else to call. Importing
// this module imports CaptureKit too.
//
// CaptureKit finds these detectors through a weak C symbol (`ck_detectors_entry`, looked for by
// `ck_linked_detectors` in CGStreamer): linking this target defines it.
@_exported import CaptureKit

/// The entry point CaptureKit's weak reference resolves to when this product is linked: a new
/// retained reference to the detectors (CaptureKit takes it once).
@_cdecl("ck_detectors_entry")
public func linkedDetectorsEntry() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(LinkedDetectors()).toOpaque()
}
