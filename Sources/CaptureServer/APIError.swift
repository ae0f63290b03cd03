import CaptureKit
import Foundation
import Hummingbird

/// A request the server refuses, rendered as `{"error": {"code": …, "message": …}}` with its
/// 4xx status (5xx only for the server's own failures). The message names the offending value
/// and what would be valid.
struct APIError: Error, HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    /// A short machine-readable name: `badRequest`, `deviceNotFound`, `outOfRange`, …
    let code: String
    let message: String

    init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// 400 with `code`.
    static func badRequest(_ code: String = "badRequest", _ message: String) -> APIError {
        APIError(.badRequest, code: code, message: message)
    }

    /// 404 for `path`.
    static func notFound(_ path: String) -> APIError {
        APIError(.notFound, code: "notFound", message: "nothing at \(path)")
    }

    /// 409: the request does not fit what the server is doing now.
    static func conflict(_ code: String, _ message: String) -> APIError {
        APIError(.conflict, code: code, message: message)
    }

    /// A CaptureKit error as the client sees it: 400 for a value the client gave (unknown
    /// device, out of range, unsupported), 503 when the camera cannot do it now.
    init(_ error: CaptureError) {
        let status: HTTPResponse.Status
        switch error.code {
        case .deviceNotFound: status = .notFound
        case .outOfRange, .invalidSetting, .unsupported, .unsupportedFormat, .unsupportedPreset, .mediaTypeNotSupported,
             .offerNotAcceptable, .unsupportedOrientation:
            status = .badRequest
        case .sessionNotRunning, .deviceUnavailable, .deviceLocked, .captureCancelled, .sessionFailed, .streamFailed:
            status = .serviceUnavailable
        default: status = .internalServerError
        }
        self.init(status, code: error.code.rawValue, message: error.message)
    }

    /// Hummingbird's own errors (no route, a body too large, …) in the same shape, the code
    /// named after the status.
    init(_ error: HTTPError, path: String) {
        let message = error.body ?? (error.status == .notFound ? "nothing at \(path)" : error.status.reasonPhrase)
        self.init(error.status, code: APIError.codeName(error.status), message: message)
    }

    /// `404 Not Found` → `notFound`.
    static func codeName(_ status: HTTPResponse.Status) -> String {
        let words = status.reasonPhrase.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard let first = words.first else { return "status\(status.code)" }
        return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The JSON body.
    var body: String {
        let object = ["error": ["code": code, "message": message]]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response(headers: [:])
    }

    /// The response, with `headers` added (CORS on WHEP's routes).
    func response(headers: HTTPFields) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }
}
