import ArgumentParser
import CaptureFiles
import CaptureKit
import Foundation

/// `capture run FILE`: runs a pipeline file and reports what it produced.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline file; paths in it are relative to --directory.",
        discussion: """
            Every path the file writes must stay inside --directory, symbolic links followed, and \
            an existing file is replaced only with --force; anything else is a file:line:column \
            error (exit 2) before the camera starts. Pipeline files are at most 1 MiB.
            """
    )

    @Argument(help: "A pipeline file (YAML).")
    var file: String

    @Option(name: .shortAndLong, help: "Where relative output paths are written; no path may lead out of it (default: the current directory).")
    var directory = "."

    @Flag(help: "Replace files the run writes that exist already.")
    var force = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        global.bootstrapLogging()
        let prepared = try PipelineFileCommand.load(file)
        let folder = URL(fileURLWithPath: directory)
        try PipelineFileCommand.checkPaths(of: prepared.file, in: folder, force: force)
        if global.verbose {
            FileHandle.standardError.write(Data("pipeline: \(prepared.session.pipelineDescription)\n".utf8))
        }
        do {
            let report = try await prepared.run(writingTo: folder, replacingExistingFiles: force)
            print(report)
            for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        } catch {
            throw RuntimeFailure(message: "\(file): \(error)")
        }
    }
}
