extension StreamOutput {
    /// Adds a WebRTC viewer for a browser's (or any WebRTC client's) SDP offer and returns its
    /// answer: the output of a ``StreamTarget/webRTC`` target, whose viewers the app's own
    /// HTTP server signals for (a ``StreamTarget/whep(host:port:path:)`` output's own server
    /// calls this too). A Hummingbird app adds WHEP's routes in one call with the
    /// `CaptureKitWHEP` product's `addWHEPRoutes(to:path:)`.
    ///
    /// The viewer joins the running branch off the shared encode; its first frame is a key
    /// frame. It counts in ``Statistics/clients`` once its peer connection connects, and is
    /// dropped when it fails, closes, never connects (15 s) or its RTCP stops (5 s).
    ///
    /// ```swift
    /// let output = try StreamOutput(target: .webRTC)
    /// try session.addOutput(output)
    /// try await session.startRunning()
    /// let answer = try await output.answerWebRTCOffer(offerFromBrowser)
    /// // send answer.sessionDescription back; later:
    /// _ = await output.endWebRTCViewer(answer.viewerID)
    /// ```
    ///
    /// Safe from any task; the GStreamer work runs on the output's own thread.
    ///
    /// - Throws: ``CaptureError/Code/offerNotAcceptable`` when `offer` is not an SDP offer with
    ///   H.264 video in packetization mode 1; ``CaptureError/Code/streamFailed`` while the output
    ///   is not streaming (not in a running session) or its target is not a WebRTC one;
    ///   ``CaptureError/Code/pipelineFailed`` when the viewer's elements cannot be set up.
    public func answerWebRTCOffer(_ offer: String) async throws(CaptureError) -> WebRTCAnswer {
        guard target.isWebRTC else {
            throw .streamFailed(target, message: "WebRTC viewers take a StreamTarget.webRTC or .whep output, not \(target.description)")
        }
        guard let endpoint = state.withLock({ $0.whep }) else {
            throw .streamFailed(target, message: "the output is not streaming; add it to a session and start it first")
        }
        return try await endpoint.answer(offer).get()
    }

    /// Ends the WebRTC viewer `viewerID` (from ``answerWebRTCOffer(_:)``): it leaves the branch
    /// between two frames and its peer connection closes. False when the output has no such
    /// viewer (never had, or it is gone already). Safe from any task.
    public func endWebRTCViewer(_ viewerID: String) async -> Bool {
        guard let endpoint = state.withLock({ $0.whep }) else { return false }
        return await endpoint.end(viewerID)
    }
}
