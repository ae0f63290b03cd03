import Foundation
import Testing

/// `--overlay`, `--overlay-text` and `--overlay-position` on `capture record`, `stream` and
/// `serve`: the recording's pipeline draws them before its encoder, and misuse is a usage error
/// naming the value.
@Suite("capture --overlay")
struct OverlayCommandTests {
    @Test("record --overlay: the wall clock and a text drawn at the bottom right before the encoder, in a file that plays")
    func record() throws {
        let file = try scratchDirectory().appendingPathComponent("stamped.mp4")
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--duration", "1.5", "--verbose",
                                            "--overlay", "%Y-%m-%d %H:%M:%S", "--overlay-text", "Porch <1> & co", "--overlay-position", "bottom-right",
                                            "-o", file.path])
        #expect(result.status == 0, "\(result.error)")
        let pipeline = try #require(result.error.split(separator: "\n").first { $0.hasPrefix("pipeline: ") }, "\(result.error)")
        let overlay = try #require(pipeline.range(of: "clockoverlay name="), "\(pipeline)")
        let encoder = try #require(pipeline.range(of: "_enc "), "\(pipeline)")
        #expect(overlay.lowerBound < encoder.lowerBound)
        for setting in ["halignment=right", "valignment=bottom", "shaded-background=true", "Porch &lt;1&gt; &amp; co"] {
            #expect(pipeline.contains(setting), "no \(setting) in \(pipeline)")
        }
        let probe = try runProcess(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                              "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.path])
        #expect((Int(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 40, "\(probe.output) \(probe.error)")
    }

    @Test("misuse is a usage error naming the value, on each command",
          arguments: [
              (["record", "--overlay-position", "middle"], "--overlay-position 'middle' is not a position: give one of bottom, bottom-left, bottom-right, top, top-left, top-right"),
              (["record", "--overlay-position", "top"], "--overlay-position applies to an overlay: give --overlay or --overlay-text"),
              (["stream", "--overlay", "", "rtsp://127.0.0.1:8554/cam"], "--overlay needs a strftime format"),
              (["serve", "--overlay-text", ""], "--overlay-text needs a text"),
          ])
    func usage(arguments: [String], message: String) throws {
        let result = try launch("capture", arguments + ["-d", "virtual"], in: try scratchDirectory())
        #expect(result.status == 2, "\(result.status): \(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }
}
