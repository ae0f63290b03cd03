/// What a capture will actually do (AVCaptureResolvedPhotoSettings), handed to each delegate call.
public final class ResolvedPhotoSettings: Sendable {
    /// The `uniqueID` of the settings the capture was asked with.
    public let uniqueID: Int64
    /// The photo's size.
    public let photoDimensions: CMVideoDimensions
    /// The preview image's size; zero without one.
    public let previewDimensions: CMVideoDimensions
    /// Whether the flash fires.
    public let isFlashEnabled: Bool
    /// How many photos the capture delivers (a bracket's count, else 1).
    public let expectedPhotoCount: Int
    /// Always false: CaptureKit never stabilises stills.
    public let isStillImageStabilizationEnabled = false

    init(uniqueID: Int64, photoDimensions: CMVideoDimensions, previewDimensions: CMVideoDimensions, isFlashEnabled: Bool, expectedPhotoCount: Int) {
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        self.previewDimensions = previewDimensions
        self.isFlashEnabled = isFlashEnabled
        self.expectedPhotoCount = expectedPhotoCount
    }
}
