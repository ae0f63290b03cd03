import Foundation
import Hummingbird

extension ServerRoutes {
    /// `GET /recordings/` (the folder's files as JSON: name, size, date, url, newest first) and
    /// `GET /recordings/NAME` (the file; `video/mp4` for movies). Only files inside the folder:
    /// `..`, `%2e%2e`, a `/` or `%2f` in the name, absolute paths and symlinks leading out are
    /// 404, as is anything that is not there.
    func addRecordings(to router: Router<ServerContext>) {
        let folder = camera.recordings
        // `/recordings/` too: the router ignores a trailing slash.
        router.get("/recordings") { _, _ -> Response in try .json(folder.entries()) }
        router.get("/recordings/**") { request, context -> Response in
            // The raw path as it came: the name must be a single component of it.
            let path = request.uri.path
            let prefix = "/recordings/"
            guard path.hasPrefix(prefix), let file = folder.file(named: String(path.dropFirst(prefix.count))) else {
                throw APIError.notFound(path)
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            let type = Self.mediaType(file.pathExtension)
            let body = try await FileIO().loadFile(path: file.path, context: context)
            return Response(status: .ok, headers: [.contentType: type, .contentLength: "\(size)"], body: body)
        }
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
