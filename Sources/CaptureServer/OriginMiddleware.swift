import Hummingbird

/// Refuses what ``RequestOriginPolicy`` refuses, before anything else sees the request: 421
/// for a `Host` that names another server, 403 for a foreign `Origin` on a request that
/// changes something. Each is the JSON error, naming the value and what would be valid.
/// (WebSocket upgrades are refused earlier, by ``UpgradeGate``, with the same answers.)
struct OriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: RequestOriginPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let refusal = policy.refusal(method: request.method.rawValue, host: request.head.authority,
                                           origin: request.headers[.origin], upgrade: request.headers[.upgrade]) else {
            return try await next(request, context)
        }
        return Self.error(refusal, method: request.method.rawValue, path: request.uri.path, policy: policy).response(headers: [:])
    }

    /// The answer to `refusal`: 421 `foreignHost` or 403 `foreignOrigin`.
    static func error(_ refusal: RequestOriginPolicy.Refusal, method: String, path: String, policy: RequestOriginPolicy) -> APIError {
        switch refusal {
        case .foreignHost(let host):
            APIError(.misdirectedRequest, code: "foreignHost",
                     message: "Host \(quoted(host)) is not this server; valid: \(list(policy.hosts)) (--allow-origin adds a proxy's name)")
        case .foreignOrigin(let origin):
            APIError(.forbidden, code: "foreignOrigin",
                     message: "Origin \(quoted(origin)) may not \(method) \(path); valid: this server's own page, or an origin given with --allow-origin\(policy.origins.isEmpty ? "" : " (" + list(policy.origins) + ")")")
        }
    }

    /// A client's value in a message: quoted, cut at 80 characters.
    static func quoted(_ value: String) -> String {
        "\"" + (value.count > 80 ? value.prefix(77) + "…" : value) + "\""
    }

    static func list(_ values: Set<String>) -> String {
        values.sorted().map { $0.contains(":") && !$0.contains("/") ? "[\($0)]" : $0 }.joined(separator: ", ")
    }
}
