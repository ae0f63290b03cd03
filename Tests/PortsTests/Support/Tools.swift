import Foundation

/// The tools users trust, run on what the ports wrote.
enum Tools {
    /// Runs a program; its exit status and its standard output and error together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// exiftool's `-n -s` tags of a file, name → value.
    static func exiftool(_ path: String, _ tags: [String]) throws -> [String: String] {
        let (_, output) = try run("/usr/bin/exiftool", ["-n", "-s"] + tags.map { "-" + $0 } + [path])
        var result: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[line[..<colon].trimmingCharacters(in: .whitespaces)] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// ffprobe's stream codec types of a file ("video", "audio").
    static func streams(_ path: String) throws -> [String] {
        let (_, output) = try run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
        return output.split(separator: "\n").map { String($0) }
    }
}
