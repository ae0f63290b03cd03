/// Receives the audio an `AudioDataOutput` delivers (AVCaptureAudioDataOutputSampleBufferDelegate).
///
/// Threading: the method runs on the queue given to `setSampleBufferDelegate(_:queue:)`, one
/// call at a time in presentation order (on a serial queue), never on a GStreamer thread.
public protocol AudioDataOutputSampleBufferDelegate: AnyObject, Sendable {
    /// PCM audio arrived: `sampleBuffer.numSamples` frames in `formatDescription.audioFormat`,
    /// starting at `presentationTime`.
    func captureOutput(_ output: AudioDataOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection)
}
