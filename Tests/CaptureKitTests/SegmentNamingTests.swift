import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// Segment names: the UTC time to the millisecond, read back to the same time, and the next
/// millisecond after a name read back always a new name (what keeps names unique when the wall
/// clock stepped back).
@Suite("Segment naming")
struct SegmentNamingTests {
    @Test("a name read back, plus a millisecond, names the next millisecond, for 100,000 times of day")
    func nextMillisecond() {
        var generator = SplitMix(seed: 27)
        for _ in 0..<100_000 {
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(generator.next() % 100_000_000_000) / 1000)
            let name = SegmentNaming.name(for: date)
            guard let read = SegmentNaming.date(fromName: name) else {
                Issue.record("\(name) does not read back")
                return
            }
            #expect(SegmentNaming.name(for: read) == name)
            let next = Date(timeIntervalSince1970: Double(SegmentNaming.milliseconds(read) + 1) / 1000)
            #expect(SegmentNaming.milliseconds(next) == SegmentNaming.milliseconds(read) + 1, "\(name): \(next.timeIntervalSince1970)")
            if SegmentNaming.name(for: next) == name { Issue.record("\(name) named twice"); return }
        }
    }

    @Test("the index's ISO start reads back to the name's millisecond")
    func isoStart() {
        let date = Date(timeIntervalSince1970: 1_764_450_000.5216)
        let iso = SegmentIndex.format(date)
        let read = SegmentIndex.date(iso)
        #expect(read.map { SegmentNaming.name(for: $0) } == SegmentNaming.name(for: date), "\(iso)")
    }

    @Test("timestamps are written in UTC to the millisecond, rounded, and read with or without fractions and at an offset")
    func timestamps() {
        #expect(SegmentArchive.timestamp(Date(timeIntervalSince1970: 1_795_946_400.5216)) == "2026-11-29T10:00:00.522Z")
        #expect(SegmentArchive.timestamp(Date(timeIntervalSince1970: 1_795_946_400.9996)) == "2026-11-29T10:00:01.000Z")
        #expect(SegmentArchive.date(fromTimestamp: "2026-11-29T10:00:00.521Z")?.timeIntervalSince1970 == 1_795_946_400.521)
        #expect(SegmentArchive.date(fromTimestamp: "2026-11-29T10:00:00Z")?.timeIntervalSince1970 == 1_795_946_400)
        #expect(SegmentArchive.date(fromTimestamp: "2026-11-29T11:00:00.5+01:00")?.timeIntervalSince1970 == 1_795_946_400.5)
        for bad in ["", "yesterday", "2026-11-29T10:00:00", "2026-11-29 10:00:00Z", "2026-11-29T10:00:00.Z"] {
            #expect(SegmentArchive.date(fromTimestamp: bad) == nil, "\(bad)")
        }
    }
}
