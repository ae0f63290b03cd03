import Foundation

/// An RTSP server that takes published streams (gst-rtsp-server in RECORD mode, through
/// Python's GObject bindings: Debian python3-gi and gir1.2-gst-rtsp-server-1.0): a mount at
/// `path` on 127.0.0.1:`port` whose H.264 it writes, as it arrives, to an MPEG-TS `file`;
/// with `user`, publishers must give it and `password` (basic or digest).
/// ffmpeg's RTSP listen mode and rtsp-server-perl refuse rtspclientsink's SETUP; this does not.
final class RTSPRecordServer {
    let process: BackgroundProcess
    let file: URL

    init(port: Int, path: String, file: URL, user: String? = nil, password: String? = nil) throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("capturekit-rtsp-record-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        self.file = file
        process = try BackgroundProcess("/usr/bin/python3", [script.path, String(port), path, file.path] + (user.map { [$0, password ?? ""] } ?? []))
    }

    /// Waits up to `seconds` until it listens; false when it ended or did not say so.
    func waitListening(seconds: Double) async throws -> Bool {
        for _ in 0..<Int(seconds * 20) {
            if process.output.contains("listening") { return true }
            if !process.process.isRunning { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The recorded file's size now.
    var recordedBytes: Int { (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0 }

    /// SIGKILL, as a crashing server.
    func kill() { process.kill() }

    static let script = """
    import sys, gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import Gst, GstRtspServer, GLib

    port, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    user, password = (sys.argv[4], sys.argv[5]) if len(sys.argv) > 5 else (None, None)
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_transport_mode(GstRtspServer.RTSPTransportMode.RECORD)
    factory.set_launch("( rtph264depay name=depay0 ! h264parse ! mpegtsmux ! filesink location=%s sync=false )" % out)
    factory.set_latency(0)
    if user:
        auth = GstRtspServer.RTSPAuth()
        token = GstRtspServer.RTSPToken()
        token.set_string("media.factory.role", "publisher")
        auth.add_basic(GstRtspServer.RTSPAuth.make_basic(user, password), token)
        auth.add_digest(user, password, token)
        server.set_auth(auth)
        permissions = GstRtspServer.RTSPPermissions()
        permissions.add_permission_for_role("publisher", "media.factory.access", True)
        permissions.add_permission_for_role("publisher", "media.factory.construct", True)
        factory.set_permissions(permissions)
    server.get_mount_points().add_factory(path, factory)
    if server.attach(None) == 0:
        print("cannot listen", flush=True)
        sys.exit(1)
    print("listening", flush=True)
    GLib.MainLoop().run()
    """
}
