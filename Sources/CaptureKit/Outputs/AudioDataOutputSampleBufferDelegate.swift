/// Receives the audio an `AudioDataOutput` delivers (AVCaptureAudioDataOutputSampleBufferDelegate).
///
/// Threading: the method runs on the queue given to `setSampleBufferDelegate(_:queue:)`, one
/// call at a time in presentation order (on a serial queue), never on a GStreamer thread. The
/// delegate need not be `Sendable`: CaptureKit calls it on that queue alone, as AVFoundation does.
///
/// The method has AVFoundation's shape, the same as the video delegate's, so one class can
/// serve both outputs (tell them apart with `output === audioOutput`); it is optional.
public protocol AudioDataOutputSampleBufferDelegate: AnyObject {
    /// PCM audio arrived: `sampleBuffer.numSamples` frames in `formatDescription.audioFormat`,
    /// starting at `presentationTime`.
    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection)
}

extension AudioDataOutputSampleBufferDelegate {
    public func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {}
}
