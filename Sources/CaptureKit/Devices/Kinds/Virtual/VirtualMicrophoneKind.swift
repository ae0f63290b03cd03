/// The virtual microphone: always there and always listed, after the hardware microphones;
/// found by its uniqueID (`virtual:microphone`).
struct VirtualMicrophoneKind: DeviceKind {

    func device(named reference: String, in registry: DeviceRegistry) -> CaptureDevice? {
        reference == VirtualMicrophone.uniqueID ? VirtualMicrophone.device : nil
    }

    func ownDevices(_ listing: DeviceListing) -> [CaptureDevice] { [VirtualMicrophone.device] }
}
