import CaptureKit

extension PipelineFile.Input {
    /// The media type the file itself shows the input to have, before any device is looked up:
    /// audio for `virtual-mic` or an audio `format`, video for the virtual cameras or a video
    /// `format`; nil for a device index, unique ID or name without a format.
    var declaredMediaType: MediaType? {
        switch device {
        case .virtual: return .video
        case .virtualMicrophone: return .audio
        case .index, .identifier:
            if audioFormat != nil { return .audio }
            if format != nil { return .video }
            return nil
        }
    }
}
