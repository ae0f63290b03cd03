import ArgumentParser
import CaptureFiles
import CaptureKit
import Foundation

/// `capture run FILE`: runs a pipeline file and reports what it produced.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a pipeline file; paths in it are relative to --directory.")

    @Argument(help: "A pipeline file (YAML).")
    var file: String

    @Option(name: .shortAndLong, help: "Where relative output paths are written (default: the current directory).")
    var directory = "."

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        global.bootstrapLogging()
        let prepared = try PipelineFileCommand.load(file)
        if global.verbose {
            FileHandle.standardError.write(Data("pipeline: \(prepared.session.pipelineDescription)\n".utf8))
        }
        do {
            let report = try await prepared.run(writingTo: URL(fileURLWithPath: directory))
            print(report)
        } catch {
            throw RuntimeFailure(message: "\(file): \(error)")
        }
    }
}
