import Foundation

/// Which requests come from the server's own page, or a program the user runs, rather than
/// from another web site in the user's browser: the defence against DNS rebinding and
/// cross-site requests (CSRF). Pure: it decides on the request's `Host` and `Origin` alone.
///
/// - `Host` must name the server itself: one of ``hosts`` (its listen name and addresses,
///   `localhost`, this machine's name and addresses when it listens on every interface, and
///   the hosts of the allowed origins). A page on `evil.example` whose name was rebound to
///   127.0.0.1 sends `Host: evil.example`, and is refused (421).
/// - A request that changes something (any method but GET, HEAD and OPTIONS) or opens a
///   WebSocket, and carries an `Origin`, must come from the server's own origin (the `Host`
///   it was sent to) or one of ``origins`` (`--allow-origin`, for a reverse proxy or a player
///   on another origin); any other web page's, `null` included, is refused (403), whatever
///   its content type: a browser sends `text/plain` across origins without a preflight. A
///   request without `Origin`, or with one no web page has (`ws://host`, as some WebSocket
///   clients send), comes from a program, not a page, and is let through.
struct RequestOriginPolicy: Sendable, Equatable {
    /// Why a request is refused.
    enum Refusal: Error, Equatable {
        /// `Host` names another server (421 Misdirected Request).
        case foreignHost(String)
        /// `Origin` is another site's (403).
        case foreignOrigin(String)
    }

    /// Host names and addresses the server answers to, lowercased, IPv6 without brackets.
    let hosts: Set<String>
    /// Origins allowed besides the server's own: `scheme://host[:port]`, lowercased, with the
    /// scheme's default port dropped.
    let origins: Set<String>

    /// A policy for a server named `hosts`, letting `origins` in too; their hosts are taken
    /// as the server's names as well (a reverse proxy forwards its own `Host`).
    init(hosts: some Sequence<String>, origins: some Sequence<String>) {
        let origins = Set(origins.compactMap { Self.normalizedOrigin($0) })
        let originHosts = origins.compactMap { Self.hostName(ofAuthority: String($0.drop { $0 != "/" }.dropFirst(2))) }
        self.hosts = Set(hosts.map { Self.bareHost($0) } + originHosts)
        self.origins = origins
    }

    /// Checks one request: nil when it may go on.
    func refusal(method: String, host: String?, origin: String?, upgrade: String?) -> Refusal? {
        if let host, !host.isEmpty {
            guard let name = Self.hostName(ofAuthority: host), hosts.contains(name) else { return .foreignHost(host) }
        }
        let changes = !["GET", "HEAD", "OPTIONS"].contains(method.uppercased())
        let opensSocket = upgrade?.lowercased().contains("websocket") == true
        guard changes || opensSocket, let origin, Self.isWebOrigin(origin) else { return nil }
        guard let normalized = Self.normalizedOrigin(origin) else { return .foreignOrigin(origin) }
        if origins.contains(normalized) { return nil }
        if let host, let own = Self.normalizedOrigin("http://" + host), own == normalized { return nil }
        if let host, let own = Self.normalizedOrigin("https://" + host), own == normalized { return nil }
        return .foreignOrigin(origin)
    }

    /// Whether `origin` is one a web page in a browser sends: `http://…`, `https://…` or
    /// `null` (a sandboxed or local page).
    static func isWebOrigin(_ origin: String) -> Bool {
        let lowered = origin.lowercased()
        return lowered == "null" || lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// `[::1]` → `::1`, `Example.COM` → `example.com`, a trailing dot dropped.
    static func bareHost(_ host: String) -> String {
        var bare = host.lowercased()
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
        if bare.hasSuffix("."), bare.count > 1 { bare.removeLast() }
        return bare
    }

    /// The host name of a `Host` header's `host[:port]` (`[v6]:port` for IPv6); nil when it is
    /// not one.
    static func hostName(ofAuthority authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            return bareHost(String(authority[...close]))
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let name = parts.first, !name.isEmpty else { return nil }
        if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(\.isASCIIDigit) { return nil }
        return bareHost(String(name))
    }

    /// `scheme://host[:port]` lowercased with the scheme's default port dropped; nil for
    /// anything else (`null`, a path, another scheme).
    static func normalizedOrigin(_ text: String) -> String? {
        let lowered = text.lowercased()
        let scheme: String, defaultPort: String
        if lowered.hasPrefix("http://") { (scheme, defaultPort) = ("http", "80") }
        else if lowered.hasPrefix("https://") { (scheme, defaultPort) = ("https", "443") }
        else { return nil }
        var authority = String(lowered.dropFirst(scheme.count + 3))
        if authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.contains("/"), !authority.contains("@"), let name = hostName(ofAuthority: authority) else { return nil }
        // What follows the host (`]` closes an IPv6 one): `:PORT`, or nothing.
        let afterHost = authority.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority.drop { $0 != ":" }
        let port = afterHost.dropFirst()
        let shown = name.contains(":") ? "[\(name)]" : name
        return port.isEmpty || port == defaultPort ? "\(scheme)://\(shown)" : "\(scheme)://\(shown):\(port)"
    }
}

extension Character {
    /// 0-9 only (not other scripts' digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
