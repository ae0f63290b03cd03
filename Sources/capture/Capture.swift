import ArgumentParser
import CaptureKit
import Foundation
import GStreamerSwift
import Logging

/// The `capture` command: devices, stills, recordings, streams and pipeline files on CaptureKit.
@main
struct Capture: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Record, stream, snap and run camera pipelines with CaptureKit.",
        discussion: "Exit codes: 0 success, 1 runtime failure, 2 usage error.",
        subcommands: [Devices.self, Controls.self, Snap.self, Record.self, Stream.self, Preview.self, Serve.self, Scan.self, Compile.self, Validate.self, Run.self]
    )

    /// Parses, runs, and maps failures to the exit codes: 1 for runtime failures, 2 for usage.
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        if startsGStreamer(arguments) { GStreamer.initializeInBackground(loading: elements[arguments.first!] ?? []) }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CaptureError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            Foundation.exit(1)
        } catch let error as RuntimeFailure {
            FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
            Foundation.exit(1)
        } catch let error as InputFailure {
            FileHandle.standardError.write(Data("\(error.message)\n".utf8))
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue == 64 ? 2 : code.rawValue)
        }
    }
}

extension Capture {
    /// Whether these arguments run a command (every command uses GStreamer), rather than ask for
    /// help or a version. GStreamer then loads its registry on another thread while the arguments
    /// are parsed: on a one-shot `capture snap` the two took about the same time, one after the other.
    static func startsGStreamer(_ arguments: ArraySlice<String>) -> Bool {
        guard let first = arguments.first else { return false }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        return names.contains(first) && !arguments.contains { ["-h", "--help", "-help", "--version"].contains($0) }
    }

    /// The elements a one-shot command will make, by command name: their plugins load in the
    /// background too, while the device is probed (on vivid, loading them took as long as the probe).
    static let elements = [
        Snap.configuration.commandName!: ["v4l2src", "tee", "queue", "videoconvert", "videocrop", "videoscale", "jpegenc", "jifmux", "appsink"],
    ]
}

/// A failure while running (exit status 1), with a message that says what to do.
struct RuntimeFailure: Error {
    var message: String
}

/// A bad input file (exit status 2); the message is `file:line:column: …`.
struct InputFailure: Error {
    var message: String
}

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Show the compiled pipeline and GStreamer warnings.")
    var verbose = false

    /// Sets up swift-log on standard error: errors by default; with --verbose, GStreamer's
    /// warnings and CaptureKit's debug output too.
    func bootstrapLogging() {
        let level: Logger.Level = verbose ? .debug : .error
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
