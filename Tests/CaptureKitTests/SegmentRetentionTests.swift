import Foundation
import Testing
@testable import CaptureKit

/// Which segments retention deletes, without files: oldest first, never the open one.
@Suite("Segment retention")
struct SegmentRetentionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Six 10 s segments of 100 bytes, the last being written; the first began 60 s before `now`.
    static var index: SegmentIndex {
        var index = SegmentIndex()
        for number in 0..<6 {
            let start = now.addingTimeInterval(Double(number * 10 - 60))
            index.segments.append(.init(file: "\(number).mp4", start: SegmentIndex.format(start), recording: 1, startTime: Double(number * 10),
                                        duration: 10, frames: 300, bytes: 100, open: number == 5))
        }
        return index
    }

    @Test("by age: the segments that ended before now − maxAge")
    func age() {
        let gone = SegmentRetention(maxAge: 25).expired(in: Self.index, now: Self.now)
        #expect(gone.map(\.file) == ["0.mp4", "1.mp4", "2.mp4"])
    }

    @Test("by size: the oldest until the rest fit, the open one counted and never deleted")
    func size() {
        #expect(SegmentRetention(maxBytes: 350).expired(in: Self.index, now: Self.now).map(\.file) == ["0.mp4", "1.mp4", "2.mp4"])
        #expect(SegmentRetention(maxBytes: 1).expired(in: Self.index, now: Self.now).map(\.file) == ["0.mp4", "1.mp4", "2.mp4", "3.mp4", "4.mp4"])
        #expect(SegmentRetention.everything.expired(in: Self.index, now: Self.now).isEmpty)
    }

    @Test("both: age first, then size over what is left")
    func both() {
        #expect(SegmentRetention(maxAge: 45, maxBytes: 250).expired(in: Self.index, now: Self.now).map(\.file) == ["0.mp4", "1.mp4", "2.mp4", "3.mp4"])
    }

    @Test("bad values name themselves and what is valid")
    func invalid() {
        let output = SegmentedMovieFileOutput()
        #expect(throws: CaptureError.self) { try output.setRetention(SegmentRetention(maxAge: 0)) }
        #expect(throws: CaptureError.self) { try output.setRetention(SegmentRetention(maxBytes: -5)) }
        do {
            try output.setSegmentDuration(CaptureTime(value: 1, timescale: 2))
            Issue.record("half a second was taken")
        } catch {
            #expect(error.message.contains("from 1 to 86400 seconds") && error.message.contains("segmentDuration"), "\(error.message)")
        }
    }
}
