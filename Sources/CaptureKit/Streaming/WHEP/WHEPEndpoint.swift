import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// A running WHEP output: its HTTP server and its viewers, each a `queue ! rtph264pay !
/// webrtcbin` added to the branch's bin off its tee while the branch plays, and removed when
/// the viewer sends DELETE or its peer connection fails, closes or disconnects, or never
/// connects, or its RTCP reports stop for ``silenceLimit`` (a killed browser says nothing). One encode feeds every viewer; a new one gets a key frame as
/// soon as it connects.
///
/// Threading: viewers are added and removed on ``work``, one at a time (those calls block on
/// GStreamer and webrtcbin); webrtcbin's state notifications arrive on its own threads and
/// only hand work to ``work``.
final class WHEPEndpoint: Sendable {
    struct State {
        var viewers: [String: WHEPViewer] = [:]
        var created = 0
        var closed = false
    }

    let prefix: String
    let bin: Bin
    let tee: Element
    /// The Opus audio's tee; it carries audio when the session has a microphone.
    let audioTee: Element
    /// Called with the number of connected viewers when it changes, on ``work``.
    let clients: @Sendable (Int) -> Void
    /// Called with each RTP packet's size sent to a viewer, on that viewer's streaming thread.
    let sent: @Sendable (Int) -> Void
    let work = DispatchQueue(label: "CaptureKit.WHEP")
    let state = Mutex(State())
    let server = Mutex<(any WHEPSignalling.Server)?>(nil)
    /// The server's start, while it may run: a stop waits for it.
    let starting = Mutex<Task<Void, Never>?>(nil)

    /// Seconds the HTTP server has to listen, and to stop.
    static let serverTimeout = 10.0
    /// Seconds a viewer has to connect after its answer before it is dropped.
    static let connectTimeout = 15.0
    /// How long an answer waits for the viewer's first frame (its caps) to reach webrtcbin.
    static let firstFrameTimeout = DispatchTimeInterval.seconds(2)
    /// Seconds without RTCP after which a viewer that sent some is taken as gone.
    static let silenceLimit = 5.0

    init(prefix: String, bin: Bin, tee: Element, audioTee: Element, clients: @escaping @Sendable (Int) -> Void, sent: @escaping @Sendable (Int) -> Void) {
        self.prefix = prefix
        self.bin = bin
        self.tee = tee
        self.audioTee = audioTee
        self.clients = clients
        self.sent = sent
        watch()
    }

    /// Looks for viewers gone quiet every second on ``work``, until ``stop()``.
    private func watch() {
        work.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, !self.state.withLock(\.closed) else { return }
            self.removeSilentViewers()
            self.watch()
        }
    }

    /// A viewer for the SDP offer `sdp`, playing and answered, or why not
    /// (``CaptureError/Code/offerNotAcceptable`` for an offer without H.264 video to answer).
    /// Runs the work on ``work``; called from any task.
    func answer(_ sdp: String) async -> Result<WebRTCAnswer, CaptureError> {
        let offer: WHEPOffer
        do throws(CaptureError) {
            offer = try WHEPOffer(validating: sdp)
            // A viewer opens sockets and GLib wakeup pipes; without descriptors GLib aborts.
            try FileDescriptorBudget.require(for: "add a WebRTC viewer")
        } catch {
            return .failure(error)
        }
        return await withCheckedContinuation { continuation in
            work.async {
                continuation.resume(returning: self.addViewer(offer).map { WebRTCAnswer(viewerID: $0.id, sessionDescription: $0.answer) })
            }
        }
    }

    /// Ends the viewer `id` on ``work``; false when there is none. Called from any task.
    func end(_ id: String) async -> Bool {
        await withCheckedContinuation { continuation in
            work.async { continuation.resume(returning: self.removeViewer(id)) }
        }
    }

    /// Starts the HTTP server for a ``StreamTarget/whep(host:port:path:)`` target (the
    /// `CaptureKitWHEP` product's, ``WHEPSignalling``); false for other targets, which have none
    /// (`StreamOutput`'s initialiser refuses a `whep://` target when the product is not linked).
    /// Returns at once: `done` is called once, from any thread, when the server listens (nil),
    /// or with `streamFailed` when its address cannot be bound or it did not listen within
    /// ``serverTimeout``.
    func start(_ target: StreamTarget, then done: @escaping @Sendable (CaptureError?) -> Void) -> Bool {
        guard case .whep = target, let servers = WHEPSignalling.linked else { return false }
        let once = OnceCallback(done)
        let handlers = WHEPSignalling.Handlers(
            offer: { [weak self] offer in
                guard let self else { return .failure(.streamFailed(target, message: "the output stopped")) }
                return await self.answer(offer)
            },
            end: { [weak self] id in await self?.end(id) ?? false })
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.serverTimeout) {
            if once(.streamFailed(target, message: "the WHEP server did not start within \(Int(Self.serverTimeout)) s")) {
                CaptureLog.logger.warning("WHEP server for \(target.description) did not start within \(Int(Self.serverTimeout)) s")
            }
        }
        let task = Task {
            do throws(CaptureError) {
                let server = try await servers.start(target, handlers: handlers)
                self.server.withLock { $0 = server }
                once(nil)
            } catch {
                once(error)
            }
        }
        // Stored before any stop: starts and stops are both called on the session's executor.
        starting.withLock { $0 = task }
        return true
    }

    /// Ends every viewer and stops the server. Returns at once: `done` is called, from any
    /// thread, once the server's port is free (at most ``serverTimeout`` later). The branch's
    /// bin is gone or going: its viewers go with it.
    func stop(then done: @escaping @Sendable () -> Void) {
        state.withLock { $0.closed = true }
        // After a viewer being added or removed now; a step stuck in webrtcbin (gone to NULL
        // with the branch) keeps only its own viewer.
        work.async { self.state.withLock { $0.viewers = [:] } }
        let once = OnceCallback<Void>(done)
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.serverTimeout) {
            if once(()) { CaptureLog.logger.warning("WHEP: the HTTP server did not stop within \(Int(Self.serverTimeout)) s; its port may stay bound until it does") }
        }
        let starting = starting.withLock { $0 }
        Task {
            // A server still starting is stopped once it has.
            await starting?.value
            let server = self.server.withLock { server in defer { server = nil }; return server }
            await server?.stop()
            once(())
        }
    }

    /// On ``work``: a viewer for `offer`, playing and answered, or why not.
    func addViewer(_ offer: WHEPOffer) -> Result<(id: String, answer: String), CaptureError> {
        let (index, closed) = state.withLock { state in
            state.created += 1
            return (state.created, state.closed)
        }
        guard !closed, bin.element.currentState == .playing else {
            return .failure(.pipelineFailed(element: prefix, message: "the output is not streaming"))
        }
        let videoCaps: String
        do throws(CaptureError) {
            videoCaps = try offer.videoCaps(streamLevel: streamLevel())
        } catch {
            return .failure(error)
        }
        let id = UUID().uuidString.lowercased()
        let name = "\(prefix)_whep\(index)"
        let takesAudio = offer.audioCaps != nil && offer.audioPayload != nil && (try? audioTee.staticPad("sink"))?.peer != nil
        let plan = viewerPlan(name, offer: offer, audio: takesAudio)
        var viewer: WHEPViewer?
        do throws(GStreamerError) {
            let made = try plan.elements.map { planned throws(GStreamerError) in try Element(planned: planned) }
            let (queue, pay, webrtc) = (made[0], made[1], made[2])
            if !webrtc.checkWebRTCKeepalives() { CaptureLog.logger.warning("WHEP: webrtcbin's ICE agent cannot check keepalives; a vanished viewer stays until DELETE") }
            for element in [queue, pay, webrtc] { bin.add(element) }
            try queue.link(to: pay)
            let sink = try webrtc.requestPad("sink_%u")
            try sink.prepareWebRTCSend(caps: videoCaps)
            // webrtcbin writes the send pad's SSRC and msid into its answer only once caps have
            // reached that pad: an answer made before the viewer's first frame got there has
            // neither, and Chrome then takes none of the packets (it connects, and shows nothing).
            let capsArrived = DispatchSemaphore(value: 0)
            sink.addProbe(.eventDownstream) { _, data in
                guard case .event(.caps) = data else { return .ok }
                capsArrived.signal()
                return .remove
            }
            try pay.staticPad("src").link(to: sink)
            try pay.staticPad("src").addBufferProbe { [sent] buffer in
                sent(buffer.size)
                return .pass
            }
            var audio: (queue: Element, pay: Element)?
            if takesAudio, let caps = offer.audioCaps {
                let (aqueue, apay) = (made[3], made[4])
                for element in [aqueue, apay] { bin.add(element) }
                try aqueue.link(to: apay)
                let asink = try webrtc.requestPad("sink_%u")
                try asink.prepareWebRTCSend(caps: caps)
                try apay.staticPad("src").link(to: asink)
                audio = (aqueue, apay)
            }
            for element in [webrtc, pay, queue] + (audio.map { [$0.pay, $0.queue] } ?? []) { element.syncStateWithParent() }
            let entry = try queue.staticPad("sink")
            let teePad = try tee.requestPad("src_%u")
            viewer = WHEPViewer(id: id, index: index, plan: plan, queue: queue, pay: pay, webrtc: webrtc, teePad: teePad, entry: entry)
            state.withLock { $0.viewers[id] = viewer }
            try teePad.link(to: entry)
            if let audio {
                let aentry = try audio.queue.staticPad("sink")
                let ateePad = try audioTee.requestPad("src_%u")
                viewer?.audio = (audio.queue, audio.pay, ateePad, aentry)
                state.withLock { $0.viewers[id] = viewer }
                try ateePad.link(to: aentry)
            }
            webrtc.onSignal("notify::connection-state") { [weak self, weak webrtc] in
                guard let self, let state = try? webrtc?.get("connection-state") else { return }
                self.work.async { self.connectionChanged(id, state: state) }
            }
            if capsArrived.wait(timeout: .now() + Self.firstFrameTimeout) == .timedOut {
                CaptureLog.logger.warning("WHEP viewer \(id): no frame reached it within \(Self.firstFrameTimeout); answering without its SSRC")
            }
            let answer = try webrtc.answerWebRTCOffer(offer.sdp, timeout: 5_000)
            if let rtpbin = webrtc.child(named: "rtpbin"), let heard = viewer?.heard {
                rtpbin.onSignal("on-ssrc-active") { heard.beat() }
            }
            work.asyncAfter(deadline: .now() + Self.connectTimeout) { [weak self] in
                guard let self, self.state.withLock({ $0.viewers[id].map { !$0.connected } ?? false }) else { return }
                CaptureLog.logger.info("WHEP viewer \(id) never connected; dropped")
                _ = self.removeViewer(id)
            }
            return .success((id, answer))
        } catch {
            // Unlinks and removes what was linked, then whatever else was added.
            _ = removeViewer(id)
            for element in plan.elements.reversed().compactMap({ try? bin.element(named: $0.name) }) {
                bin.remove(element)
            }
            return .failure(.pipelineFailed(error, element: name))
        }
    }

    /// On ``work``: a viewer's peer connection changed state (webrtcbin's nick).
    private func connectionChanged(_ id: String, state connection: String) {
        switch connection {
        case "connected":
            let (entry, count) = state.withLock { state -> (Pad?, Int) in
                guard var viewer = state.viewers[id], !viewer.connected else { return (nil, 0) }
                viewer.connected = true
                state.viewers[id] = viewer
                return (viewer.entry, state.viewers.values.filter(\.connected).count)
            }
            guard let entry else { return }
            // Its first frame is a key frame, with SPS and PPS, not the next interval's.
            entry.push(.forceKeyUnit())
            clients(count)
        case "failed", "closed", "disconnected":
            if removeViewer(id) { CaptureLog.logger.info("WHEP viewer \(id): \(connection); removed") }
        default:
            break
        }
    }

    /// On ``work``: removes the connected viewers whose RTCP stopped ``silenceLimit`` ago.
    private func removeSilentViewers() {
        let now = DispatchTime.now().uptimeNanoseconds
        let silent = state.withLock { state in
            state.viewers.values.filter { viewer in
                let heard = viewer.heard.lastHeard
                return viewer.connected && heard > 0 && now > heard + UInt64(Self.silenceLimit * 1e9)
            }.map(\.id)
        }
        for id in silent where removeViewer(id) {
            CaptureLog.logger.info("WHEP viewer \(id): no RTCP for \(Self.silenceLimit) s; removed")
        }
    }

    /// Removes, on ``work``, the viewer one of whose elements is named `element` (one that
    /// failed); false when no viewer has it. Called from any thread; never blocks.
    func removeViewer(owning element: String) -> Bool {
        guard let id = state.withLock({ $0.viewers.values.first { $0.elements.contains { $0.name == element } }?.id }) else { return false }
        work.async {
            if self.removeViewer(id) { CaptureLog.logger.info("WHEP viewer \(id): \(element) failed; removed") }
        }
        return true
    }

    /// The H.264 level of the stream the tee carries ("4" for 1080p30), as its parser says;
    /// nil before caps are negotiated.
    private func streamLevel() -> String? {
        guard let caps = (try? tee.staticPad("sink"))?.currentCaps,
              let structure = (try? CapsStructure.parse(caps: caps))?.first,
              case .string(let level)? = structure.fields["level"] else { return nil }
        return level
    }

    /// On ``work``: unlinks the viewer from the tee between two frames, takes its elements to
    /// NULL and out of the bin, gives the tee its pad back. False when there is no such viewer.
    func removeViewer(_ id: String) -> Bool {
        guard let (viewer, count) = state.withLock({ state -> (WHEPViewer, Int)? in
            guard let viewer = state.viewers.removeValue(forKey: id) else { return nil }
            return (viewer, state.viewers.values.filter(\.connected).count)
        }) else { return false }
        let feeds = [(tee, viewer.teePad, viewer.entry)] + (viewer.audio.map { [(audioTee, $0.teePad, $0.entry)] } ?? [])
        for (tee, teePad, entry) in feeds {
            let unlinked = DispatchSemaphore(value: 0)
            teePad.addProbe(.idle) { _, _ in
                _ = teePad.unlink(from: entry)
                unlinked.signal()
                return .remove
            }
            if unlinked.wait(timeout: .now() + 2) == .timedOut {
                // No buffer left the tee pad in 2 s (a stalled source): it is idle, so unlink it here.
                _ = teePad.unlink(from: entry)
            }
            tee.releaseRequestPad(teePad)
        }
        for element in viewer.elements { bin.remove(element) }
        if viewer.connected { clients(count) }
        return true
    }
}
