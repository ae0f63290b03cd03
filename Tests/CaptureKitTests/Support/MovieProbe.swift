import Foundation

/// What ffprobe reads in a movie file: its format and streams (counted frames included).
struct MovieProbe {
    struct Stream {
        var codec: String
        var type: String
        var width: Int?
        var height: Int?
        var frames: Int
        var startTime: Double
        var duration: Double?
        var sampleRate: Int?
        var rotation: Double?
    }

    var formatName: String
    /// The container's creation time (`creation_time`: an MP4/MOV header's, Matroska's DateUTC).
    var creationTime: Date?
    var duration: Double
    var size: Int
    var streams: [Stream]

    var video: Stream? { streams.first { $0.type == "video" } }
    var audio: Stream? { streams.first { $0.type == "audio" } }

    /// Runs `ffprobe -count_frames` on `path`; throws when ffprobe cannot read the file. With
    /// `toleratingErrors`, decoding errors (a stream cut off mid-frame by a killed receiver)
    /// go to the test's output instead of failing the probe.
    init(_ path: String, toleratingErrors: Bool = false) throws {
        let output = try run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_format", "-show_streams", "-of", "json", path],
                             mergingErrors: !toleratingErrors)
        guard let data = output.data(using: .utf8),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let format = json["format"] as? [String: Any] else {
            throw ProbeError(message: "ffprobe \(path) failed: \(output)")
        }
        formatName = format["format_name"] as? String ?? ""
        creationTime = ((format["tags"] as? [String: Any])?["creation_time"] as? String).flatMap {
            try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0)
        }
        duration = Double(format["duration"] as? String ?? "") ?? 0
        size = Int(format["size"] as? String ?? "") ?? 0
        streams = (json["streams"] as? [[String: Any]] ?? []).map { stream in
            let sideData = stream["side_data_list"] as? [[String: Any]] ?? []
            return Stream(codec: stream["codec_name"] as? String ?? "", type: stream["codec_type"] as? String ?? "",
                          width: stream["width"] as? Int, height: stream["height"] as? Int,
                          frames: Int(stream["nb_read_frames"] as? String ?? "") ?? 0,
                          startTime: Double(stream["start_time"] as? String ?? "") ?? 0,
                          duration: Double(stream["duration"] as? String ?? ""),
                          sampleRate: Int(stream["sample_rate"] as? String ?? ""),
                          rotation: sideData.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first)
        }
    }

    /// The types of the file's top-level boxes (ISO base media files), in order.
    static func topLevelBoxes(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var boxes: [String] = [], offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            boxes.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }

    struct ProbeError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
