import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Decoding `movie` outputs and building their sessions, and the errors a bad value gives, each
/// with its exact position and message.
@Suite("Pipeline file movie outputs", .serialized)
struct PipelineFileMovieTests {
    private func at(_ line: Int, _ column: Int) -> PipelineFile.SourceLocation {
        PipelineFile.SourceLocation(file: "movie.yaml", line: line, column: column)
    }

    /// A file with a camera, a microphone and one `movie` output with `settings` (lines indented
    /// under `movie:`, which is on line 8).
    private func yaml(_ settings: String) -> String { OneOutputFile.yaml("movie", settings) }

    private func parseError(in yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> PipelineFileError? {
        do {
            let file = try PipelineFile.parse(yaml, fileName: "movie.yaml")
            Issue.record("expected an error, decoded \(file)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test("every key decodes; sizes take K, M, G and Ki, Mi, Gi")
    func decodes() throws {
        let file = try PipelineFile.parse(yaml("""
            name: clip
            path: out/clip.MKV
            maxDuration: 1.5
            maxSize: 50M
            fragmentInterval: 0
            codec: h264
            bitrate: 2000000
            keyFrameInterval: 15
            audio: { input: mic }
            connection: { input: camera, orientation: portrait }
            """), fileName: "movie.yaml")
        guard case .movie(let spec) = try #require(file.outputs.first) else { throw MovieTestFailure.notAMovie }
        #expect(spec.name == "clip" && spec.path == "out/clip.MKV")
        #expect(spec.maxDuration == 1.5 && spec.maxSize == ByteCount(bytes: 50_000_000) && spec.fragmentInterval == 0)
        #expect(spec.codecSettings == VideoCodecSettings(codec: .h264, bitrate: 2_000_000, keyFrameInterval: 15))
        #expect(spec.audio?.input == "mic" && spec.connection.input == "camera" && spec.connection.orientation == .portrait)
        #expect(spec.location == at(8, 5))

        let plain = try PipelineFile.parse(yaml("{}"), fileName: "movie.yaml")
        guard case .movie(let defaults) = try #require(plain.outputs.first) else { throw MovieTestFailure.notAMovie }
        #expect(defaults.path == "output0.mp4" && defaults.audio == nil && defaults.codecSettings == nil)
        #expect(defaults.maxDuration == nil && defaults.maxSize == nil && defaults.fragmentInterval == nil)
        #expect(defaults.connection.input == "camera")

        #expect(ByteCount("300000")?.bytes == 300_000)
        #expect(ByteCount("1.5G")?.bytes == 1_500_000_000)
        #expect(ByteCount("512KiB")?.bytes == Int64(512 * 1024))
        #expect(ByteCount("2Mi")?.bytes == Int64(2 * 1024 * 1024))
        for bad in ["", "M", "-1M", "0", "1.5X", "12i", "lots"] { #expect(ByteCount(bad) == nil, "\(bad)") }
        #expect(ByteCount(bytes: 1_234_567).description == "1.2 MB")
    }

    @Test("bad values fail at their line:column, naming what is valid")
    func badValues() throws {
        let avi = try #require(parseError(in: yaml("path: clip.avi")))
        #expect(avi.description == "movie.yaml:9:13: malformed value 'clip.avi' for 'path': expected a path ending in .mp4, .mov, .mkv, e.g. clip.mp4")
        let duration = try #require(parseError(in: yaml("maxDuration: 0")))
        #expect(duration.description == "movie.yaml:9:20: value 0 for 'maxDuration' is out of range: must be a finite number above 0")
        let fragment = try #require(parseError(in: yaml("fragmentInterval: -1")))
        #expect(fragment.location == at(9, 25))
        #expect(fragment.kind == .outOfRange(key: "fragmentInterval", value: "-1", valid: "a finite number, 0 or more"))
        let size = try #require(parseError(in: yaml("maxSize: 50 MB please")))
        #expect(size.location == at(9, 16))
        #expect(size.kind == .malformedValue(key: "maxSize", value: "50 MB please", expected: ByteCount.expected))
        let zero = try #require(parseError(in: yaml("maxSize: 0")))
        #expect(zero.kind == .outOfRange(key: "maxSize", value: "0", valid: "at least 1 byte"))
        let codec = try #require(parseError(in: yaml("codec: h265")))
        #expect(codec.location == at(9, 14))
        #expect(codec.kind == .invalidValue(key: "codec", value: "h265", valid: ["jpeg", "h264"], suggestion: "h264"))
        let interval = try #require(parseError(in: yaml("keyFrameInterval: 0")))
        #expect(interval.kind == .outOfRange(key: "keyFrameInterval", value: "0", valid: "frames, at least 1"))
        let unknown = try #require(parseError(in: yaml("bitRate: 1000")))
        #expect(unknown.location == at(9, 7))
        #expect(unknown.kind == .unknownKey("bitRate", context: "movie output", allowed: PipelineFileDecoder.movieKeys, suggestion: "bitrate"))
        let camera = try #require(parseError(in: yaml("audio: { input: camera }")))
        #expect(camera.location == at(9, 23))
        #expect(camera.description.hasPrefix("movie.yaml:9:23: movie output 'output0' needs an audio input, but input 'camera' is a camera"),
                "\(camera.description)")
    }

    @Test("the session gets a movie output with the file's limits, encoding and audio; encoder limits fail at the output")
    func session() throws {
        let file = try PipelineFile.parse(yaml("""
            maxDuration: 3
            maxSize: 2Mi
            fragmentInterval: 0.5
            bitrate: 800000
            audio: {}
            """), fileName: "movie.yaml")
        let built = try file.makeSession(context: CaptureContext())
        let movie = try #require(built.outputs.first as? MovieFileOutput)
        #expect(movie.maxRecordedDuration.seconds == 3 && movie.maxRecordedFileSize == 2 * 1024 * 1024)
        #expect(movie.movieFragmentInterval.seconds == 0.5)
        #expect(movie.connections.map { $0.inputPorts.first?.mediaType } == [.video, .audio])
        #expect(movie.outputSettings(for: built.connections[0]) == VideoCodecSettings(bitrate: 800_000))

        let tooLow = try PipelineFile.parse(yaml("bitrate: 5"), fileName: "movie.yaml")
        do {
            _ = try tooLow.makeSession(context: CaptureContext())
            Issue.record("a 5 bit/s movie was accepted")
        } catch {
            #expect(error.location == at(8, 5))
            #expect(error.description.contains("5 bit/s") && error.description.contains("10000…200000000 bit/s"), "\(error.description)")
        }
    }

    enum MovieTestFailure: Error { case notAMovie }
}

extension PipelineFileMovieTests {
    @Test("segments: segment, keep and maxDisk decode; a folder or pattern path records segments (60 s by default)")
    func segments() throws {
        let file = try PipelineFile.parse(yaml("""
            path: door/
            segment: 2
            keep: 36h
            maxDisk: 20G
            """), fileName: "movie.yaml")
        guard case .movie(let spec) = file.outputs[0] else { Issue.record("\(file.outputs)"); return }
        #expect(spec.isSegmented && spec.segment == 2 && spec.keep == 36 * 3600 && spec.maxDisk == ByteCount(bytes: 20_000_000_000))
        let pattern = try PipelineFile.parse(yaml("path: cams/%Y/%H-%M-%S.mov"), fileName: "movie.yaml")
        guard case .movie(let patterned) = pattern.outputs[0] else { return }
        #expect(patterned.segment == 60 && patterned.path == "cams/%Y/%H-%M-%S.mov")
        let named = try PipelineFile.parse(yaml("segment: 5"), fileName: "movie.yaml")
        guard case .movie(let defaulted) = named.outputs[0] else { return }
        #expect(defaulted.path == "output0/")
    }

    @Test("segments' bad values fail at their line:column, naming what is valid")
    func segmentErrors() throws {
        let keep = try #require(parseError(in: yaml("segment: 1\nkeep: 5x")))
        #expect(keep.location == at(10, 13), "\(keep.description)")
        #expect(keep.kind == .malformedValue(key: "keep", value: "5x", expected: RetentionAge.expected))
        let short = try #require(parseError(in: yaml("segment: 0.5")))
        #expect(short.kind == .outOfRange(key: "segment", value: "0.5", valid: "from 1 to 86400 seconds") && short.location == at(9, 16))
        let size = try #require(parseError(in: yaml("segment: 1\nmaxSize: 5M")))
        #expect(size.location == at(10, 7) && size.description.contains("maxSize limits one file"), "\(size.description)")
        let lone = try #require(parseError(in: yaml("path: clip.mp4\nmaxDisk: 5G")))
        #expect(lone.location == at(10, 7) && lone.description.contains("maxDisk applies to segments"), "\(lone.description)")
        let file = try #require(parseError(in: yaml("segment: 1\npath: clip.mp4")))
        #expect(file.kind == .malformedValue(key: "path", value: "clip.mp4", expected: PipelineFileDecoder.segmentPathDescription))
        let escape = try #require(parseError(in: yaml("path: door/%Y/../../../etc/%H.mp4")))
        #expect(escape.kind == .malformedValue(key: "path", value: "door/%Y/../../../etc/%H.mp4", expected: PipelineFileDecoder.segmentPathDescription))
    }

    @Test("segments' events: on, pre, post, clips and motion decode; a motion metadata output takes motion settings")
    func events() throws {
        let file = try PipelineFile.parse(yaml("""
            path: door/
            events:
              on: [motion, face]
              pre: 2
              post: 30
              clips: true
              motion:
                sensitivity: 0.7
                minimumArea: 0.01
                analysisFrameRate: 10
                include: [[0, 0, 1, 0.5]]
                ignore: [[0, 0.85, 1, 0.15], [0.9, 0, 0.1, 0.1]]
            """), fileName: "movie.yaml")
        guard case .movie(let spec) = file.outputs[0], let events = spec.events else { Issue.record("\(file.outputs)"); return }
        #expect(events.triggers == [.motion, .face] && events.preRoll == 2 && events.postRoll == 30 && events.writesClips)
        #expect(events.recording == EventRecording(preRoll: 2, postRoll: 30, writesClips: true))
        #expect(events.motion == MotionDetectionSettings(sensitivity: 0.7, minimumArea: 0.01, includedRegions: [CGRect(x: 0, y: 0, width: 1, height: 0.5)],
                                                         ignoredRegions: [CGRect(x: 0, y: 0.85, width: 1, height: 0.15), CGRect(x: 0.9, y: 0, width: 0.1, height: 0.1)],
                                                         analysisFrameRate: 10))
        let defaults = try PipelineFile.parse(yaml("segment: 2\nevents: { on: [code] }"), fileName: "movie.yaml")
        guard case .movie(let plain) = defaults.outputs[0] else { return }
        #expect(plain.events?.recording == EventRecording(preRoll: 5, postRoll: 10, writesClips: false))
        let metadata = try PipelineFile.parse(OneOutputFile.yaml("metadata", "types: [motion]\nmotion: { sensitivity: 0.2, ignore: [[0, 0, 1, 0.1]] }"),
                                              fileName: "m.yaml")
        guard case .metadata(let seen) = metadata.outputs[0] else { Issue.record("\(metadata.outputs)"); return }
        #expect(seen.motion == MotionDetectionSettings(sensitivity: 0.2, ignoredRegions: [CGRect(x: 0, y: 0, width: 1, height: 0.1)]))
    }

    @Test("events' bad values fail at their line:column, naming what is valid")
    func eventErrors() throws {
        let kind = try #require(parseError(in: yaml("segment: 1\nevents: { on: [moton] }")))
        #expect(kind.kind == .invalidValue(key: "on", value: "moton", valid: ["code", "face", "motion"], suggestion: "motion"), "\(kind.description)")
        #expect(kind.location == at(10, 22), "\(kind.description)")
        let post = try #require(parseError(in: yaml("segment: 1\nevents: { on: [code], post: 4000 }")))
        #expect(post.kind == .outOfRange(key: "post", value: "4000", valid: "from 0 to 3600 seconds"), "\(post.description)")
        let lone = try #require(parseError(in: yaml("path: clip.mp4\nevents: { on: [code] }")))
        #expect(lone.location == at(10, 7) && lone.description.contains("events applies to segments"), "\(lone.description)")
        let motion = try #require(parseError(in: yaml("segment: 1\nevents: { on: [code], motion: { sensitivity: 0.5 } }")))
        #expect(motion.description.contains("motion settings apply to a motion trigger"), "\(motion.description)")
        let range = try #require(parseError(in: yaml("segment: 1\nevents: { on: [motion], motion: { sensitivity: 2 } }")))
        #expect(range.kind == .outOfRange(key: "sensitivity", value: "2", valid: "from 0 to 1"), "\(range.description)")
        let region = try #require(parseError(in: yaml("segment: 1\nevents: { on: [motion], motion: { ignore: [[0, 0.9, 1, 0.5]] } }")))
        #expect(region.kind == .outOfRange(key: "ignore", value: "[0.0, 0.9, 1.0, 0.5]", valid: "[x, y, width, height], a non-empty rect within 0...1"),
                "\(region.description)")
        let unknown = try #require(parseError(in: yaml("segment: 1\nevents: { on: [motion], when: now }")))
        #expect(unknown.description.contains("when"), "\(unknown.description)")
        let missing = try #require(parseError(in: yaml("segment: 1\nevents: { pre: 1 }")))
        #expect(missing.description.contains("on"), "\(missing.description)")
    }
}
