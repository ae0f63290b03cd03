import Foundation
import Hummingbird

/// Lets a request through only with the server's token: `Authorization: Bearer TOKEN`, or
/// `?token=TOKEN` in its URL (the page's link carries it, and the page passes it on to its own
/// requests, its WebSocket and its MJPEG image). Anything else gets 401 with an empty body and
/// nothing else: not even whether the route exists.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.carries(request, token: token) else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
        }
        return try await next(request, context)
    }

    /// Whether `request` carries `token`, compared in constant time.
    static func carries(_ request: Request, token: String) -> Bool {
        carries(authorization: request.headers[.authorization], query: request.uri.queryParameters.getAll("token").map { String($0) }, token: token)
    }

    /// Whether an `Authorization` header (`Bearer TOKEN`) or one of the `?token=` values
    /// `query` is `token`, compared in constant time.
    static func carries(authorization: String?, query: [String], token: String) -> Bool {
        var given = query
        if let authorization, authorization.lowercased().hasPrefix("bearer ") {
            given.append(String(authorization.dropFirst(7).drop { $0 == " " }))
        }
        return given.contains { matches($0, token) }
    }

    /// Compares every byte, whatever differs first.
    static func matches(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }

    /// A new token: 32 bytes from the system's CSPRNG (getrandom), as 43 URL-safe base64
    /// characters.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
