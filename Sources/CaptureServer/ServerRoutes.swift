import CaptureKit
import CaptureKitWHEP
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// The request context of every route: WebSocket upgrades included.
typealias ServerContext = BasicWebSocketRequestContext

/// The server's routes, by role in `Routes+….swift`: the page, the API, WHEP, the recordings,
/// MJPEG, the snapshot URL and the metadata WebSocket.
struct ServerRoutes: Sendable {
    let camera: ServerCamera
    let page: URL?
    let snapshots: Snapshots

    /// Hummingbird's own log, warnings only.
    static let quietLogger = {
        var logger = Logger(label: "CaptureServer.files")
        logger.logLevel = .warning
        return logger
    }()

    /// A router with every route, behind the `Host` and `Origin` checks, the token (when there
    /// is one) and the JSON errors.
    func router(token: String?, policy: RequestOriginPolicy) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: OriginMiddleware(policy: policy))
        if let token { router.add(middleware: TokenMiddleware(token: token)) }
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: RecordingFileMiddleware(folder: camera.recordings))
        if let page { router.add(middleware: FileMiddleware(page.path, searchForIndexHtml: true, logger: Self.quietLogger)) }
        addAPI(to: router)
        addSnap(to: router)
        addSnapshot(to: router)
        addRecording(to: router)
        addRecordings(to: router)
        camera.stream.addWHEPRoutes(to: router, path: "/whep")
        addMJPEG(to: router)
        addMetadata(to: router)
        addTimeline(to: router)
        addHLS(to: router)
        return router
    }
}

extension Response {
    /// `value` as JSON (sorted keys), with `status`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
