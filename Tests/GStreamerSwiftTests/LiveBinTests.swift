import Foundation
import Synchronization
import Testing
@testable import GStreamerSwift

/// Bins, ghost pads, request pads and probes: what a pipeline that changes while it runs needs.
@Suite("Live bins and probes")
struct LiveBinTests {
    /// Frames a branch received: presentation time and first byte.
    final class Seen: Sendable {
        let frames = Mutex<[(UInt64, UInt8)]>([])
        func withLock<R>(_ body: ([(UInt64, UInt8)]) -> R) -> R { frames.withLock { body($0) } }
    }

    /// `videotestsrc is-live ! capsfilter ! tee`, playing.
    final class Fixture: Sendable {
        let pipeline = Pipeline(name: "live")
        let tee: Element
        let sourceBin: Bin

        init() throws {
            sourceBin = try Fixture.source(name: "source", pattern: "black")
            tee = try Element(factory: "tee", name: "tee")
            try tee.set("allow-not-linked", true)
            pipeline.add(sourceBin)
            pipeline.add(tee)
            try sourceBin.element.staticPad("src").link(to: try tee.staticPad("sink"))
            try pipeline.setState(.playing)
        }

        static func source(name: String, pattern: String) throws -> Bin {
            let bin = Bin(name: name)
            let source = try Element(factory: "videotestsrc", name: "\(name)_src")
            try source.set("is-live", true)
            try source.set("pattern", .nick(pattern))
            let caps = try Element(factory: "capsfilter", name: "\(name)_caps")
            try caps.set("caps", .caps("video/x-raw,format=GRAY8,width=32,height=24,framerate=50/1"))
            bin.add(source)
            bin.add(caps)
            try source.link(to: caps)
            try bin.addGhostPad(name: "src", target: try caps.staticPad("src"))
            return bin
        }

        /// A `queue ! appsink` bin whose samples' presentation times and first byte are recorded.
        func branch(name: String) throws -> (Bin, Seen) {
            let bin = Bin(name: name)
            let queue = try Element(factory: "queue", name: "\(name)_queue")
            let sink = try Element(factory: "appsink", name: "\(name)_sink")
            for (key, value): (String, PropertyValue) in [("sync", false), ("async", false), ("max-buffers", 2), ("drop", true)] { try sink.set(key, value) }
            bin.add(queue)
            bin.add(sink)
            try queue.link(to: sink)
            try bin.addGhostPad(name: "sink", target: try queue.staticPad("sink"))
            let seen = Seen()
            AppSink.setHandlers(.init(newSample: { sample in
                let first = (try? sample.withBytes { $0.first ?? 0 }) ?? 0
                seen.frames.withLock { $0.append((sample.presentationTime ?? .max, first)) }
            }), on: sink)
            return (bin, seen)
        }

        /// Adds a branch bin to the running pipeline from a new tee pad: brought to PLAYING
        /// first, then linked (linked first, it answers the tee's next frame with FLUSHING, which
        /// the tee hands back to the live source, and the source stops for good).
        func attach(_ bin: Bin) throws -> Pad {
            pipeline.add(bin)
            #expect(bin.element.syncStateWithParent())
            let pad = try tee.requestPad("src_%u")
            try pad.link(to: try bin.element.staticPad("sink"))
            return pad
        }

        /// Unlinks a branch at an idle probe on its tee pad, then removes it.
        func detach(_ bin: Bin, from pad: Pad) throws {
            let unlinked = DispatchSemaphoreBox()
            let sink = try bin.element.staticPad("sink")
            pad.addProbe(.idle) { pad, _ in
                pad.unlink(from: sink)
                unlinked.signal()
                return .remove
            }
            #expect(unlinked.wait(seconds: 2))
            pipeline.remove(bin)
            tee.releaseRequestPad(pad)
        }

        deinit { try? pipeline.setState(.null) }
    }

    @Test("a branch added to a playing pipeline receives frames with continuing times, and is removed at an idle probe")
    func addAndRemoveBranch() throws {
        let fixture = try Fixture()
        let (first, firstSeen) = try fixture.branch(name: "first")
        let firstPad = try fixture.attach(first)
        Thread.sleep(forTimeInterval: 0.3)
        let (second, secondSeen) = try fixture.branch(name: "second")
        let secondPad = try fixture.attach(second)
        Thread.sleep(forTimeInterval: 0.3)
        try fixture.detach(second, from: secondPad)
        let countAfterRemoval = secondSeen.withLock { $0.count }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(secondSeen.withLock { $0.count } == countAfterRemoval)
        #expect(countAfterRemoval > 5)
        #expect(fixture.pipeline.currentState == .playing)
        let times = firstSeen.withLock { $0.map(\.0) }
        #expect(times.count > 30)
        // Times continue: the second branch starts where the first one is, not at zero.
        let secondStart = secondSeen.withLock { $0.first?.0 } ?? 0
        #expect(secondStart >= 250_000_000)
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later > earlier) }
        try fixture.detach(first, from: firstPad)
        #expect((try? fixture.pipeline.element(named: "first_sink")) == nil)
    }

    @Test("a source bin blocked at its pad is swapped behind the tee; times keep increasing")
    func replaceSource() throws {
        let fixture = try Fixture()
        let (branch, seen) = try fixture.branch(name: "out")
        _ = try fixture.attach(branch)
        Thread.sleep(forTimeInterval: 0.3)
        let teeSink = try fixture.tee.staticPad("sink")
        let old = fixture.sourceBin
        let oldSource = try old.element.staticPad("src")
        // Block the pad inside the bin, not the bin's ghost pad: taking the bin to NULL flushes
        // the caps filter's pad (children change sink first), which wakes the probe before the
        // source waits for its thread; so nothing is half-pushed into the tee.
        let blocked = DispatchSemaphoreBox()
        try old.element(named: "source_caps").staticPad("src").addProbe(.blockDownstream) { _, _ in
            blocked.signal()
            return .ok
        }
        #expect(blocked.wait(seconds: 2))
        fixture.pipeline.remove(old)
        oldSource.unlink(from: teeSink)
        let white = try Fixture.source(name: "white", pattern: "white")
        fixture.pipeline.add(white)
        try white.element.staticPad("src").link(to: teeSink)
        #expect(white.element.syncStateWithParent())
        Thread.sleep(forTimeInterval: 0.3)
        let frames = seen.withLock { $0 }
        #expect(frames.first?.1 == 16, "black in GRAY8 is 16")
        #expect(frames.last?.1 == 235, "white in GRAY8 is 235")
        for (earlier, later) in zip(frames, frames.dropFirst()) { #expect(later.0 > earlier.0) }
    }

    @Test("end of stream sent into a bin is seen by an event probe at its sink; custom events pass in order")
    func eventsThroughABin() throws {
        let fixture = try Fixture()
        let (branch, _) = try fixture.branch(name: "out")
        let pad = try fixture.attach(branch)
        let events = Mutex<[EventKind]>([])
        let ended = DispatchSemaphoreBox()
        try fixture.pipeline.element(named: "out_sink").staticPad("sink").addProbe(.eventDownstream) { _, data in
            if case .event(let kind) = data {
                events.withLock { $0.append(kind) }
                if kind == .endOfStream { ended.signal() }
            }
            return .ok
        }
        Thread.sleep(forTimeInterval: 0.1)
        let sink = try branch.element.staticPad("sink")
        let unlinked = DispatchSemaphoreBox()
        pad.addProbe(.idle) { pad, _ in
            pad.unlink(from: sink)
            unlinked.signal()
            return .remove
        }
        #expect(unlinked.wait(seconds: 2))
        #expect(sink.send(.customDownstream("capturekit-mark")))
        #expect(sink.send(.endOfStream()))
        #expect(ended.wait(seconds: 2))
        #expect(events.withLock { Array($0.suffix(2)) } == [.customDownstream("capturekit-mark"), .endOfStream])
        #expect(sink.peer == nil)
    }

    @Test("request pads are released and a missing template is an error naming the element")
    func requestPads() throws {
        let tee = try Element(factory: "tee", name: "t")
        let pad = try tee.requestPad("src_%u")
        #expect(pad.name == "src_0")
        #expect(pad.parentName == "t")
        tee.releaseRequestPad(pad)
        #expect(throws: GStreamerError.noSuchPad(element: "t", pad: "video_%u")) { try tee.requestPad("video_%u") }
    }
}

extension LiveBinTests {
    @Test("An error from an element a bin made inside itself is reported under its nearest planned (key_suffix) ancestor")
    func errorsNameThePlannedElement() throws {
        let (pipeline, branch, inner) = try Self.nested(pipeline: "errors", bin: "out0", innerBin: "out0_inner", element: "identity0")
        inner.postError(domain: .stream, message: "inner failure")
        guard case .error(let source, let message, _, _)? = pipeline.bus.pop(timeout: 1_000_000_000) else {
            Issue.record("no error message")
            return
        }
        #expect(source == "out0_inner" && message == "inner failure")
        let own = try Element(factory: "identity", name: "out0_own")
        branch.add(own)
        own.postError(domain: .stream, message: "own failure")
        guard case .error(let ownSource, _, _, _)? = pipeline.bus.pop(timeout: 1_000_000_000) else {
            Issue.record("no error message")
            return
        }
        #expect(ownSource == "out0_own")
    }
}

extension LiveBinTests {
    @Test("A message's origin is the path of the bins holding its source, whatever the names; out of the pipeline, the path starts at the bin taken out")
    func messageOrigin() throws {
        let (pipeline, branch, element) = try Self.nested(pipeline: "routes", bin: "part", innerBin: "x_misleading", element: "other_part_name")
        element.postError(domain: .stream, message: "failure")
        let (_, origin) = try #require(pipeline.bus.popRouted(timeout: 1_000_000_000))
        #expect(origin.path == ["routes", "part", "x_misleading", "other_part_name"])
        #expect(origin.part(of: "routes") == "part" && origin.part(of: "another") == nil)
        pipeline.remove(branch)
        element.postError(domain: .stream, message: "after")
        #expect(pipeline.bus.popRouted(timeout: 100_000_000) == nil, "a bin taken out posts on no pipeline's bus")
        let detached = MessageOrigin(path: ["part", "x_misleading", "other_part_name"])
        #expect(detached.part(of: "routes") == nil && detached.detachedPart == "part")
        #expect(MessageOrigin(path: ["routes"]).part(of: "routes") == "")
    }
}

extension LiveBinTests {
    /// `pipeline ⊃ bin ⊃ innerBin ⊃ element` (an identity), named as given.
    static func nested(pipeline name: String, bin: String, innerBin: String, element: String) throws -> (Pipeline, Bin, Element) {
        let pipeline = Pipeline(name: name)
        let outer = Bin(name: bin)
        let inner = Bin(name: innerBin)
        let identity = try Element(factory: "identity", name: element)
        inner.add(identity)
        outer.add(inner.element)
        pipeline.add(outer)
        return (pipeline, outer, identity)
    }
}
