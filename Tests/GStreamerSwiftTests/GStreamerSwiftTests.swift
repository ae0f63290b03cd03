import Foundation
import Synchronization
import Testing
@testable import GStreamerSwift

@Suite("GStreamerSwift")
struct GStreamerSwiftTests {
    @Test("typed property values are checked against the property's type and range, and errors name the element, property and value")
    func properties() throws {
        let source = try Element(factory: "videotestsrc", name: "src")
        try source.set("num-buffers", 7)
        try source.set("pattern", .nick("ball"))
        try source.set("is-live", true)
        #expect(try source.get("num-buffers") == "7")
        #expect(try source.get("pattern") == "ball")
        #expect(throws: GStreamerError.noSuchProperty(element: "src", property: "nope")) { try source.set("nope", 1) }
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "num-buffers", value: "many", expectedType: "gint")) {
            try source.set("num-buffers", .serialized("many"))
        }
        // Text is not an integer, an integer is not a nick, a nick must be the enum's, and
        // integers must fit the property's range (horizontal-speed: gint; foreground-color: guint).
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "num-buffers", value: "7", expectedType: "gint")) {
            try source.set("num-buffers", .string("7"))
        }
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "pattern", value: "1", expectedType: "GstVideoTestSrcPattern")) {
            try source.set("pattern", 1)
        }
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "pattern", value: "plaid", expectedType: "GstVideoTestSrcPattern")) {
            try source.set("pattern", .nick("plaid"))
        }
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "foreground-color", value: "-1", expectedType: "guint")) {
            try source.set("foreground-color", -1)
        }
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "num-buffers", value: "-2", expectedType: "gint")) {
            try source.set("num-buffers", -2)
        }
        #expect(throws: GStreamerError.invalidPropertyValue(element: "src", property: "horizontal-speed", value: "4294967296", expectedType: "gint")) {
            try source.set("horizontal-speed", .int(1 << 32))
        }
        try source.set("foreground-color", .int(0xFF00_FF00))
        #expect(try source.get("foreground-color") == "4278255360")
        #expect(throws: GStreamerError.missingElement(factory: "no-such-element")) { try Element(factory: "no-such-element", name: "x") }
    }

    @Test("errors name the element they concern, where there is one")
    func errorElementNames() {
        #expect(GStreamerError.noSuchProperty(element: "src", property: "nope").elementName == "src")
        #expect(GStreamerError.linkFailed(from: "a", to: "b", caps: nil).elementName == "a")
        #expect(GStreamerError.stateChangeFailed(element: "p", state: "PLAYING", message: nil).elementName == "p")
        #expect(GStreamerError.noSuchElement(name: "input0_src").elementName == "input0_src")
        #expect(GStreamerError.missingElement(factory: "jifmux").elementName == nil)
        #expect(GStreamerError.invalidCaps("video/x-raw,").elementName == nil)
    }

    @Test("caps parse into typed structures")
    func caps() throws {
        let structures = try CapsStructure.parse(caps: "video/x-raw,format=BGRA,width=640,height=480,framerate=30/1;image/jpeg,framerate={15/1,30/1}")
        #expect(structures.count == 2)
        #expect(structures[0].fields["width"] == .int(640))
        #expect(structures[0].fields["format"] == .string("BGRA"))
        #expect(structures[0].fields["framerate"] == .fraction(30, 1))
        #expect(structures[1].fields["framerate"] == .list([.fraction(15, 1), .fraction(30, 1)]))
        #expect(throws: GStreamerError.self) { try CapsStructure.parse(caps: "not caps ,,") }
    }

    @Test("a pipeline runs to end of stream, delivering samples to appsink and messages to the bus watch")
    func pipelineRuns() throws {
        let pipeline = Pipeline(name: "test")
        let source = try Element(factory: "videotestsrc", name: "src")
        try source.set("num-buffers", 5)
        let sink = try Element(factory: "appsink", name: "sink")
        try sink.set("sync", false)
        pipeline.add(source)
        pipeline.add(sink)
        try source.link(to: sink, caps: "video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1")
        let times = Mutex<[UInt64]>([])
        AppSink.setHandlers(.init(newSample: { sample in
            #expect(sample.videoLayout?.width == 64)
            #expect(sample.videoLayout?.format == "GRAY8")
            times.withLock { $0.append(sample.presentationTime ?? .max) }
        }), on: sink)
        let ended = DispatchSemaphoreBox()
        let watch = BusWatch(pipeline: pipeline) { message in
            if message == .endOfStream { ended.signal() }
        }
        try pipeline.setState(.playing)
        #expect(ended.wait(seconds: 5))
        watch.stop()
        try pipeline.setState(.null)
        #expect(times.withLock { $0 } == (0..<5).map { UInt64($0) * 1_000_000_000 / 30 })
    }

    @Test("linking incompatible caps fails with both names")
    func linkFailure() throws {
        let pipeline = Pipeline(name: "bad")
        let source = try Element(factory: "videotestsrc", name: "src")
        let sink = try Element(factory: "fakesink", name: "sink")
        pipeline.add(source)
        pipeline.add(sink)
        #expect(throws: GStreamerError.linkFailed(from: "src", to: "sink", caps: "audio/x-raw")) {
            try source.link(to: sink, caps: "audio/x-raw")
        }
    }
}

import Dispatch

/// A semaphore usable from @Sendable closures.
final class DispatchSemaphoreBox: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func wait(seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

@Suite("GStreamerSwift device elements")
struct DeviceElementTests {
    @Test("the properties set on an element (what differs from a new one) come back serialized, as set() takes them")
    func configuredProperties() throws {
        let source = try Element(factory: "audiotestsrc", name: "mic")
        #expect(source.configuredProperties().isEmpty, "a new element: nothing configured")
        try source.set("wave", .nick("silence"))
        try source.set("is-live", true)
        try source.set("freq", 880)
        let changed = source.configuredProperties()
        #expect(changed == ["wave": "silence", "is-live": "true", "freq": "880"])
        let copy = try Element(factory: "audiotestsrc", name: "copy")
        for (name, value) in changed { try copy.set(name, .serialized(value)) }
        #expect(copy.configuredProperties() == changed, "the text round-trips through set()")

        let file = try Element(factory: "filesrc", name: "file")
        try file.set("location", .string("/tmp/a file, with \"quotes\".wav"))
        let quoted = try #require(file.configuredProperties()["location"])
        let again = try Element(factory: "filesrc", name: "again")
        try again.set("location", .serialized(quoted))
        #expect(try again.get("location") == file.get("location"), "strings needing quotes come back quoted and round-trip: \(quoted)")
    }

    @Test("a sample's caps structure is typed (audio/x-raw rate, channels, format)")
    func sampleCapsStructure() throws {
        let pipeline = Pipeline(name: "audio")
        let source = try Element(factory: "audiotestsrc", name: "src")
        try source.set("num-buffers", 1)
        let sink = try Element(factory: "appsink", name: "sink")
        try sink.set("sync", false)
        pipeline.add(source)
        pipeline.add(sink)
        try source.link(to: sink, caps: "audio/x-raw,format=S16LE,rate=16000,channels=2,layout=interleaved")
        let structures = Mutex<[CapsStructure]>([])
        AppSink.setHandlers(.init(newSample: { sample in
            if let structure = sample.capsStructure { structures.withLock { $0.append(structure) } }
        }), on: sink)
        let ended = DispatchSemaphoreBox()
        let watch = BusWatch(pipeline: pipeline) { message in
            if message == .endOfStream { ended.signal() }
        }
        try pipeline.setState(.playing)
        #expect(ended.wait(seconds: 5))
        watch.stop()
        try pipeline.setState(.null)
        let structure = try #require(structures.withLock { $0.first })
        #expect(structure.name == "audio/x-raw")
        #expect(structure.fields["format"] == .string("S16LE"))
        #expect(structure.fields["rate"] == .int(16000))
        #expect(structure.fields["channels"] == .int(2))
    }
}

@Suite("GStreamerSwift buffer flags")
struct BufferFlagTests {
    @Test("a probe sees audiotestsrc's silence flagged as a gap, and clearing the flag reaches downstream")
    func gapFlag() throws {
        for clears in [false, true] {
            let pipeline = Pipeline(name: "gap")
            let source = try Element(factory: "audiotestsrc", name: "src")
            try source.set("wave", .nick("silence"))
            try source.set("num-buffers", 3)
            let sink = try Element(factory: "fakesink", name: "sink")
            pipeline.add(source)
            pipeline.add(sink)
            try source.link(to: sink)
            let atSource = Mutex<[Bool]>([]), atSink = Mutex<[Bool]>([])
            try source.staticPad("src").addBufferProbe { buffer in
                atSource.withLock { $0.append(buffer.isGap) }
                if clears { buffer.isGap = false }
                return .pass
            }
            try sink.staticPad("sink").addBufferProbe { buffer in
                atSink.withLock { $0.append(buffer.isGap) }
                return .pass
            }
            let ended = DispatchSemaphoreBox()
            let watch = BusWatch(pipeline: pipeline) { message in
                if message == .endOfStream { ended.signal() }
            }
            try pipeline.setState(.playing)
            #expect(ended.wait(seconds: 5))
            watch.stop()
            try pipeline.setState(.null)
            #expect(atSource.withLock { $0 } == [true, true, true])
            #expect(atSink.withLock { $0 } == [!clears, !clears, !clears])
        }
    }
}

@Suite("GStreamer start-up")
struct GStreamerStartupTests {
    @Test("initializeInBackground loads the plugins of the factories named, skipping names no plugin provides")
    func backgroundLoading() async throws {
        // alphacolor: a plugin nothing else in this process uses.
        try #require(!GStreamer.isPluginLoaded(providing: "alphacolor"))
        GStreamer.initializeInBackground(loading: ["no-such-element", "alphacolor"])
        var waited = 0
        while !GStreamer.isPluginLoaded(providing: "alphacolor"), waited < 100 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(GStreamer.isPluginLoaded(providing: "alphacolor"))
        #expect(!GStreamer.isPluginLoaded(providing: "no-such-element"))
    }
}

@Suite("GStreamerSwift streaming-thread helpers")
struct StreamingThreadTests {
    /// videotestsrc ! queue ! `middle` ! fakesink; `configure` gets the queue's src pad and fakesink's sink pad, and a
    /// buffer probe installed after it reports what `seen` returns for each of 5 buffers.
    static func run<T: Sendable>(through middle: [Element] = [], _ configure: (Pad, Pad) -> Void,
                                 seen: @escaping @Sendable (borrowing ProbeBuffer) -> T) throws -> [T] {
        let pipeline = Pipeline(name: "threads")
        let source = try Element(factory: "videotestsrc", name: "src")
        try source.set("num-buffers", 5)
        try source.set("pattern", .nick("ball"))
        let queue = try Element(factory: "queue", name: "workq")
        let sink = try Element(factory: "fakesink", name: "sink")
        let chain = [source, queue] + middle + [sink]
        for element in chain { pipeline.add(element) }
        for (upstream, downstream) in zip(chain, chain.dropFirst()) { try upstream.link(to: downstream) }
        configure(try queue.staticPad("src"), try sink.staticPad("sink"))
        let values = Mutex<[T]>([])
        try sink.staticPad("sink").addBufferProbe { buffer in
            let value = seen(buffer)
            values.withLock { $0.append(value) }
            return .pass
        }
        let ended = DispatchSemaphoreBox()
        let watch = BusWatch(pipeline: pipeline) { message in
            if message == .endOfStream { ended.signal() }
        }
        try pipeline.setState(.playing)
        #expect(ended.wait(seconds: 10))
        watch.stop()
        try pipeline.setState(.null)
        return values.withLock { $0 }
    }

    /// A thread's nice value, as the kernel reports it (field 19 of its stat).
    static func nice(ofThread path: String) -> Int? {
        guard let stat = try? String(contentsOfFile: path + "/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }

    /// The calling thread's nice value and the nice values of the other threads bearing its name.
    static func niceValues() -> (own: Int?, namesakes: [Int]) {
        let own = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")).map { ($0 as NSString).lastPathComponent } ?? ""
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let namesakes = tasks.filter { $0 != me && (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) == own }
            .compactMap { nice(ofThread: "/proc/self/task/\($0)") }
        return (nice(ofThread: "/proc/thread-self"), namesakes)
    }

    @Test("x264's worker threads take the lower priority at the encoder's first buffer; the pooled streaming thread, and threads named like it before, keep theirs")
    func encoderWorkers() throws {
        // An idle thread bearing the queue thread's name already: not the encoder's.
        let bystander = Thread {
            try? "workq:src".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            Thread.sleep(forTimeInterval: 2)
        }
        bystander.start()
        Thread.sleep(forTimeInterval: 0.05)
        let encoder = try Element(factory: "x264enc", name: "enc")
        try encoder.set("threads", 2)
        try encoder.set("speed-preset", .nick("ultrafast"))
        let seen = try Self.run(through: [encoder], { queue, sink in queue.lowerEncoderWorkerPriority(until: sink, toNice: 7) }) { _ in Self.niceValues() }
        let last = try #require(seen.last)
        #expect(last.own == 0, "the streaming thread goes back to GStreamer's pool as it came")
        #expect(last.namesakes.filter { $0 == 7 }.count >= 1 && last.namesakes.filter { $0 == 0 }.count == 1, "\(last.namesakes)")
    }

    @Test("the copy probe hands on each buffer's size and timestamps unchanged")
    func copyProbe() throws {
        struct Seen: Equatable, Sendable { var pts: UInt64?; var size: Int }
        let plain = try Self.run({ _, _ in }) { Seen(pts: $0.presentationTime, size: $0.size) }
        let copied = try Self.run({ _, sink in sink.addCopyProbe() }) { Seen(pts: $0.presentationTime, size: $0.size) }
        #expect(copied == plain && copied.count == 5)
    }
}
