import GStreamerSwift

/// An output's branch in the running pipeline: its bin, the tee pads feeding it (one per
/// entry, with the ghost pad each is linked to), and the output it delivers to.
struct LiveBranch: Sendable {
    struct Feed: Sendable {
        let tee: Element
        let teePad: Pad
        let entry: Pad
    }

    let plan: PipelinePlan.Branch
    let bin: Bin
    let feeds: [Feed]
    let output: any OutputNode
    let slot: ConnectionSlot
}
