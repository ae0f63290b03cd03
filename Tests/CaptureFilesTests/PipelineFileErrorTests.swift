import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Each kind of error, with its exact position and message.
@Suite struct PipelineFileErrorTests {
    /// Parses `yaml` as `pipe.yaml` and returns the error it must throw.
    private func parseError(in yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> PipelineFileError? {
        do {
            let file = try PipelineFile.parse(yaml, fileName: "pipe.yaml")
            Issue.record("expected an error, decoded \(file)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    private func at(_ line: Int, _ column: Int) -> PipelineFile.SourceLocation {
        PipelineFile.SourceLocation(file: "pipe.yaml", line: line, column: column)
    }

    @Test func unknownKeyIsRejectedWithASuggestion() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still:
                  qualty: 85
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(6, 7))
        #expect(error.kind == .unknownKey(
            "qualty",
            context: "still output",
            allowed: ["name", "format", "quality", "count", "path", "connection"],
            suggestion: "quality"
        ))
        #expect(error.description == "pipe.yaml:6:7: unknown key 'qualty' in still output "
            + "(allowed: name, format, quality, count, path, connection); did you mean 'quality'?")
    }

    @Test func unknownTopLevelKeyWithoutACloseMatchHasNoSuggestion() throws {
        let yaml = """
            version: 1
            cameras: []
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(2, 1))
        #expect(error.kind == .unknownKey(
            "cameras", context: "top level", allowed: ["version", "preset", "inputs", "outputs", "run"], suggestion: nil
        ))
        #expect(!error.description.contains("did you mean"))
    }

    @Test func unknownOutputKindIsRejectedWithASuggestion() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - stil: {}
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(5, 5))
        #expect(error.kind == .unknownKey("stil", context: "output item", allowed: ["still", "videoData", "metadata", "audioData", "movie", "stream", "preview"], suggestion: "still"))
    }

    @Test func misspeltEnumValueIsRejectedWithASuggestion() throws {
        let yaml = """
            version: 1
            inputs:
              - name: cam
                device: virtual
            outputs:
              - videoData:
                  connection: { input: cam, orientation: portrat }
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(7, 46))
        #expect(error.kind == .invalidValue(
            key: "orientation",
            value: "portrat",
            valid: ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight"],
            suggestion: "portrait"
        ))
        #expect(error.description.hasPrefix("pipe.yaml:7:46: invalid value 'portrat' for 'orientation'"))
        #expect(error.description.hasSuffix("did you mean 'portrait'?"))
    }

    @Test func misspeltPresetIsRejectedWithASuggestion() throws {
        let yaml = """
            version: 1
            preset: HD1280x720
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(2, 9))
        guard case .invalidValue("preset", "HD1280x720", _, let suggestion) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(suggestion == "hd1280x720")
    }

    @Test func wrongTypeNamesTheKeyAndWhatWasFound() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still:
                  count: three
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(6, 14))
        #expect(error.kind == .wrongType(key: "count", expected: "an integer", found: "string 'three'"))
        #expect(error.description == "pipe.yaml:6:14: wrong type for 'count': expected an integer, found string 'three'")
    }

    @Test func quotedBooleanIsAWrongType() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - videoData:
                  discardLate: "yes"
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(6, 20))
        #expect(error.kind == .wrongType(key: "discardLate", expected: "a boolean (true or false)", found: "string 'yes'"))
    }

    @Test func emptyValueOfWrongTypePointsAtItsKey() throws {
        let yaml = """
            version: 1
            inputs:
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(2, 1))
        #expect(error.kind == .wrongType(key: "inputs", expected: "a list", found: "an empty value"))
    }

    @Test func missingRequiredKeyPointsAtTheMapping() throws {
        let yaml = """
            version: 1
            inputs:
              - name: cam
                format: 640x480
            outputs:
              - still: {}
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(3, 5))
        #expect(error.kind == .missingKey("device", context: "input"))
        #expect(error.description == "pipe.yaml:3:5: missing required key 'device' in input")
    }

    @Test func missingTopLevelKey() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: {}
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(1, 1))
        #expect(error.kind == .missingKey("run", context: "top level"))
    }

    @Test func qualityOutOfRange() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still:
                  format: jpeg
                  quality: 101
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(7, 16))
        #expect(error.kind == .outOfRange(key: "quality", value: "101", valid: "in 0...100"))
        #expect(error.description == "pipe.yaml:7:16: value 101 for 'quality' is out of range: must be in 0...100")
    }

    @Test func framesMustBePositive() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: {}
            run:
              frames: 0
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(7, 11))
        #expect(error.kind == .outOfRange(key: "frames", value: "0", valid: "at least 1"))
    }

    @Test func duplicateOutputNamePointsAtTheSecondUse() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still:
                  name: photo
              - videoData:
                  name: photo
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(8, 13))
        #expect(error.kind == .duplicateName("photo", firstUse: at(6, 13)))
        #expect(error.description == "pipe.yaml:8:13: duplicate name 'photo'; first used at line 6, column 13")
    }

    @Test func explicitInputNameCollidingWithADefaultName() throws {
        let yaml = """
            version: 1
            inputs:
              - name: input1
                device: virtual
              - device: 0
            outputs:
              - still: {}
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(5, 5))
        #expect(error.kind == .duplicateName("input1", firstUse: at(3, 11)))
    }

    @Test func unknownInputReferenceIsRejectedWithASuggestion() throws {
        let yaml = """
            version: 1
            inputs:
              - name: cam
                device: virtual
              - name: usb
                device: 1
            outputs:
              - still:
                  connection:
                    input: camm
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(10, 16))
        #expect(error.kind == .unknownInput("camm", available: ["cam", "usb"], suggestion: "cam"))
        #expect(error.description
            == "pipe.yaml:10:16: connection input 'camm' does not name an input (inputs: cam, usb); did you mean 'cam'?")
    }

    @Test func bothFramesAndSecondsConflict() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: {}
            run:
              frames: 30
              seconds: 2.5
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(8, 3))
        #expect(error.kind == .conflictingKeys("seconds", with: "frames", reason: "run takes exactly one of 'frames' or 'seconds'"))
        #expect(error.description
            == "pipe.yaml:8:3: 'seconds' conflicts with 'frames': run takes exactly one of 'frames' or 'seconds'")
    }

    @Test func runNeedsFramesOrSeconds() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: {}
            run: {}
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(6, 1))
        #expect(error.kind == .missingChoice(["frames", "seconds"], context: "run"))
        #expect(error.description == "pipe.yaml:6:1: run needs exactly one of 'frames' or 'seconds'")
    }

    @Test func qualityConflictsWithARawFormat() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: { format: bgra, quality: 90 }
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(5, 28))
        #expect(error.kind == .conflictingKeys("quality", with: "format", reason: "quality only applies to format 'jpeg', not 'bgra'"))
    }

    @Test func pathConflictsWithActionOtherThanDump() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - videoData:
                  action: stats
                  path: "frames/{n}.raw"
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(7, 7))
        #expect(error.kind == .conflictingKeys("path", with: "action", reason: "path only applies to action 'dump', not 'stats'"))
    }

    @Test func dumpNeedsAPath() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - videoData:
                  action: dump
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(6, 7))
        #expect(error.kind == .missingKey("path", context: "videoData output with action 'dump'"))
    }

    @Test func outputItemWithTwoKinds() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: {}
                videoData: {}
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(6, 5))
        #expect(error.kind == .conflictingKeys(
            "videoData", with: "still", reason: "an output item has exactly one key naming its kind"
        ))
    }

    @Test func badFormatString() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
                format: 1280by720
            outputs:
              - still: {}
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(4, 13))
        #expect(error.kind == .malformedValue(
            key: "format", value: "1280by720", expected: "WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, e.g. 1280x720 or 1280x720@29.97"
        ))
        #expect(error.description == "pipe.yaml:4:13: malformed value '1280by720' for 'format': "
            + "expected WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, e.g. 1280x720 or 1280x720@29.97")
    }

    @Test func zeroSizedFormatIsOutOfRange() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
                format: 0x720@30
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(4, 13))
        guard case .outOfRange(key: "format", value: "0x720@30", _) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test func yamlSyntaxErrorKeepsYamsPosition() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual: front
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(3, 20))
        #expect(error.kind == .syntax(problem: "mapping values are not allowed in this context"))
        #expect(error.description == "pipe.yaml:3:20: YAML syntax error: mapping values are not allowed in this context")
    }

    @Test func tabIndentationIsASyntaxError() throws {
        let yaml = "version: 1\ninputs:\n\t- device: virtual\n"
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(3, 1))
        guard case .syntax(let problem) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(problem.hasPrefix("found character that cannot start any token"))
    }

    @Test func controlCharacterPositionIsMappedToLineAndColumn() throws {
        let yaml = "version: 1\ninputs: \"a\u{01}b\"\n"
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(2, 11))
        #expect(error.kind == .syntax(problem: "control characters are not allowed"))
    }

    @Test func duplicateKeyPointsAtTheRepetition() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
                name: a
                name: b
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(5, 5))
        #expect(error.kind == .duplicateKey("name"))
    }

    @Test func unsupportedVersion() throws {
        let yaml = """
            version: 2
            cameras: [front]
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(1, 10))
        #expect(error.kind == .unsupportedVersion(2, supported: [1]))
        #expect(error.description == "pipe.yaml:1:10: unsupported version 2; supported: 1")
    }

    @Test func misspeltVersionKeyIsSuggestedRatherThanReportedMissing() throws {
        let error = try #require(parseError(in: "verison: 1\n"))
        #expect(error.location == at(1, 1))
        #expect(error.kind == .unknownKey(
            "verison", context: "top level", allowed: ["version", "preset", "inputs", "outputs", "run"], suggestion: "version"
        ))
    }

    @Test func versionMustBeAnInteger() throws {
        let error = try #require(parseError(in: "version: \"1\"\n"))
        #expect(error.location == at(1, 10))
        #expect(error.kind == .wrongType(key: "version", expected: "an integer", found: "string '1'"))
    }

    @Test func emptyFile() throws {
        let error = try #require(parseError(in: "# nothing here\n"))
        #expect(error.location == at(1, 1))
        #expect(error.kind == .emptyDocument)
    }

    @Test func documentMustBeAMapping() throws {
        let error = try #require(parseError(in: "- version: 1\n"))
        #expect(error.location == at(1, 1))
        #expect(error.kind == .wrongType(key: "top level", expected: "a mapping", found: "a list"))
    }

    @Test func emptyInputsList() throws {
        let yaml = """
            version: 1
            inputs: []
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(2, 9))
        #expect(error.kind == .emptyList(key: "inputs"))
    }

    @Test func severalStillsNeedAnIndexInThePath() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still:
                  count: 2
                  path: photo.jpg
            run:
              frames: 1
            """
        let error = try #require(parseError(in: yaml))
        #expect(error.location == at(7, 7))
        guard case .conflictingKeys("path", with: "count", _) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
    }
}

@Suite("Pipeline file controls")
struct PipelineFileControlsTests {
    @Test("controls decode, and errors point at the key")
    func controls() throws {
        let file = try PipelineFile.parse("""
            version: 1
            inputs:
              - device: virtual
                controls: { iso: 200, shutter: "1/60", lens: 0.5, focus: locked, zoom: 1.5, torch: 0.25, wb: "5000:10", ev: -0.5, flash: auto }
            outputs:
              - still: {}
            run: { frames: 1 }
            """, fileName: "c.yaml")
        let controls = try #require(file.inputs[0].controls)
        #expect(controls.iso == 200 && controls.lens == 0.5 && controls.focus == .locked && controls.zoom == 1.5 && controls.torch == 0.25)
        #expect(abs((controls.shutter ?? 0) - 1.0 / 60) < 1e-12)
        #expect(controls.whiteBalance == .temperature(5000, tint: 10))
        #expect(controls.ev == -0.5 && controls.flash == .auto)
        #expect(controls.settings.exposureTargetBias == -0.5 && controls.settings.flashMode == .auto)
        do {
            _ = try PipelineFile.parse("version: 1\ninputs:\n  - device: virtual\n    controls: { flash: bright }\noutputs:\n  - still: {}\nrun: {frames: 1}\n", fileName: "l.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("l.yaml:4:24: "), "\(error)")
            #expect(error.description.contains("on, off, auto") || error.description.contains("'on'"), "\(error)")
        }
        do {
            _ = try PipelineFile.parse("version: 1\ninputs:\n  - device: virtual\n    controls:\n      shutter: fast\noutputs:\n  - still: {}\nrun: {frames: 1}\n", fileName: "s.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "s.yaml:5:16: " + error.kind.message, "\(error)")
            #expect(error.description.contains("1/60 or seconds"))
        }
        do {
            _ = try PipelineFile.parse("version: 1\ninputs:\n  - device: virtual\n    controls: { focus: sharp }\noutputs:\n  - still: {}\nrun: {frames: 1}\n", fileName: "f.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("f.yaml:4:24: "), "\(error)")
            #expect(error.description.contains("auto, continuous, locked") || error.description.contains("'continuous'"), "\(error)")
        }
    }
}

@Suite("Pipeline file metadata outputs")
struct PipelineFileMetadataTests {
    @Test("a metadata output decodes its types, rect and path; a misspelt type or a rect outside 0...1 fails at its line:column")
    func metadataOutput() throws {
        let file = try PipelineFile.parse("""
            version: 1
            inputs:
              - device: virtual
            outputs:
              - metadata: { types: [qr, Code39Mod43], rect: [0.25, 0, 0.5, 1], path: codes.jsonl }
            run: { seconds: 1 }
            """, fileName: "m.yaml")
        guard case .metadata(let spec) = file.outputs[0] else {
            Issue.record("not a metadata output: \(file.outputs[0])")
            return
        }
        #expect(spec.types == [.qr, .code39Mod43] && spec.path == "codes.jsonl")
        #expect(spec.rectOfInterest == CGRect(x: 0.25, y: 0, width: 0.5, height: 1))
        let defaults = try PipelineFile.parse("version: 1\ninputs:\n  - device: virtual\noutputs:\n  - metadata:\nrun: {seconds: 1}\n", fileName: "d.yaml")
        if case .metadata(let spec) = defaults.outputs[0] { #expect(spec.types == MetadataObjectType.machineReadableCodes && spec.path == nil) }
        do {
            _ = try PipelineFile.parse("version: 1\ninputs:\n  - device: virtual\noutputs:\n  - metadata: { types: [qr, ean31] }\nrun: {seconds: 1}\n", fileName: "t.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("t.yaml:5:29: "), "\(error)")
            #expect(error.description.contains("ean13"), "suggests the closest: \(error)")
        }
        do {
            _ = try PipelineFile.parse("version: 1\ninputs:\n  - device: virtual\noutputs:\n  - metadata: { rect: [0.5, 0.5, 0.8, 0.1] }\nrun: {seconds: 1}\n", fileName: "r.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("r.yaml:5:23: "), "\(error)")
            #expect(error.description.contains("within 0...1"), "\(error)")
        }
    }
}
