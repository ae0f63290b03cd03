import ArgumentParser
import CaptureFiles
import CaptureKit

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

/// `capture validate FILE`: checks a pipeline file against the schema and this machine's devices.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate", abstract: "Check a pipeline file; print 'FILE: ok' or file:line:column errors.")

    @Argument(help: "A pipeline file (YAML).")
    var file: String

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        _ = try PipelineFileCommand.load(file)
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
}
