import Foundation
import GStreamerSwift
import Testing
@_spi(Plan) @testable import CaptureKit

@Suite("PipelinePlan", .ownDevices)
struct PipelinePlanTests {
    @Test("a session compiles to deterministic names, and gst-launch-1.0 runs the rendered line")
    func goldenPlan() throws {
        let still = StillImageOutput()
        let frames = VideoDataOutput()
        try frames.setVideoSettings(.init(pixelFormat: .gray8, width: 160, height: 120))
        let test = try TestSession(preset: .cif352x288, outputs: [still, frames])
        let plan = test.session.pipelinePlan
        #expect(plan.elements.map(\.name) == [
            "input0_src", "input0_caps", "input0_tee",
            "output0_queue", "output0_convert", "output0_format", "output0_encode", "output0_mux", "output0_sink",
            "output1_queue", "output1_convert", "output1_scale", "output1_format", "output1_sink",
        ])
        #expect(plan.links.contains(.init(from: "input0_tee", to: "output1_queue")))
        let line = test.session.pipelineDescription
        #expect(line == """
            videotestsrc name=input0_src is-live=true pattern=blink ! capsfilter name=input0_caps \
            caps=video/x-raw,format=BGRA,width=352,height=288,framerate=30/1 ! tee name=input0_tee allow-not-linked=true \
            ! queue name=output0_queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! videoconvert name=output0_convert \
            ! capsfilter name=output0_format caps=video/x-raw,format=I420,colorimetry=1:4:7:1 ! jpegenc name=output0_encode quality=85 ! jifmux name=output0_mux ! appsink name=output0_sink sync=false async=false \
            emit-signals=false enable-last-sample=false wait-on-eos=false input0_tee. ! queue name=output1_queue max-size-buffers=1 \
            leaky=downstream ! videoconvert name=output1_convert ! videoscale name=output1_scale ! capsfilter name=output1_format \
            caps=video/x-raw,format=GRAY8,width=160,height=120 ! appsink name=output1_sink sync=false async=false emit-signals=false \
            enable-last-sample=false max-buffers=1 drop=true wait-on-eos=false
            """)
        let bounded = line.replacingOccurrences(of: "pattern=blink", with: "pattern=blink num-buffers=5")
        let output = try run("/bin/sh", ["-c", "timeout 20 gst-launch-1.0 -q \(bounded); echo exit=$?"])
        #expect(output.hasSuffix("exit=0\n"), "\(output)")
    }

    @Test("the compiler takes the encoder its context names, whatever this machine has; a context without one encodes nothing")
    func pinnedEncoder() throws {
        for name in ["vah264enc", "x264enc", "openh264enc"] {
            let session = CaptureSession(context: try CaptureContext(videoEncoderName: name))
            session.addInput(try CaptureDeviceInput(device: .find(virtual: .back)))
            let frames = VideoDataOutput()
            try frames.setVideoSettings(.init(codec: .h264))
            try session.checked.addOutput(frames)
            #expect(session.pipelinePlan.elements.filter { $0.name.hasSuffix("_enc") }.map(\.factory) == [name])
            #expect(session.context.videoEncoderName == name)
        }
        let none = CaptureSession(context: try CaptureContext(videoEncoderName: nil))
        none.addInput(try CaptureDeviceInput(device: .find(virtual: .back)))
        let movie = MovieFileOutput()
        try none.checked.addOutput(movie)
        #expect(movie.availableVideoCodecTypes.isEmpty && movie.videoEncoderName == nil)
        let error = try #require(throws: CaptureError.self) { try CaptureContext(videoEncoderName: "x265enc") }
        #expect(error.value == "x265enc" && error.message.contains("x264enc") && error.message.contains("vah264enc"), "\(error)")
        #expect(CaptureContext.shared.videoEncoderName == CaptureSession().context.videoEncoderName)
    }

    @Test("values with shell or gst-launch syntax are quoted")
    func quoting() {
        #expect(PipelinePlan.shellQuoted("video/x-raw,format=BGRA") == "video/x-raw,format=BGRA")
        #expect(PipelinePlan.shellQuoted("/tmp/a b.jpg") == "'/tmp/a b.jpg'")
        #expect(PipelinePlan.shellQuoted("it's") == "'it'\\''s'")
    }

    @Test("V4L2 caps become device formats: raw and MJPEG, frame-rate lists and ranges")
    func v4l2Formats() throws {
        let caps = try CapsStructure.parse(caps: """
            video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 15/1 }; \
            image/jpeg, width=(int)1920, height=(int)1080, framerate=(fraction)30/1; \
            video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, framerate=(fraction)[ 1/1, 10/1 ]; \
            video/x-raw(memory:DMABuf), format=(string)NV12, width=(int)640, height=(int)480, framerate=(fraction)30/1
            """)
        let formats = CaptureDevice.Format.formats(from: caps)
        #expect(formats.count == 3)
        #expect(formats[0] == .init(pixelFormat: .yuy2, width: 640, height: 480, videoSupportedFrameRateRanges: [
            .init(minFrameRate: 30, maxFrameRate: 30), .init(minFrameRate: 15, maxFrameRate: 15),
        ]))
        #expect(formats[1].pixelFormat == .mjpeg && formats[1].maxFrameRate == 30)
        #expect(formats[2].videoSupportedFrameRateRanges == [.init(minFrameRate: 1, maxFrameRate: 10)])
        // Presets: exact sizes, raw before compressed at equal size.
        #expect(SessionPreset.vga640x480.bestFormat(among: formats)?.pixelFormat == .yuy2)
        #expect(SessionPreset.hd1920x1080.bestFormat(among: formats)?.pixelFormat == .mjpeg)
        #expect(SessionPreset.cif352x288.bestFormat(among: formats) == nil)
        #expect(formats[1].caps(frameRate: 30) == "image/jpeg,width=1920,height=1080,framerate=30/1")
    }
}

@Suite("VideoDataOutput branch", .ownDevices)
struct VideoDataBranchTests {
    @Test("frames already in the wanted format skip the converter, and the queue when late frames are dropped")
    func passthrough() throws {
        let output = VideoDataOutput()
        let source = SourceFormat(width: 640, height: 480, frameRate: 30, pixelFormat: .bgra)
        #expect(output.branch(prefix: "o", source: source).map(\.factory) == ["appsink"])
        try output.setVideoSettings(.init(pixelFormat: .bgra, width: 640, height: 480))
        #expect(output.branch(prefix: "o", source: source).map(\.factory) == ["appsink"])
        output.alwaysDiscardsLateVideoFrames = false
        #expect(output.branch(prefix: "o", source: source).map(\.factory) == ["queue", "appsink"])
        try output.setVideoSettings(.init(pixelFormat: .nv12))
        #expect(output.branch(prefix: "o", source: source).map(\.factory) == ["queue", "videoconvert", "capsfilter", "appsink"])
    }
}

extension PipelinePlanTests {
    @Test("a window preview's sink is the environment's, never probed by the compiler: pinned, it is that element; absent, a fakesink")
    func windowSinkFromEnvironment() throws {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.addInput(CaptureDeviceInput(device: CaptureDevice.find(virtual: .back)))
        let preview = VideoPreview(session: session)
        preview.sink = .window
        let graph = session.graph()
        func sink(_ windowSinks: [PreviewSink: String]) -> String? {
            let plan = PipelineCompiler.compile(graph, environment: .init(videoEncoder: nil, windowSinks: windowSinks))
            return plan.branches.first?.elements.last?.factory
        }
        #expect(sink([.window: "xvimagesink"]) == "xvimagesink")
        #expect(sink([.kms: "kmssink"]) == "fakesink")
        #expect(sink([:]) == "fakesink")
        _ = preview
    }
}
