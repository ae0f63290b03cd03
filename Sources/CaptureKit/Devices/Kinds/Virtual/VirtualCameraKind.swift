/// The virtual back and front cameras: always there, found by `virtual`, `virtual-back`,
/// `virtual-front` and their uniqueIDs, and listed where no hardware camera is connected or
/// `CaptureDevice.listsVirtualDevices` asks for them. Each context has its own pair.
struct VirtualCameraKind: DeviceKind {
    static let back = VirtualCamera.uniqueID(.back), front = VirtualCamera.uniqueID(.front)

    func device(named reference: String, in registry: DeviceRegistry) -> CaptureDevice? {
        switch reference {
        case "virtual", "virtual-back", Self.back: registry.contextDevice(uniqueID: Self.back)
        case "virtual-front", Self.front: registry.contextDevice(uniqueID: Self.front)
        default: nil
        }
    }

    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice] {
        guard !listing.hasHardwareCamera || listing.listsVirtual else { return [] }
        return listing.contextDevices.filter { $0.uniqueID == Self.back || $0.uniqueID == Self.front }
    }

    func makeContextDevices() -> [CaptureDevice] {
        [VirtualCamera.make(position: .back), VirtualCamera.make(position: .front)]
    }
}
