import Foundation
import Hummingbird
import HummingbirdWebSocket

extension ServerRoutes {
    /// `GET /ws/metadata?width=…&height=…&gravity=…&orientation=…&mirrored=…`: a WebSocket of
    /// JSON text messages, one per batch of objects found (``MetadataJSON``), each object in
    /// device coordinates and in the view the query describes (``ViewSpec``). A query that is
    /// wrong is a 400 before the upgrade. Messages from the client are read and ignored.
    func addMetadata(to router: Router<ServerContext>) {
        let feed = camera.metadata
        router.ws("/ws/metadata") { request, _ in
            _ = try ViewSpec(query: Self.query(request))
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let view = (try? ViewSpec(query: Self.query(context.request))) ?? ViewSpec()
            let (id, batches) = feed.subscribe(view: view)
            defer { feed.unsubscribe(id) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await _ in inbound.messages(maxSize: 64 * 1024) {}
                }
                group.addTask {
                    for await text in batches { try await outbound.write(.text(text)) }
                }
                // Whichever ends first (the client left, or the feed ended) ends both.
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    /// The request's query parameters, the last of each name.
    static func query(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { result[String(key)] = String(value) }
        return result
    }
}
