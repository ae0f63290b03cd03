// Seed 003's record button: a session with a camera and a microphone, a movie file output, one
// recording of a second stopped from the app, the delegate told when the file is finished.
// The runnable form of the documentation's "Recording movies" article.
//
// Pipeline the recording adds to the running session (print session.pipelineDescription while
// recording to see yours):
//   camera ! tee.  ! queue ! videoconvert ! x264enc ! h264parse ! mp4mux ! filesink
//   microphone ! tee. ! queue ! audioconvert ! audioresample ! avenc_aac ! aacparse ! mp4mux.
//
// Run: swift run RecordMovieExample [clip.mp4]
import CaptureKit
import Foundation

final class Recorder: FileOutputRecordingDelegate {
    let finished = DispatchSemaphore(value: 0)

    func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {
        print("recording to \(fileURL.path) with \((output as? MovieFileOutput)?.videoEncoderName ?? "no encoder")")
    }

    func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: Error?) {
        if let error {
            let complete = (error as NSError).userInfo[ErrorRecordingSuccessfullyFinishedKey] as? Bool ?? false
            print("finished with \(error) (complete: \(complete))")
        }
        finished.signal()
    }
}

@main
struct RecordMovie {
    static func main() async throws {
        let path = CommandLine.arguments.dropFirst().first ?? "clip.mp4"
        try? FileManager.default.removeItem(atPath: path)

        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual:microphone")))

        let movie = MovieFileOutput()
        try session.checked.addOutput(movie)   // connects the camera and the microphone
        try await session.checked.startRunning()

        let recorder = Recorder()
        movie.startRecording(to: URL(fileURLWithPath: path), recordingDelegate: recorder)
        try await Task.sleep(for: .seconds(1))
        movie.stopRecording()          // returns once the file is finished and closed
        recorder.finished.wait()
        await session.checked.stopRunning()

        print("\(path): \(String(format: "%.2f", movie.recordedDuration.seconds)) s, \(movie.recordedFileSize) bytes, \(movie.droppedFrameCount) frames dropped")
    }
}
