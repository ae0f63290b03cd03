import Foundation
import Testing
@_spi(Plan) @testable import CaptureKit

/// `PipelinePlan.diff(to:)` on plans compiled from sessions that are not running: no GStreamer.
@Suite("Plan diff", .ownDevices)
struct PlanDiffTests {
    func session(_ outputs: [any CaptureOutput], device: CaptureDevice = .find(virtual: .back)) throws -> (CaptureSession, CaptureDeviceInput) {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        let input = try CaptureDeviceInput(device: device)
        try session.checked.addInput(input)
        for output in outputs { try session.checked.addOutput(output) }
        return (session, input)
    }

    func branch(_ plan: PipelinePlan, _ key: String) throws -> PipelinePlan.Branch {
        try #require(plan.branches.first { $0.key == key })
    }

    @Test("adding and removing outputs touches only their branches, keyed by the output, never by position")
    func addRemove() throws {
        let frames = VideoDataOutput(), still = StillImageOutput(), metadata = MetadataOutput()
        let (session, _) = try session([frames, still])
        let before = session.pipelinePlan
        try session.checked.addOutput(metadata)
        let added = session.pipelinePlan
        #expect(before.diff(to: added) == [.addBranch(try branch(added, "output2"))])
        try session.checked.removeOutput(still)
        let removed = session.pipelinePlan
        // The metadata output keeps its key after the still output before it goes.
        #expect(added.diff(to: removed) == [.removeBranch("output1")])
        #expect(removed.branches.map(\.key) == ["output0", "output2"])
        #expect(removed.diff(to: removed).isEmpty)
        #expect(removed.diff(to: PipelinePlan()) == [.removeBranch("output0"), .removeBranch("output2"), .removeSource("input0")])
        #expect(PipelinePlan().diff(to: removed).count == 3)
    }

    @Test("an output's setting changes only its branch: a live property is set, anything else rebuilds that branch")
    func settings() throws {
        let frames = VideoDataOutput(), still = StillImageOutput()
        let (session, _) = try session([frames, still])
        let before = session.pipelinePlan
        try still.setOutputSettings(.jpeg(quality: 0.5))
        let quality = session.pipelinePlan
        #expect(before.diff(to: quality) == [.setProperty(element: "output1_encode", name: "quality", value: 50)])
        try frames.setVideoSettings(.init(pixelFormat: .gray8, width: 320, height: 240))
        let resized = session.pipelinePlan
        #expect(quality.diff(to: resized) == [.removeBranch("output0"), .addBranch(try branch(resized, "output0"))])
    }

    @Test("a camera switch or a format change replaces only the source; branches that depend on the format are rebuilt")
    func replaceSource() throws {
        let frames = VideoDataOutput(), still = StillImageOutput()
        let (session, input) = try session([frames, still])
        let before = session.pipelinePlan
        session.beginConfiguration()
        try session.checked.removeInput(input)
        try session.checked.addInput(CaptureDeviceInput(device: .find(virtual: .front)))
        try session.checked.commitConfiguration()
        let switched = session.pipelinePlan
        let source = try #require(switched.sources.first)
        #expect(before.diff(to: switched) == [.replaceSource(source)])
        try session.setSessionPreset(.cif352x288)
        let smaller = session.pipelinePlan
        #expect(switched.diff(to: smaller) == [.replaceSource(try #require(smaller.sources.first))])
    }

    @Test("a frame-rate change is a live caps change of the source; a new format still replaces it")
    func liveFrameRate() throws {
        let device = CaptureDevice.find(virtual: .back)
        let (session, _) = try session([VideoDataOutput()], device: device)
        try device.lockForConfiguration()
        defer {
            try? device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
            device.unlockForConfiguration()
        }
        let before = session.pipelinePlan
        try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15))
        let slower = session.pipelinePlan
        #expect(before.diff(to: slower) == [.setProperty(element: "input0_caps", name: "caps",
                                                         value: .caps("video/x-raw,format=BGRA,width=640,height=480,framerate=15/1"))])
        try device.setActiveFormat(try #require(device.formats.first { $0.width == 352 }))
        let smaller = session.pipelinePlan
        #expect(slower.diff(to: smaller) == [.replaceSource(try #require(smaller.sources.first))])
    }

    @Test("digital zoom on a camera that crops in the pipeline is a live property change of its source")
    func liveSourceProperties() throws {
        let old = PipelinePlan.Source(key: "input0", mediaType: .video, device: "usb-cam", elements: [
            .init("v4l2src", name: "input0_src", [.init("device", .string("/dev/video0"))]),
            .init("videocrop", name: "input0_crop", [.init("left", 0, live: true)]),
            .init("tee", name: "input0_tee"),
        ])
        var zoomed = old
        zoomed.elements[1].properties[0].value = 80
        #expect(PipelinePlan(sources: [old]).diff(to: PipelinePlan(sources: [zoomed])) == [.setProperty(element: "input0_crop", name: "left", value: 80)])
        var other = old
        other.elements[0].properties[0].value = .string("/dev/video2")
        #expect(PipelinePlan(sources: [old]).diff(to: PipelinePlan(sources: [other])) == [.replaceSource(other)])
        var another = old
        another.device = "usb-cam-2"
        #expect(PipelinePlan(sources: [old]).diff(to: PipelinePlan(sources: [another])) == [.replaceSource(another)])
        var audio = other
        audio.mediaType = .audio
        #expect(PipelinePlan(sources: [old]).diff(to: PipelinePlan(sources: [audio])) == [.removeSource("input0"), .addSource(audio)])
    }
}

extension PlanDiffTests {
    @Test("a branch's viewers (WebRTC parts its output adds) are rendered off its tee and left out of the diff")
    func viewersAreDescribedNotDiffed() throws {
        let output = try StreamOutput(target: .webRTC)
        let (session, _) = try session([output])
        let before = session.pipelinePlan
        var after = before
        let key = try #require(after.branches.firstIndex { $0.key == "output0" })
        after.branches[key].viewers = [PipelinePlan.Branch.Viewer(
            key: "output0_whep1",
            elements: [.init("queue", name: "output0_whep1_queue"), .init("rtph264pay", name: "output0_whep1_pay", [.init("pt", 96)]),
                       .init("webrtcbin", name: "output0_whep1_webrtc")],
            links: [.init(from: "output0_tee", to: "output0_whep1_queue"), .init(from: "output0_whep1_queue", to: "output0_whep1_pay"),
                    .init(from: "output0_whep1_pay", to: "output0_whep1_webrtc.sink_%u")])]
        #expect(before.diff(to: after).isEmpty && after.diff(to: before).isEmpty)
        let line = after.launchDescription
        #expect(line.contains("output0_tee. ! queue name=output0_whep1_queue ! rtph264pay name=output0_whep1_pay pt=96"), "\(line)")
        #expect(line.contains("output0_whep1_pay. ! webrtcbin name=output0_whep1_webrtc"), "\(line)")
        #expect(!before.launchDescription.contains("webrtcbin"))
    }
}
