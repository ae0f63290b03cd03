import ArgumentParser
import CaptureFiles
import CaptureKit
import Foundation

/// `capture compile FILE`: the gst-launch-1.0 line for a pipeline file.
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Print the gst-launch-1.0 line a pipeline file compiles to.",
        discussion: "Paste it after 'gst-launch-1.0 ' to run the same pipeline without CaptureKit's callbacks.")

    @Argument(help: "A pipeline file (YAML).")
    var file: String

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        print(try PipelineFileCommand.load(file).session.pipelineDescription)
    }
}

/// `capture validate FILE`: checks a pipeline file against the schema, this machine's devices
/// and the folder `capture run` would write into.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a pipeline file; print 'FILE: ok' or file:line:column errors.",
        discussion: "Checks what 'capture run' checks with the same --directory and --force, the paths the file writes included."
    )

    @Argument(help: "A pipeline file (YAML).")
    var file: String

    @Option(name: .shortAndLong, help: "The folder 'capture run' would write into (default: the current directory).")
    var directory = "."

    @Flag(help: "Accept files the run would replace, as 'capture run --force' does.")
    var force = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        let prepared = try PipelineFileCommand.load(file)
        try PipelineFileCommand.checkPaths(of: prepared.file, in: URL(fileURLWithPath: directory), force: force)
        print("\(file): ok")
    }
}

/// Loading shared by the file commands: schema errors are usage errors (exit 2).
enum PipelineFileCommand {
    static func load(_ path: String) throws -> PipelineSession {
        do {
            return try PipelineFile.load(contentsOf: path).makeSession()
        } catch {
            throw InputFailure(message: error.description)
        }
    }

    /// Checks that the paths `file` writes stay inside `directory` and, without `force`, name no
    /// existing file.
    static func checkPaths(of file: PipelineFile, in directory: URL, force: Bool) throws {
        do {
            try file.checkOutputPaths(in: directory, replacingExistingFiles: force)
        } catch {
            throw InputFailure(message: error.description)
        }
    }
}
