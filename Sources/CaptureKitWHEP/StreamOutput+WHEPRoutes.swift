@_spi(WHEP) import CaptureKit
import Hummingbird

extension StreamOutput {
    /// Adds WHEP's routes for this output's viewers to an app's Hummingbird router, as a
    /// `StreamTarget.whep(host:port:path:)` output's own server has them:
    ///
    /// - `POST path` with an SDP offer (`Content-Type: application/sdp`): 201 Created, the
    ///   answer and `Location: path/ID`; 400 when the body is not an SDP offer, 406 when it has
    ///   no H.264 video to answer, 503 while the output is not streaming.
    /// - `DELETE path/ID`: 200, the viewer ends; 404 for an unknown ID.
    /// - `PATCH path/ID` (trickle ICE): 405, the answer has every candidate already.
    /// - `OPTIONS` at both, and CORS headers on their responses: players on other origins work.
    ///
    /// Failures are thrown as Hummingbird `HTTPError`s, for the app's own error rendering.
    /// Use it with a `StreamTarget.webRTC` output (a `.whep` one has its own server already).
    public func addWHEPRoutes<Context: RequestContext>(to router: some RouterMethods<Context>, path: String) {
        let handlers = WHEPRoutes.Handlers(
            offer: { [weak self] sdp in
                guard let self else { return .failure(.sessionNotRunning) }
                do throws(CaptureError) {
                    return .success(try await self.answerWebRTCOffer(sdp))
                } catch {
                    return .failure(error)
                }
            },
            end: { [weak self] id in await self?.endWebRTCViewer(id) ?? false })
        let group = router.group().add(middleware: WHEPCORSMiddleware<Context>(rendersErrors: false))
        WHEPRoutes.add(to: group, path: path, handlers: handlers, options: true)
    }
}
