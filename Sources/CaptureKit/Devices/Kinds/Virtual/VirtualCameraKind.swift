/// The virtual back and front cameras: always there, found by `virtual`, `virtual-back`,
/// `virtual-front` and their uniqueIDs, and listed where no hardware camera is connected or
/// `CaptureDevice.listsVirtualDevices` asks for them.
struct VirtualCameraKind: DeviceKind {

    func device(named reference: String, in registry: DeviceRegistry) -> CaptureDevice? {
        switch reference {
        case "virtual", "virtual-back", VirtualCamera.back.uniqueID: VirtualCamera.back
        case "virtual-front", VirtualCamera.front.uniqueID: VirtualCamera.front
        default: nil
        }
    }

    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice] {
        listing.hasHardwareCamera && !listing.listsVirtual ? [] : [VirtualCamera.back, VirtualCamera.front]
    }
}
