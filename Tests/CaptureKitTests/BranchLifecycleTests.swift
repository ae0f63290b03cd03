import Testing
@testable import CaptureKit

/// The branch lifecycle's moves, without GStreamer: every phase against every event.
@Suite("Branch lifecycle", .ownDevices)
struct BranchLifecycleTests {
    typealias Phase = BranchLifecycle.Phase
    typealias Event = BranchLifecycle.Event

    @Test("a branch joins, lives, drains as its feeds and sinks answer, retires, and may join again")
    func life() throws {
        var branch = BranchLifecycle()
        #expect(branch.phase == .joining && branch.ownsErrors)
        #expect(try branch.handle(.joined) == [])
        #expect(try branch.handle(.failed) == [.closeGate])
        #expect(branch.phase == .live)
        #expect(try branch.handle(.drain(feeds: 2, sinks: 1)) == [.closeGate])
        #expect(!branch.ownsErrors && branch.isDraining)
        #expect(try branch.handle(.failed) == [], "a draining branch's errors change nothing")
        #expect(try branch.handle(.feedUnlinked) == [])
        #expect(try branch.handle(.sinkFinished) == [], "a sink may answer before the last feed")
        #expect(branch.phase == .draining(feeds: 1, sinks: 0))
        #expect(try branch.handle(.feedUnlinked) == [.takeOut(overdue: false)], "the last answer takes it out")
        #expect(branch.phase == .retired)
        #expect(try branch.handle(.deadline) == [], "its deadline, come later, changes nothing")
        #expect(try branch.handle(.join) == [])
        #expect(branch.phase == .joining)
        #expect(try branch.handle(.joinFailed) == [.closeGate])
        #expect(branch.phase == .retired)
    }

    @Test("a drain that is not answered in time is taken out at its deadline, overdue; answers after it change nothing")
    func overdue() throws {
        var branch = BranchLifecycle()
        _ = try branch.handle(.joined)
        _ = try branch.handle(.drain(feeds: 1, sinks: 1))
        #expect(try branch.handle(.feedUnlinked) == [])
        #expect(try branch.handle(.deadline) == [.takeOut(overdue: true)])
        #expect(try branch.handle(.sinkFinished) == [] && branch.phase == .retired)
        var empty = BranchLifecycle()
        _ = try empty.handle(.joined)
        #expect(try empty.handle(.drain(feeds: 0, sinks: 0)) == [.closeGate, .takeOut(overdue: false)], "nothing to wait for: out at once")
    }

    @Test("every move not in the lifecycle is refused, naming the phase and the event")
    func impossibleMoves() {
        let allowed: Set<String> = ["nil join", "retired join", "joining joined", "joining joinFailed", "live drain(feeds: 1, sinks: 1)",
                                    "draining(feeds: 1, sinks: 1) feedUnlinked", "draining(feeds: 1, sinks: 1) sinkFinished",
                                    "draining(feeds: 1, sinks: 1) deadline", "draining(feeds: 0, sinks: 1) sinkFinished", "draining(feeds: 0, sinks: 1) deadline",
                                    "retired feedUnlinked", "retired sinkFinished", "retired deadline",
                                    "joining failed", "live failed", "draining(feeds: 1, sinks: 1) failed", "draining(feeds: 0, sinks: 1) failed", "retired failed"]
        let phases: [Phase?] = [nil, .joining, .live, .draining(feeds: 1, sinks: 1), .draining(feeds: 0, sinks: 1), .retired]
        let events: [Event] = [.join, .joined, .joinFailed, .drain(feeds: 1, sinks: 1), .feedUnlinked, .sinkFinished, .deadline, .failed]
        for phase in phases {
            for event in events {
                let name = "\(phase.map { "\($0)" } ?? "nil") \(event)"
                if allowed.contains(name) {
                    #expect(throws: Never.self, "\(name)") { _ = try BranchLifecycle.next(from: phase, on: event) }
                } else {
                    #expect(throws: BranchLifecycle.Transition(phase: phase, event: event), "\(name)") {
                        _ = try BranchLifecycle.next(from: phase, on: event)
                    }
                }
            }
        }
        #expect("\(BranchLifecycle.Transition(phase: .live, event: .joined))" == "no move from live on joined")
    }
}
