import Foundation
import Hummingbird

extension ServerRoutes {
    /// `GET /recordings/`: the folder's files as JSON (name, size, date, url), newest first.
    /// `GET /recordings/NAME` is ``RecordingFileMiddleware``'s.
    func addRecordings(to router: Router<ServerContext>) {
        let folder = camera.recordings
        // `/recordings/` too: the router ignores a trailing slash.
        router.get("/recordings") { _, _ -> Response in try .json(folder.entries()) }
    }

    static func mediaType(_ fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "mkv": "video/x-matroska"
        case "jpg", "jpeg": "image/jpeg"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

/// `GET /recordings/NAME`: the file (`video/mp4` for movies), taken from the raw path before
/// the router sees it (the router refuses some paths with `..` as 400; here anything that is
/// not a file inside the folder is 404). Only files inside the folder: `..`, `%2e%2e`, a `/`
/// or `%2f` in the name, absolute paths and symlinks leading out are 404 (see
/// ``RecordingsDirectory/file(named:)``).
struct RecordingFileMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    static let prefix = "/recordings/"

    let folder: RecordingsDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix(Self.prefix), path != Self.prefix else { return try await next(request, context) }
        guard request.method == .get || request.method == .head else {
            throw APIError(.methodNotAllowed, code: "methodNotAllowed", message: "\(request.method) \(path): recordings are only read (GET)")
        }
        guard let file = folder.file(named: String(path.dropFirst(Self.prefix.count))) else { throw APIError.notFound(path) }
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        let body = try await FileIO().loadFile(path: file.path, context: context)
        return Response(status: .ok, headers: [.contentType: ServerRoutes.mediaType(file.pathExtension), .contentLength: "\(size)"], body: body)
    }
}
