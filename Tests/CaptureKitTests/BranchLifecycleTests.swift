import Testing
@testable import CaptureKit

/// The branch lifecycle's moves, without GStreamer: every phase against every event.
@Suite("Branch lifecycle", .ownDevices)
struct BranchLifecycleTests {
    typealias Phase = BranchLifecycle.Phase
    typealias Event = BranchLifecycle.Event

    @Test("a branch joins, lives, drains and retires, and may join again")
    func life() throws {
        var branch = BranchLifecycle()
        #expect(branch.phase == .joining && branch.ownsErrors)
        #expect(try branch.handle(.joined) == [])
        #expect(try branch.handle(.failed) == [.closeGate])
        #expect(branch.phase == .live)
        #expect(try branch.handle(.drain) == [.closeGate])
        #expect(!branch.ownsErrors)
        #expect(try branch.handle(.failed) == [], "a draining branch's errors change nothing")
        #expect(try branch.handle(.drained) == [])
        #expect(branch.phase == .retired)
        #expect(try branch.handle(.join) == [])
        #expect(branch.phase == .joining)
        #expect(try branch.handle(.joinFailed) == [.closeGate])
        #expect(branch.phase == .retired)
    }

    @Test("every move not in the lifecycle is refused, naming the phase and the event")
    func impossibleMoves() {
        let allowed: Set<String> = ["nil join", "retired join", "joining joined", "joining joinFailed", "live drain", "draining drained",
                                    "joining failed", "live failed", "draining failed", "retired failed"]
        let phases: [Phase?] = [nil, .joining, .live, .draining, .retired]
        let events: [Event] = [.join, .joined, .joinFailed, .drain, .drained, .failed]
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
