import Foundation
import Testing
@testable import CaptureFiles

/// Decoding valid pipeline files into the model.
@Suite struct PipelineFileParsingTests {
    static let fullFile = """
        # CaptureKit pipeline
        version: 1
        preset: vga640x480
        inputs:
          - name: cam
            device: virtual
            format: 1280x720@29.97
          - device: 2
          - name: usb
            device: "Integrated Camera"
        outputs:
          - still:
              name: photo
              format: jpeg
              quality: 85
              count: 3
              path: "photo-{n}.jpg"
              connection:
                input: cam
                orientation: portrait
                mirrored: true
          - still: {format: nv12}
          - videoData:
              name: frames
              pixelFormat: nv12
              size: 320x240
              discardLate: false
              action: dump
              path: "frames/{n}.raw"
              connection: { input: usb, orientation: landscapeRight, mirrored: false }
          - videoData:
        run:
          seconds: 2.5

        """

    private func at(_ line: Int, _ column: Int, file: String = "full.yaml") -> PipelineFile.SourceLocation {
        PipelineFile.SourceLocation(file: file, line: line, column: column)
    }

    @Test func fullFileDecodesIntoTheExpectedModel() throws {
        let file = try PipelineFile.parse(Self.fullFile, fileName: "full.yaml")
        let expected = PipelineFile(
            version: 1,
            preset: .vga640x480,
            inputs: [
                PipelineFile.Input(
                    name: "cam",
                    device: .virtual(position: .back),
                    format: PipelineFile.FormatSpec(width: 1280, height: 720, frameRate: 29.97),
                    location: at(5, 5),
                    deviceLocation: at(6, 13),
                    formatLocation: at(7, 13)
                ),
                PipelineFile.Input(
                    name: "input1",
                    device: .index(2),
                    format: nil,
                    location: at(8, 5),
                    deviceLocation: at(8, 13),
                    formatLocation: nil
                ),
                PipelineFile.Input(
                    name: "usb",
                    device: .identifier("Integrated Camera"),
                    format: nil,
                    location: at(9, 5),
                    deviceLocation: at(10, 13),
                    formatLocation: nil
                ),
            ],
            outputs: [
                .still(PipelineFile.StillSpec(
                    name: "photo",
                    format: .jpeg,
                    quality: 85,
                    count: 3,
                    path: "photo-{n}.jpg",
                    connection: PipelineFile.ConnectionSpec(
                        input: "cam", orientation: .portrait, mirrored: true, location: at(19, 9)
                    ),
                    location: at(12, 5),
                    pathLocation: at(17, 13)
                )),
                .still(PipelineFile.StillSpec(
                    name: "output1",
                    format: .nv12,
                    quality: nil,
                    count: 1,
                    path: "output1-{n}.nv12",
                    connection: PipelineFile.ConnectionSpec(
                        input: "cam", namesInput: false, orientation: nil, mirrored: nil, location: at(22, 5)
                    ),
                    location: at(22, 5)
                )),
                .videoData(PipelineFile.VideoDataSpec(
                    name: "frames",
                    pixelFormat: .nv12,
                    size: PipelineFile.FrameSize(width: 320, height: 240),
                    discardLate: false,
                    action: .dump,
                    path: "frames/{n}.raw",
                    connection: PipelineFile.ConnectionSpec(
                        input: "usb", orientation: .landscapeRight, mirrored: false, location: at(30, 19)
                    ),
                    location: at(23, 5),
                    pathLocation: at(29, 13)
                )),
                .videoData(PipelineFile.VideoDataSpec(
                    name: "output3",
                    pixelFormat: .bgra,
                    size: nil,
                    discardLate: true,
                    action: .count,
                    path: nil,
                    connection: PipelineFile.ConnectionSpec(
                        input: "cam", namesInput: false, orientation: nil, mirrored: nil, location: at(31, 5)
                    ),
                    location: at(31, 5)
                )),
            ],
            run: .seconds(2.5),
            presetLocation: at(3, 9),
            runLocation: at(32, 1)
        )
        #expect(file == expected)
    }

    @Test func minimalFileGetsDefaults() throws {
        let yaml = """
            version: 1
            inputs: [{device: virtual-front}]
            outputs: [still: ~]
            run: {frames: 30}
            """
        let file = try PipelineFile.parse(yaml, fileName: "min.yaml")
        #expect(file.preset == nil)
        #expect(file.presetLocation == nil)
        #expect(file.inputs.map(\.name) == ["input0"])
        #expect(file.inputs[0].device == .virtual(position: .front))
        #expect(file.run == .frames(30))
        guard case .still(let still) = file.outputs.first else {
            Issue.record("expected a still output, got \(file.outputs)")
            return
        }
        #expect(still.name == "output0")
        #expect(still.format == .jpeg)
        #expect(still.count == 1)
        #expect(still.path == "output0-{n}.jpg")
        #expect(still.path(forIndex: 2) == "output0-2.jpg")
        #expect(still.connection.input == "input0")
    }

    @Test(arguments: [
        ("0", PipelineFile.DeviceReference.index(0)),
        ("\"1\"", .index(1)),
        ("virtual", .virtual(position: .back)),
        ("virtual-front", .virtual(position: .front)),
        ("usb-046d_0825", .identifier("usb-046d_0825")),
    ])
    func deviceReferences(written: String, expected: PipelineFile.DeviceReference) throws {
        let yaml = """
            version: 1
            inputs:
              - device: \(written)
            outputs:
              - videoData: {}
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "device.yaml")
        #expect(file.inputs[0].device == expected)
    }

    @Test(arguments: [
        ("640x480", PipelineFile.FormatSpec(width: 640, height: 480)),
        ("1920x1080@60", PipelineFile.FormatSpec(width: 1920, height: 1080, frameRate: 60)),
        ("1280x720@29.97", PipelineFile.FormatSpec(width: 1280, height: 720, frameRate: 29.97)),
    ])
    func formatStrings(written: String, expected: PipelineFile.FormatSpec) {
        #expect(PipelineFile.FormatSpec(parsing: written) == expected)
    }

    @Test(arguments: ["1280by720", "1280x", "x720", "1280x720@", "1280x720@30fps", "1280X720", "-1x2", "1280x720@.5"])
    func malformedFormatStrings(written: String) {
        #expect(PipelineFile.FormatSpec(parsing: written) == nil)
    }

    @Test func loadReadsAFileAndLocatesErrorsInIt() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CaptureFilesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let good = directory.appendingPathComponent("good.yaml").path
        try Self.fullFile.write(toFile: good, atomically: true, encoding: .utf8)
        let file = try PipelineFile.load(contentsOf: good)
        #expect(file.outputs.map(\.name) == ["photo", "output1", "frames", "output3"])
        #expect(file.inputs[0].location.file == good)

        let bad = directory.appendingPathComponent("bad.yaml").path
        try "version: 1\nvershun: 1\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(throws: PipelineFileError.self) { try PipelineFile.load(contentsOf: bad) }
        do {
            _ = try PipelineFile.load(contentsOf: bad)
        } catch {
            #expect(error.description.hasPrefix("\(bad):2:1: unknown key 'vershun'"))
        }
    }

    @Test func loadingAMissingFileFails() {
        do {
            _ = try PipelineFile.load(contentsOf: "/nonexistent/pipeline.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unreadableFile(reason: "no such file"))
            #expect(error.description == "/nonexistent/pipeline.yaml:1:1: cannot read pipeline file: no such file")
        }
    }
}
