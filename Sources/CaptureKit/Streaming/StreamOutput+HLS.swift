import Foundation

extension StreamOutput {
    /// Live HLS: `hlssink2` `prefix_sink` (MPEG-TS segments of the target's duration, cut on key
    /// frames, which it asks the encoder for; a rolling playlist of the newest, older segment
    /// files deleted). Video and AAC audio enter its `video` and `audio` pads; the bytes counted
    /// are the encoded video's.
    func hlsTail(prefix key: String, _ hls: HLSTarget) -> Tail {
        let sink = PipelinePlan.Element("hlssink2", .sink, in: key, [
            .init("location", .string(hls.directory.appendingPathComponent("segment%05d.ts").path)),
            .init("playlist-location", .string(hls.playlistURL.path)),
            .init("target-duration", .int(hls.segmentDuration)),
            .init("playlist-length", .int(hls.playlistLength)),
            .init("max-files", .int(hls.playlistLength * 2)),
        ])
        return Tail(elements: [sink], links: [], video: "\(sink.name).video", audio: "\(sink.name).audio",
                    counter: (element: .h264, pad: "src"))
    }
}

extension HLSTarget {
    /// Makes the directory (and its parents) when missing.
    func createDirectory() throws(CaptureError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .invalidSetting(name: "HLS directory", value: directory.path, valid: "a directory that can be created and written (\(error.localizedDescription))")
        }
    }
}
