@testable import CaptureKit
import Testing

@Suite("Frames in a recording's queue", .ownDevices)
struct InFlightFramesTests {
    @Test("frames waiting in the queue are not dropped; frames a later one passes over are, however many wait")
    func waitingIsNotDropped() {
        var frames = InFlightFrames(capacity: 8)
        for time in [UInt64(10), 20, 30] { frames.entered(time) }
        #expect(frames.count == 3 && frames.dropped == 0)
        frames.left(10)
        #expect(frames.count == 2 && frames.dropped == 0)
        frames.entered(40)
        frames.left(40)  // the queue leaked 20 and 30 from its head
        #expect(frames.count == 0 && frames.dropped == 2)
        frames.left(50)  // never entered: nothing changes
        #expect(frames.count == 0 && frames.dropped == 2)
    }

    @Test("the ring wraps around its capacity; beyond it the oldest counts as dropped")
    func wrapsAndOverflows() {
        var frames = InFlightFrames(capacity: 4)
        for round in UInt64(0)..<10 {
            frames.entered(round * 2)
            frames.entered(round * 2 + 1)
            frames.left(round * 2)
            frames.left(round * 2 + 1)
        }
        #expect(frames.count == 0 && frames.dropped == 0)
        for time in UInt64(100)..<106 { frames.entered(time) }
        #expect(frames.count == 4 && frames.dropped == 2)
        frames.left(102)
        #expect(frames.count == 3 && frames.dropped == 2)
        frames.left(105)
        #expect(frames.count == 0 && frames.dropped == 4)
    }
}
