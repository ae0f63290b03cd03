import ArgumentParser
import CaptureKit
import Foundation

/// `--on`, `--pre`, `--post`, `--motion-ignore` and `--motion-sensitivity`, shared by
/// `capture record` and `capture serve`: what triggers events and how long their clips run.
/// Their usage errors name the value and what is valid.
struct EventArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Mark events on these triggers, comma-separated: code, face, motion (what the camera sees), and with capture record signal (SIGUSR1).",
                               valueName: "triggers"))
    var on: String?

    @Option(name: .customLong("motion-ignore"),
            help: ArgumentHelp("With --on motion: a part of the frame where motion never counts, as x,y,width,height fractions (0.0,0.85,1,0.15); repeat for more.",
                               valueName: "rect"))
    var motionIgnore: [RectOption] = []

    @Option(name: .customLong("motion-sensitivity"), parsing: .unconditional,
            help: ArgumentHelp("With --on motion: from 0 (only large, strong changes) to 1 (small, faint ones); default 0.5.", valueName: "value"))
    var motionSensitivity: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds of video before an event's first trigger in its clip (0 to 60; default 5).", valueName: "seconds"),
            transform: Seconds.zeroOrMore)
    var pre: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds after an event's last trigger in its clip (0 to 3600; default 10).", valueName: "seconds"),
            transform: Seconds.zeroOrMore)
    var post: Double?

    /// The kinds `--on` takes in `capture record`; `capture serve` takes all but `signal`.
    static let kinds = ["signal", "code", "face", "motion"]

    /// `--on`'s kinds, each one of `allowed`; empty without `--on`.
    func kinds(allowed: [String] = kinds) throws -> Set<String> {
        guard let on else { return [] }
        let kinds = on.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for kind in kinds where !allowed.contains(kind) {
            throw ValidationError("--on '\(kind)' is not a trigger: give one or more of \(allowed.joined(separator: ", ")), comma-separated")
        }
        return Set(kinds)
    }

    /// The usage errors of the options beside `--on`: given without a trigger that uses them,
    /// or out of range. `extra` are the command's own event options (flag, given).
    func checkUsage(allowed: [String] = kinds, extra: [(String, Bool)] = []) throws {
        let triggers = try kinds(allowed: allowed)
        if triggers.isEmpty {
            for (flag, given) in [("--pre", pre != nil), ("--post", post != nil)] + extra where given {
                throw ValidationError("\(flag) applies to events: give --on with what triggers them (\(allowed.joined(separator: ", ")))")
            }
        }
        if !triggers.contains("motion") {
            for (flag, given) in [("--motion-ignore", !motionIgnore.isEmpty), ("--motion-sensitivity", motionSensitivity != nil)] where given {
                throw ValidationError("\(flag) applies to motion: give --on motion")
            }
        }
        if let motionSensitivity, !(0...1).contains(motionSensitivity) {
            throw ValidationError("--motion-sensitivity \(Record.number(motionSensitivity)) is out of range: from 0 to 1")
        }
        if let rect = motionIgnore.first(where: { !$0.isWithinUnitSquare }) {
            throw ValidationError("--motion-ignore '\(rect.text)' is not a part of the frame: x,y,width,height fractions, non-empty and within 0 to 1")
        }
        if let pre, pre > 60 { throw ValidationError("--pre \(Record.number(pre)) is out of range: from 0 to 60 seconds") }
        if let post, post > 3600 { throw ValidationError("--post \(Record.number(post)) is out of range: from 0 to 3600 seconds") }
    }

    /// Whether `--pre` or `--post` was given.
    var givesClipLength: Bool { pre != nil || post != nil }

    /// The clips' pre- and post-roll (5 s and 10 s unless given).
    func recording(writesClips: Bool) -> EventRecording {
        EventRecording(preRoll: pre ?? 5, postRoll: post ?? 10, writesClips: writesClips)
    }

    /// Motion detection as `--motion-sensitivity` and `--motion-ignore` set it.
    var motion: MotionDetectionSettings {
        MotionDetectionSettings(sensitivity: motionSensitivity ?? 0.5, ignoredRegions: motionIgnore.map(\.value))
    }
}
