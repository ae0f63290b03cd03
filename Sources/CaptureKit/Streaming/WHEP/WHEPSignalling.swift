import CGStreamer

/// What the `CaptureKitWHEP` product gives CaptureKit: the HTTP server a
/// ``StreamTarget/whep(host:port:path:)`` output answers its viewers through (Hummingbird).
///
/// CaptureKit itself has no HTTP: an app that streams to browsers through its own server uses a
/// ``StreamTarget/webRTC`` output and ``StreamOutput/answerWebRTCOffer(_:)``. An app that depends
/// on the `CaptureKitWHEP` product links its servers, found through a weak C symbol
/// (`ck_linked_whep_servers`); without it a `whep://` output is refused when it is made, with
/// an error that says which product to add.
@_spi(WHEP)
public enum WHEPSignalling {
    /// What a server asks of its output. Both run on the server's tasks and hand the viewers'
    /// work (which blocks on GStreamer) to the output's own thread.
    public struct Handlers: Sendable {
        /// A new viewer for an SDP offer: its session ID and the answer, or why not.
        public let offer: @Sendable (String) async -> Result<WebRTCAnswer, CaptureError>
        /// Ends the viewer `id`; false when there is none.
        public let end: @Sendable (String) async -> Bool

        public init(offer: @escaping @Sendable (String) async -> Result<WebRTCAnswer, CaptureError>,
                    end: @escaping @Sendable (String) async -> Bool) {
            self.offer = offer
            self.end = end
        }
    }

    /// A server listening for one output.
    public protocol Server: Sendable {
        /// Stops listening and closes idle connections; returns once the port is free.
        func stop() async
    }

    /// Starts servers.
    public protocol Engine: AnyObject, Sendable {
        /// A server for `target` (a `whep://` one) listening at its host, port and path, once it
        /// listens; throws `streamFailed` naming the address when it cannot be bound.
        func start(_ target: StreamTarget, handlers: Handlers) async throws(CaptureError) -> any Server
    }

    /// The servers linked into this process, or nil without the `CaptureKitWHEP` product.
    static let linked = linkedProduct(ck_linked_whep_servers(), as: (any Engine).self)

    /// Throws `streamFailed` for a `whep://` target in a process without the product.
    static func requireServer(for target: StreamTarget) throws(CaptureError) {
        guard case .whep = target, linked == nil else { return }
        throw .streamFailed(target, message: "a whep:// output's HTTP server is the CaptureKitWHEP product: add .product(name: \"CaptureKitWHEP\", package: \"CaptureKit\") to the app target's dependencies, or stream to StreamTarget.webRTC and answer offers from the app's own server with answerWebRTCOffer")
    }
}
