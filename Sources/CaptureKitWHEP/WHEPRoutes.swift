@_spi(WHEP) import CaptureKit
import Hummingbird
import Logging

/// WHEP's HTTP routes (draft-ietf-wish-whep), written once for both servers that answer them:
/// a `StreamTarget.whep(host:port:path:)` output's own ``WHEPServer``, and an app's
/// Hummingbird router (`StreamOutput.addWHEPRoutes(to:path:)`).
///
/// - `POST path` with an SDP offer (`Content-Type: application/sdp`): 201 Created, the answer
///   (every ICE candidate in it) and `Location: path/ID`, the viewer's session resource; 400
///   when the body is not an SDP offer or a field of it is wrong (`CaptureError.Code.malformedOffer`
///   names it), 406 when it has no H.264 video to answer, 503 while the output is not
///   streaming or the process is short of file descriptors (the pipeline's own words go to
///   the log, not to the client).
/// - `DELETE path/ID`: 200, that viewer's session ends; 404 for an unknown ID.
/// - `PATCH path/ID` (trickle ICE): 405, the answer has every candidate already.
///
/// Failures are thrown as `HTTPError`s for the server's own error rendering.
enum WHEPRoutes {
    typealias Handlers = WHEPSignalling.Handlers

    static let logger = Logger(label: "CaptureKit.WHEP")

    /// The largest offer taken: browsers' are a few kilobytes.
    static let maxOfferSize = 256 * 1024

    /// Adds the routes at `path` (`/whep`) and `path/:id`; `OPTIONS` at both when `options`
    /// (for a CORS middleware that answers it around them).
    static func add<Context: RequestContext>(to router: some RouterMethods<Context>, path: String, handlers: Handlers, options: Bool) {
        router.post(RouterPath(path)) { request, _ -> Response in
            let type = request.headers[.contentType]?.lowercased() ?? ""
            let body = try await request.body.collect(upTo: maxOfferSize)
            let text = String(buffer: body)
            guard type.hasPrefix("application/sdp"), text.hasPrefix("v=0") else {
                throw HTTPError(.badRequest, message: "expected an SDP offer (Content-Type: application/sdp, a body starting v=0); got Content-Type '\(type)' and \(body.readableBytes) bytes")
            }
            switch await handlers.offer(text) {
            case .success(let answer):
                return Response(status: .created,
                                headers: [.contentType: "application/sdp", .location: "\(path)/\(answer.viewerID)"],
                                body: .init(byteBuffer: ByteBuffer(string: answer.sessionDescription)))
            case .failure(let error) where error.code == .offerNotAcceptable:
                throw HTTPError(.notAcceptable, message: error.message)
            case .failure(let error) where error.code == .malformedOffer:
                throw HTTPError(.badRequest, message: error.message)
            case .failure(let error) where error.code == .deviceUnavailable || error.code == .sessionNotRunning:
                throw HTTPError(.serviceUnavailable, message: error.message)
            case .failure(let error):
                // The pipeline's own words stay in the log: they are not the client's to read.
                logger.warning("WHEP viewer not added: \(error.message)")
                throw HTTPError(.serviceUnavailable, message: "no viewer can be added now (\(error.code.rawValue)); try again")
            }
        }
        router.delete(RouterPath("\(path)/:id")) { _, context -> Response in
            let id = try context.parameters.require("id")
            guard await handlers.end(id) else { throw HTTPError(.notFound, message: "no WHEP session \(id)") }
            return Response(status: .ok)
        }
        router.patch(RouterPath("\(path)/:id")) { _, _ -> Response in
            Response(status: .methodNotAllowed, headers: [.allow: "DELETE, OPTIONS"])
        }
        if options {
            for route in [path, "\(path)/:id"] {
                router.on(RouterPath(route), method: .options) { _, _ -> Response in Response(status: .noContent) }
            }
        }
    }
}
