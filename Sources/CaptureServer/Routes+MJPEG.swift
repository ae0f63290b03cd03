import Foundation
import Hummingbird

extension ServerRoutes {
    /// The part boundary of `/mjpeg`.
    static let boundary = "capturekitframe"

    /// `GET /mjpeg`: `multipart/x-mixed-replace` JPEG frames for an `<img>`, the picture at its
    /// own size, every viewer from one JPEG encode (``FrameFeed``).
    func addMJPEG(to router: Router<ServerContext>) {
        let frames = camera.frames
        router.get("/mjpeg") { _, _ -> Response in
            let (id, stream) = frames.subscribe()
            let body = ResponseBody { writer in
                defer { frames.unsubscribe(id) }
                for await jpeg in stream {
                    var part = ByteBuffer(string: "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
                    part.writeBytes(jpeg)
                    part.writeString("\r\n")
                    try await writer.write(part)
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "multipart/x-mixed-replace; boundary=\(Self.boundary)", .cacheControl: "no-store"],
                            body: body)
        }
    }
}
