@testable import CaptureFiles
import CaptureKit
import Foundation
import Testing

/// A `movie` output whose file was left in fragments (`movieNotFinalized`): the run succeeds,
/// and its report says so, naming the file (`capture run` prints it as a warning).
@Suite("Pipeline files: a movie left in fragments")
struct PipelineMovieWarningTests {
    @Test("did-finish with movieNotFinalized counts the movie and carries the warning; a plain stop carries none")
    func fragmentedMovieWarns() throws {
        let file = try PipelineFile.parse(OneOutputFile.yaml("movie", "name: clip\npath: clip.mp4"), fileName: "movie.yaml")
        guard case .movie(let spec) = try #require(file.outputs.first) else { throw MovieWarningFailure.notAMovie }
        let directory = FileManager.default.temporaryDirectory
        for (error, warns) in [(CaptureError.movieNotFinalized(directory.appendingPathComponent("clip.mp4"), because: "made no progress for 20 s", ending: nil), true),
                               (nil, false)] {
            let monitor = PipelineRunMonitor(outputCount: 1, frameTarget: nil)
            let recorder = PipelineMovieRecorder(index: 0, spec: spec, output: MovieFileOutput(), directory: directory, monitor: monitor)
            recorder.fileOutput(MovieFileOutput(), didFinishRecordingTo: directory.appendingPathComponent("clip.mp4"), from: [], error: error)
            let progress = try #require(monitor.progress.first)
            #expect(progress.count == 1 && progress.files == [directory.appendingPathComponent("clip.mp4").path])
            if warns {
                #expect(progress.warnings.count == 1 && progress.warnings[0].contains("movie output 'clip'")
                        && progress.warnings[0].contains("clip.mp4' stays fragmented"), "\(progress.warnings)")
            } else {
                #expect(progress.warnings.isEmpty)
            }
        }
    }

    enum MovieWarningFailure: Error { case notAMovie }
}
