import Foundation

/// Told of each stage of a photo capture (AVCapturePhotoCaptureDelegate). Every method is
/// optional.
///
/// Threading: every method runs on CaptureKit's photo queue (one serial queue for all photo
/// outputs), in this order for each capture: will-begin, will-capture, did-capture, one
/// did-finish-processing per photo, did-finish-capture; never on a GStreamer thread. The
/// delegate need not be `Sendable`: it is called on that queue alone. The output holds it until
/// did-finish-capture.
public protocol PhotoCaptureDelegate: AnyObject {
    /// The capture has begun, with the settings it resolved to.
    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings)
    /// The photo is about to be taken (the shutter moment).
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings)
    /// The frame has been taken.
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings)
    /// A photo is ready (or failed: `error` is a ``CaptureError``).
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: Photo, error: Error?)
    /// iOS 10's form of the same moment: the photo and a preview as sample buffers (the preview
    /// is there when the settings' `previewPhotoFormat` asked for one), for
    /// ``PhotoOutput/jpegPhotoDataRepresentation(forJPEGSampleBuffer:previewPhotoSampleBuffer:)``.
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
                     previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
                     bracketSettings: (any BracketedStillImageSettings)?, error: Error?)
    /// The capture is over: every photo has been delivered.
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?)
}

extension PhotoCaptureDelegate {
    public func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) {}
    public func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {}
    public func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {}
    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: Photo, error: Error?) {}
    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
                            previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
                            bracketSettings: (any BracketedStillImageSettings)?, error: Error?) {}
    public func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?) {}
}
