/// The virtual microphone: always there and always listed, after the hardware microphones;
/// found by its uniqueID (`virtual:microphone`). Each context has its own.
struct VirtualMicrophoneKind: DeviceKind {

    func device(named reference: String, in registry: DeviceRegistry) -> CaptureDevice? {
        reference == VirtualMicrophone.uniqueID ? registry.contextDevice(uniqueID: VirtualMicrophone.uniqueID) : nil
    }

    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice] {
        listing.contextDevices.filter { $0.uniqueID == VirtualMicrophone.uniqueID }
    }

    func makeContextDevices() -> [CaptureDevice] { [VirtualMicrophone.make()] }
}
