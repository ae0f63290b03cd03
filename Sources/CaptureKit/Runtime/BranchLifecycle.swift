/// The life of one output branch (or encoded stage) in a running pipeline, as a value: the phase
/// it is in and the moves an event makes. Pure, so every move is tested without GStreamer; the
/// runtime keeps one per branch under its lock and performs the effects a move returns.
///
/// ```
///            join              joined              drain               drained
///   (none) ───────▶ joining ──────────▶ live ──────────▶ draining ──────────▶ retired
///                      │                                                        ▲
///                      └──────────────────────── joinFailed ────────────────────┘
/// ```
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
        /// Being unlinked at an idle moment and, when it finishes with end of stream, waiting
        /// for that to reach its sinks, until a deadline.
        case draining
        /// Out of the pipeline: errors its elements still post concern no one.
        case retired
    }

    enum Event: Sendable, Equatable {
        case join, joined, joinFailed, drain, drained, failed
    }

    enum Effect: Sendable, Equatable {
        /// Stop passing frames into the branch (its gate), so its error never reaches the tee.
        case closeGate
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
        case (.live, .drain): return (.draining, [.closeGate])
        case (.draining, .drained): return (.retired, [])
        case (.joining, .failed), (.live, .failed): return (phase!, [.closeGate])
        case (.draining, .failed), (.retired, .failed): return (phase!, [])
        default: throw Transition(phase: phase, event: event)
        }
    }

    /// Moves on `event`; returns the effects to perform.
    mutating func handle(_ event: Event) throws(Transition) -> [Effect] {
        let (next, effects) = try Self.next(from: phase, on: event)
        phase = next
        return effects
    }

    /// Whether errors its elements post are its output's: while joining or live.
    var ownsErrors: Bool { phase == .joining || phase == .live }
}
