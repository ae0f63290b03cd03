// WHEP's HTTP for CaptureKit (Hummingbird): the own server of a `whep://` output, found by
// CaptureKit when an app depends on this product (`.product(name: "CaptureKitWHEP", package:
// "CaptureKit")`), and `StreamOutput.addWHEPRoutes(to:path:)` for an app's own router. Importing
// this module imports CaptureKit too.
//
// CaptureKit finds the servers through a weak C symbol (`ck_whep_entry`, looked for by
// `ck_linked_whep_servers` in CGStreamer): linking this target defines it.
@_exported import CaptureKit
@_spi(WHEP) import CaptureKit

/// The entry point CaptureKit's weak reference resolves to when this product is linked: a new
/// retained reference to the servers (CaptureKit takes it once).
@_cdecl("ck_whep_entry")
public func linkedWHEPServersEntry() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(LinkedWHEPServers()).toOpaque()
}

/// Starts a ``WHEPServer`` for each `whep://` output that runs.
final class LinkedWHEPServers: WHEPSignalling.Engine {
    func start(_ target: StreamTarget, handlers: WHEPSignalling.Handlers) async throws(CaptureError) -> any WHEPSignalling.Server {
        guard case .whep(let host, let port, let path) = target else {
            throw .streamFailed(target, message: "only whep:// targets have a server of their own")
        }
        let server = WHEPServer(host: host, port: port, path: path, handlers: handlers)
        try await server.start(target: target)
        return server
    }
}
