import Foundation
import Testing
@testable import CaptureKit

/// A large folder's index: changes go to the journal, loading replays it, and the end of the
/// recording folds it into index.json; a small folder's index is rewritten at each change.
@Suite("Segment index journal")
struct SegmentJournalTests {
    static func folder(segments: Int) throws -> URL {
        let folder = try temporaryDirectory().appendingPathComponent("big", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var index = SegmentIndex()
        for number in 0..<segments {
            index.segments.append(.init(file: "\(number).mp4", start: SegmentIndex.format(Date(timeIntervalSince1970: Double(number) * 2)), recording: 1,
                                        startTime: Double(number) * 2, duration: 2, frames: 60, bytes: 1000, open: false))
        }
        try index.save(folder: folder)
        return folder
    }

    static func segment(_ number: Int, in folder: URL) -> MovieSegment {
        MovieSegment(url: folder.appendingPathComponent("new\(number).mp4"), startDate: Date(timeIntervalSince1970: 1e9 + Double(number)),
                     startTime: Double(number), duration: 1, frameCount: 30, byteCount: 500)
    }

    final class Finished: SegmentedMovieFileOutputDelegate {
        let done = DispatchSemaphore(value: 0)
        func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) { done.signal() }
    }

    @Test("above 2000 segments: ten closed segments are ten journal lines, replayed on load; the recording's end writes them into index.json")
    func journal() throws {
        let folder = try Self.folder(segments: 2500)
        let output = SegmentedMovieFileOutput(), finished = Finished()
        let log = SegmentLog(folder: folder, retention: .everything, delegate: finished, queue: DispatchQueue(label: "test"),
                             output: { output }, onFailure: { _ in })
        #expect(log.number == 2)
        for number in 0..<10 { log.handle(.finished(Self.segment(number, in: folder), .boundary, nil)) }
        log.handle(.eventStarted(RecordingEvent(kinds: ["signal"], triggerDate: Date(), firstTrigger: 3, lastTrigger: 3, start: 2, end: nil, clip: nil)))
        let written = { try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: folder.appendingPathComponent("index.json"))) }
        var waited = 0
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(SegmentJournal.fileName).path) || SegmentIndex.load(folder: folder).segments.count < 2510 {
            Thread.sleep(forTimeInterval: 0.01)
            waited += 1
            try #require(waited < 500, "the journal never held the ten segments")
        }
        #expect(try written().segments.count == 2500, "index.json is not rewritten for each change above 2000 segments")
        let loaded = SegmentIndex.load(folder: folder)
        #expect(loaded.segments.count == 2510 && loaded.segments.last?.file == "new9.mp4" && loaded.segments.last?.recording == 2)
        #expect(loaded.events.count == 1 && loaded.events[0].kinds == ["signal"])
        log.recordingFinished(output: output, error: nil)
        #expect(finished.done.wait(timeout: .now() + 5) == .success)
        #expect(try written().segments.count == 2510 && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(SegmentJournal.fileName).path))
    }

    @Test("a line cut short by a crash is skipped; the others apply")
    func torn() throws {
        let folder = try Self.folder(segments: 3)
        let entry = SegmentIndex.Entry(file: "x.mp4", start: SegmentIndex.format(Date()), recording: 2, startTime: 0, duration: 1, frames: 30, bytes: 9, open: false)
        try SegmentJournal.append([.segment(entry), .removed("0.mp4")], folder: folder)
        let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(SegmentJournal.fileName))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"segment\":{\"file\":\"y.m".utf8))
        try handle.close()
        let loaded = SegmentIndex.load(folder: folder)
        #expect(loaded.segments.map(\.file) == ["1.mp4", "2.mp4", "x.mp4"])
    }
}
