import Foundation
import Hummingbird

extension ServerRoutes {
    /// `GET /snapshot.jpg`: the camera's next frame at the format's full size, `image/jpeg` with
    /// EXIF, for programs that poll a still URL (Home Assistant's generic camera, OctoPrint).
    /// Behind the same `Host` check and token as every route (`?token=` in the URL a program
    /// polls). Requests that arrive while a still is being made share it (``Snapshots``).
    func addSnapshot(to router: Router<ServerContext>) {
        let snapshots = snapshots
        router.get("/snapshot.jpg") { _, _ -> Response in
            let jpeg = try await snapshots.next()
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
    }
}
