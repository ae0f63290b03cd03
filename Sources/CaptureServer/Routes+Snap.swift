import Foundation
import Hummingbird

extension ServerRoutes {
    /// `POST /api/snap`: a still at the format's full size, `image/jpeg` with EXIF; the stream
    /// and a recording run on.
    func addSnap(to router: Router<ServerContext>) {
        router.post("/api/snap") { request, _ -> Response in
            _ = try await JSONBody(request, keys: [])
            let jpeg = try await camera.snap()
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
    }
}
