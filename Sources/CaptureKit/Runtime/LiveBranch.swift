import GStreamerSwift

/// An output's branch in the running pipeline: its bin, the tee pads feeding it (one per
/// entry, with the ghost pad each is linked to), and the output it delivers to; or an encoded
/// stage, which has no output and a tee of its own that other branches take from.
struct LiveBranch: Sendable {
    /// One entry's feed: the tee's request pad, and the pad linked to the entry — the tee pad
    /// itself for a source's tee, or a ghost pad of the stage's bin (`stage`) for a stage's.
    struct Feed: Sendable {
        let tee: Element
        let teePad: Pad
        let entry: Pad
        var linked: Pad
        var stage: Bin? = nil

        /// Unlinks the entry, takes the stage's ghost pad away and gives the tee its pad back.
        func release() {
            if let stage {
                _ = linked.unlink(from: entry)
                stage.removeGhostPad(linked)
            }
            tee.releaseRequestPad(teePad)
        }
    }

    let plan: PipelinePlan.Branch
    let bin: Bin
    let feeds: [Feed]
    let output: (any OutputNode)?
    let slot: ConnectionSlot?
    /// A stage's tee.
    let tee: Element?
}
