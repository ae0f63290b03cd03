/// The life of one output branch (or encoded stage) in a running pipeline, as a value: the phase
/// it is in and the moves an event makes. Pure, so every move is tested without GStreamer; the
/// runtime keeps one per branch under its lock and performs the effects a move returns.
///
/// ```
///            join              joined            drain(n, m)      last feed and sink, or deadline
///   (none) ───────▶ joining ──────────▶ live ─────────────▶ draining ─────────────────────────▶ retired
///                      │                                                                          ▲
///                      └──────────────────────────────── joinFailed ──────────────────────────────┘
/// ```
/// A draining branch waits for events, never for a thread: each feed's idle probe
/// (`feedUnlinked`) and each sink's end of stream (`sinkFinished`) counts down, and the branch is
/// taken out (`takeOut`) when both counts reach zero or at its deadline, whichever comes first
/// (`overdue` then says so). Counts that arrive after that change nothing.
/// `failed` (the branch posted an error) closes its gate in any phase before `retired` and
/// leaves the phase as it is; the step that takes the failed branch out drains it. A retired
/// branch may join again (its output's branch rebuilt). Any other move is a programming error:
/// `handle` throws ``Transition`` naming the phase and the event.
struct BranchLifecycle: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// Being built and linked: an error its elements post while changing state is its own.
        case joining
        /// Linked to its tees, frames flowing.
        case live
        /// Being unlinked at an idle moment of each feed and, when it finishes with end of
        /// stream, waiting for that to reach its sinks: the feeds and sinks still to come.
        case draining(feeds: Int, sinks: Int)
        /// Out of the pipeline: errors its elements still post concern no one.
        case retired
    }

    enum Event: Sendable, Equatable {
        case join, joined, joinFailed, failed
        /// Start draining: `feeds` idle probes and `sinks` ends of stream to wait for.
        case drain(feeds: Int, sinks: Int)
        /// A feed's idle probe ran: that feed is unlinked.
        case feedUnlinked
        /// End of stream reached a sink.
        case sinkFinished
        /// The drain's deadline passed.
        case deadline
    }

    enum Effect: Sendable, Equatable {
        /// Stop passing frames into the branch (its gate), so its error never reaches the tee.
        case closeGate
        /// Take the bin out of the pipeline, give the tees their pads back and tell the output;
        /// `overdue`: at the deadline, with feeds or sinks that never answered.
        case takeOut(overdue: Bool)
    }

    /// A move the lifecycle does not have.
    struct Transition: Error, Equatable, CustomStringConvertible {
        let phase: Phase?
        let event: Event
        var description: String { "no move from \(phase.map { "\($0)" } ?? "no branch") on \(event)" }
    }

    private(set) var phase: Phase

    /// A branch that has just started joining.
    init() { phase = .joining }

    /// The phase after `event` from `phase` (nil: no branch yet), and the effects to perform.
    static func next(from phase: Phase?, on event: Event) throws(Transition) -> (Phase, [Effect]) {
        switch (phase, event) {
        case (nil, .join), (.retired, .join): return (.joining, [])
        case (.joining, .joined): return (.live, [])
        case (.joining, .joinFailed): return (.retired, [.closeGate])
        case (.live, .drain(let feeds, let sinks)) where feeds >= 0 && sinks >= 0:
            return feeds == 0 && sinks == 0 ? (.retired, [.closeGate, .takeOut(overdue: false)]) : (.draining(feeds: feeds, sinks: sinks), [.closeGate])
        case (.draining(let feeds, let sinks), .feedUnlinked) where feeds > 0:
            return counted(feeds: feeds - 1, sinks: sinks)
        case (.draining(let feeds, let sinks), .sinkFinished) where sinks > 0:
            return counted(feeds: feeds, sinks: sinks - 1)
        case (.draining, .deadline): return (.retired, [.takeOut(overdue: true)])
        case (.retired, .feedUnlinked), (.retired, .sinkFinished), (.retired, .deadline): return (.retired, [])
        case (.joining, .failed), (.live, .failed): return (phase!, [.closeGate])
        case (.draining, .failed), (.retired, .failed): return (phase!, [])
        default: throw Transition(phase: phase, event: event)
        }
    }

    private static func counted(feeds: Int, sinks: Int) -> (Phase, [Effect]) {
        feeds == 0 && sinks == 0 ? (.retired, [.takeOut(overdue: false)]) : (.draining(feeds: feeds, sinks: sinks), [])
    }

    /// Moves on `event`; returns the effects to perform.
    mutating func handle(_ event: Event) throws(Transition) -> [Effect] {
        let (next, effects) = try Self.next(from: phase, on: event)
        phase = next
        return effects
    }

    /// Whether errors its elements post are its output's: while joining or live.
    var ownsErrors: Bool { phase == .joining || phase == .live }

    /// Whether it is draining.
    var isDraining: Bool {
        if case .draining = phase { return true }
        return false
    }
}
