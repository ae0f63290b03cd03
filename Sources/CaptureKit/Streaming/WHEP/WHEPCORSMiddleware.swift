import Hummingbird

/// CORS for a WHEP player on another origin: every response allows any origin and exposes
/// `Location` and `Link` (the session resource); an `OPTIONS` request (a preflight, or a WHEP
/// client asking what the endpoint takes) is answered 204 here with the methods and headers
/// allowed and `Accept-Post: application/sdp`.
struct WHEPCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    static var headers: HTTPFields {
        [
            .accessControlAllowOrigin: "*",
            .accessControlAllowMethods: "POST, DELETE, OPTIONS, PATCH",
            .accessControlAllowHeaders: "Content-Type, Location, Link, If-Match",
            .accessControlExposeHeaders: "Content-Type, Location, Link",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            var headers = Self.headers
            // Accept-Post: the body types a POST takes.
            headers[.init("Accept-Post")!] = "application/sdp"
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = Response(status: error.status, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: (error.body ?? "\(error.status)") + "\n")))
        }
        for field in Self.headers { response.headers[field.name] = field.value }
        return response
    }
}
