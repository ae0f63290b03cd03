/// A user name and password: asked of RTSP clients (digest or basic), or given to a server
/// when publishing.
public struct StreamCredentials: Sendable, Hashable {
    /// The user name.
    public var user: String
    /// The password (never printed in pipelines or logs).
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
