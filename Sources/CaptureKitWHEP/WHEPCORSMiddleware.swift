import Hummingbird

/// CORS for a WHEP player on another origin: every response allows any origin and exposes
/// `Location` and `Link` (the session resource); an `OPTIONS` request (a preflight, or a WHEP
/// client asking what the endpoint takes) is answered 204 here with the methods and headers
/// allowed and `Accept-Post: application/sdp`.
///
/// With `rendersErrors` (a WHEP output's own server) an `HTTPError` becomes a plain-text
/// response here; without (an app's router, `StreamOutput.addWHEPRoutes(to:path:)`) it is
/// thrown on with the CORS headers added, for the app's own error rendering.
struct WHEPCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    var rendersErrors = true

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
        } catch var error as HTTPError where !rendersErrors {
            for field in Self.headers { error.headers[field.name] = field.value }
            throw error
        } catch let error as HTTPError {
            response = Response(status: error.status, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: (error.body ?? "\(error.status)") + "\n")))
        }
        for field in Self.headers { response.headers[field.name] = field.value }
        return response
    }
}
