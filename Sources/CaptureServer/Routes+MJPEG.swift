import Foundation
import Hummingbird

extension ServerRoutes {
    /// The part boundary of `/mjpeg`.
    static let boundary = "capturekitframe"

    /// `GET /mjpeg`: `multipart/x-mixed-replace` JPEG frames for an `<img>`; 503 when the
    /// server cannot make them.
    func addMJPEG(to router: Router<ServerContext>) {
        let frames = camera.frames
        router.get("/mjpeg") { _, _ -> Response in
            guard let (id, stream) = frames.subscribe() else {
                throw APIError(.serviceUnavailable, code: "mjpegUnavailable", message: "MJPEG frames are not available on this server; play /whep instead")
            }
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
