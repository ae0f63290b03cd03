extension WHEPEndpoint {
    /// A viewer's part of the branch, as it is made and as `pipelineDescription` shows it:
    /// `queue` (leaky, its own thread: a slow viewer drops its own frames) ! `rtph264pay` (the
    /// payload type the offer gave H.264, parameter sets with every key frame) ! `webrtcbin`,
    /// from the branch's tee; with `audio`, `queue ! rtpopuspay` into the same webrtcbin from the
    /// audio tee. Elements in that order: queue, pay, webrtcbin, then the audio queue and pay.
    func viewerPlan(_ name: String, offer: WHEPOffer, audio: Bool) -> PipelinePlan.Branch.Viewer {
        typealias Element = PipelinePlan.Element
        typealias Property = PipelinePlan.Property
        typealias Role = PipelinePlan.Role
        typealias Link = PipelinePlan.Link
        let queue = Element("queue", .queue, in: name, [Property("leaky", .nick("downstream")), Property("max-size-buffers", 30),
                                                           Property("max-size-bytes", 0), Property("max-size-time", 0)])
        let pay = Element("rtph264pay", .pay, in: name, [Property("pt", .int(offer.videoPayload)), Property("config-interval", -1),
                                                            Property("aggregate-mode", .nick("zero-latency"))])
        let webrtc = Element("webrtcbin", .webrtc, in: name, [Property("bundle-policy", .nick("max-bundle"))])
        var elements = [queue, pay, webrtc]
        var links = [Link(from: Role.tee.name(in: prefix), to: queue.name), Link(from: queue.name, to: pay.name), Link(from: pay.name, to: "\(webrtc.name).sink_%u")]
        if audio, let payload = offer.audioPayload {
            let aqueue = Element("queue", .aqueue, in: name, [Property("leaky", .nick("downstream"))])
            let apay = Element("rtpopuspay", .apay, in: name, [Property("pt", .int(payload))])
            elements += [aqueue, apay]
            links += [Link(from: Role.atee.name(in: prefix), to: aqueue.name), Link(from: aqueue.name, to: apay.name), Link(from: apay.name, to: "\(webrtc.name).sink_%u")]
        }
        return PipelinePlan.Branch.Viewer(key: name, elements: elements, links: links)
    }

    /// The viewers' parts, in the order they joined.
    var plannedViewers: [PipelinePlan.Branch.Viewer] {
        state.withLock { $0.viewers.values.sorted { $0.index < $1.index }.map(\.plan) }
    }
}
