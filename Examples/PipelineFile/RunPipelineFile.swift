// Running a pipeline file from Swift (CaptureFiles): the YAML file becomes a session, which runs
// for the file's run length and writes its outputs into a folder. Exits 0 when the run wrote
// files and, for a file with a metadata output (pipelines/scan-codes.yaml), found codes; 1
// otherwise.
//
// Run: swift run PipelineFileExample pipelines/scan-codes.yaml [output folder]
import CaptureFiles
import CaptureKit
import Foundation

@main
struct RunPipelineFile {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let path = arguments.first else {
            FileHandle.standardError.write(Data("usage: PipelineFileExample <pipeline.yaml> [output folder]\n".utf8))
            exit(2)
        }
        let folder = URL(fileURLWithPath: arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath)

        do {
            let file = try PipelineFile.load(contentsOf: path)      // errors name the file, line and column
            let pipeline = try file.makeSession()                   // devices found, outputs connected
            print(pipeline.session.pipelineDescription)             // the gst-launch-1.0 line it runs
            let report = try await pipeline.run(writingTo: folder)  // runs for the file's run length
            print(report)

            let codes = report.outputs.flatMap(\.codes)
            for code in codes { print("code: \(code)") }
            let hasMetadata = report.outputs.contains { $0.kind == "metadata" }
            exit(!report.filesWritten.isEmpty && (!hasMetadata || !codes.isEmpty) ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
