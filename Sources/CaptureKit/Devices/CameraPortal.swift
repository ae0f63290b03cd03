import Foundation
import GStreamerSwift
import Synchronization

/// xdg-desktop-portal's Camera portal: how a sandboxed process (Flatpak), or any process on a
/// desktop that runs the portal, is given the cameras. `AccessCamera` asks (the desktop may show a
/// dialog); once granted, `OpenPipeWireRemote` hands over a connection to PipeWire through which
/// the cameras are listed (the PipeWire device provider's `fd`) and read (`pipewiresrc fd=`). The answer is kept for the process, as AVFoundation
/// keeps an app's, and is `CaptureDevice.authorizationStatus(for: .video)`.
enum CameraPortal {
    /// The portal on this process's session bus, when one runs there.
    static func current() -> CameraPortalClient? {
        guard let address = override.withLock({ $0 }) ?? sessionBusAddress() else { return nil }
        let client = CameraPortalClient(address: address)
        return client.isRunning == true ? client : nil
    }

    /// `DBUS_SESSION_BUS_ADDRESS`, or the bus socket systemd puts in `XDG_RUNTIME_DIR`.
    static func sessionBusAddress() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") else { return nil }
        return "unix:path=\(runtime)/bus"
    }

    /// Asks `portal` for the cameras and waits for the answer (the user may be looking at a
    /// dialog, so up to 5 minutes). Granted: true, and the PipeWire connection is opened and kept.
    static func requestAccess(_ portal: CameraPortalClient) throws(CaptureError) -> Bool {
        do {
            let granted = try portal.accessCamera(timeoutMilliseconds: 300_000) == .granted
            if granted && remote.withLock({ $0 }) == nil {
                let fd = try portal.openPipeWireRemote()
                remote.withLock { $0 = fd }
                // PipeWire's cameras are listed through the new connection from now on.
                CaptureContext.shared.registry.restartMonitoring()
            }
            answer.withLock { $0 = granted }
            return granted
        } catch {
            throw CaptureError(code: .accessDenied, message: "the camera portal on \(portal.address) did not answer: \(error)")
        }
    }

    /// The answer this process was given: nil until it asks.
    static let answer = Mutex<Bool?>(nil)
    /// The PipeWire connection the portal granted (`pipewiresrc fd=`), open for the process.
    static let remote = Mutex<Int32?>(nil)
    /// The bus to find the portal on instead of the session bus (tests run a private one).
    static let override = Mutex<String?>(nil)
}
