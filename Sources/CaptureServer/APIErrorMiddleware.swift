import CaptureKit
import Hummingbird
import NIOHTTP1

/// Renders every failure as ``APIError``'s JSON: the routes' own, CaptureKit's, Hummingbird's
/// (an unknown route is 404 in the same shape, a body too large 413, a body whose framing is
/// broken 400); anything else, a bug of
/// the server's, is a 500 that says so without taking the server down.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response(headers: [:])
        } catch let error as HTTPError {
            return APIError(error, path: request.uri.path).response(headers: error.headers)
        } catch let error as HTTPParserError {
            // The body's framing was broken (a chunk size that is not hex, a body cut short): the
            // client's mistake, seen only once the route reads the body.
            return APIError.badRequest("malformedBody", "the request's body cannot be read: \(error); valid: a body framed by Content-Length or a well-formed chunked encoding").response(headers: [:])
        } catch let error as CaptureError {
            return APIError(error).response(headers: [:])
        } catch let error as any HTTPResponseError {
            return APIError(error.status, code: APIError.codeName(error.status), message: "\(error)").response(headers: [:])
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            return APIError(.internalServerError, code: "internalError", message: "the server failed: \(error)").response(headers: [:])
        }
    }
}
