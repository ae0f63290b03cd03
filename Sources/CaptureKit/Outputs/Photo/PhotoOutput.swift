import Dispatch
import Foundation
import Synchronization

/// Takes photos (AVCapturePhotoOutput): settings per capture, a delegate told of each stage,
/// and ``Photo`` objects with their file data, metadata and pixels.
///
/// It is the still output's machinery under AVFoundation's modern API: a photo output runs a
/// ``StillImageOutput`` branch (the first frame after the request, encoded with EXIF, the
/// flash fired by the capture's settings), so there is one image path.
public final class PhotoOutput: OutputNode, KeyValueObservable {
    /// How much a capture may trade speed for quality (AVCapturePhotoOutput.QualityPrioritization).
    public enum QualityPrioritization: Int, Sendable, Hashable, CaseIterable {
        case speed = 1, balanced = 2, quality = 3

        /// The JPEG quality a capture of this priority is encoded at.
        var jpegQuality: Double {
            switch self {
            case .speed: 0.7
            case .balanced: 0.85
            case .quality: 0.95
            }
        }
    }

    /// The still output whose branch takes the photos.
    let still = StillImageOutput()
    private let limits = Mutex(QualityPrioritization.balanced)

    /// Where this output's delegates are called, in order.
    let delegates = DispatchQueue(label: "capturekit.photo-output.delegates")

    public init() {}

    /// The highest priority a capture may ask for (default `.balanced`).
    public var maxPhotoQualityPrioritization: QualityPrioritization {
        get { limits.withLock { $0 } }
        set { limits.withLock { $0 = newValue } }
    }

    /// The largest photo the output takes: the active format's size of its camera (zero with none).
    public var maxPhotoDimensions: CMVideoDimensions {
        get { activeDimensions }
        set {}  // photos are the active format's size; kept for source compatibility
    }

    /// The flash modes a capture may ask for: those its camera supports.
    public var supportedFlashModes: [CaptureDevice.FlashMode] {
        guard let device = connection(with: .video)?.device else { return [.off] }
        return CaptureDevice.FlashMode.allCases.filter(device.isFlashModeSupported)
    }

    /// The codecs photos can be encoded with.
    public var availablePhotoCodecTypes: [VideoCodecType] { still.availableImageDataCodecTypes }

    /// The pixel formats of uncompressed photos, as CoreVideo codes.
    public var availablePhotoPixelFormatTypes: [OSType] { still.availableImageDataPixelFormatTypes.map { $0.cvPixelFormatType(range: nil) } }

    /// Accepted for source compatibility (always false): photos are the active format's size.
    public var isHighResolutionCaptureEnabled: Bool {
        get { false }
        set {}
    }
    /// Always false: there are no live photos on Linux.
    public var isLivePhotoCaptureSupported: Bool { false }

    public var connections: [CaptureConnection] { still.connections }

    /// Takes a photo with `settings`, telling `delegate` of each stage on the photo queue (see
    /// ``PhotoCaptureDelegate``). Settings the output cannot honour (a flash mode the camera
    /// lacks, a size smaller than the active format's, a priority above
    /// `maxPhotoQualityPrioritization`, a session not running) are reported to the delegate: a
    /// did-finish-processing with an empty photo and the error, then did-finish-capture.
    public func capturePhoto(with settings: PhotoSettings, delegate: any PhotoCaptureDelegate) {
        let delegate = UncheckedDelegate(value: delegate)
        do throws(CaptureError) {
            let plan = try plan(settings)
            delegates.async {
                delegate.value.photoOutput(self, willBeginCaptureFor: plan.resolved)
                delegate.value.photoOutput(self, willCapturePhotoFor: plan.resolved)
            }
            if let bracket = settings as? PhotoBracketSettings {
                try captureBracket(bracket, plan: plan, delegate: delegate)
            } else {
                try still.captureStill(from: plan.connection, flashMode: settings.flashMode, previewSize: plan.previewSize) { sample, error in
                    self.delegates.async { self.deliver(sample, error: error, plan: plan, count: 1, bracket: nil, delegate: delegate, last: true) }
                }
            }
        } catch {
            CaptureLog.logger.error("photo \(settings.uniqueID) refused: \(error)")
            let resolved = ResolvedPhotoSettings(uniqueID: settings.uniqueID, photoDimensions: CMVideoDimensions(), previewDimensions: CMVideoDimensions(),
                                                 isFlashEnabled: false, expectedPhotoCount: 0)
            delegates.async {
                delegate.value.photoOutput(self, didFinishProcessingPhoto: Photo(failed: resolved), error: error)
                delegate.value.photoOutput(self, didFinishCaptureFor: resolved, error: error)
            }
        }
    }

    /// The connection, encoding and resolved settings of a capture; throws what makes it impossible.
    private func plan(_ settings: PhotoSettings) throws(CaptureError) -> Plan {
        guard let connection = connection(with: .video), connection.isEnabled, connection.isActive, let device = connection.device else {
            throw .inactiveConnection("photo output without a running video connection")
        }
        guard settings.photoQualityPrioritization.rawValue <= maxPhotoQualityPrioritization.rawValue else {
            throw .invalidSetting(name: "photoQualityPrioritization", value: "\(settings.photoQualityPrioritization)",
                                  valid: "at most maxPhotoQualityPrioritization (\(maxPhotoQualityPrioritization))")
        }
        guard device.isFlashModeSupported(settings.flashMode) else { throw .unsupported(feature: "flash mode \(settings.flashMode)", device: device.uniqueID) }
        let size = activeDimensions
        let asked = settings.maxPhotoDimensions
        if asked.width != 0 || asked.height != 0, asked.width < size.width || asked.height < size.height {
            throw .invalidSetting(name: "maxPhotoDimensions", value: "\(asked.width)x\(asked.height)",
                                  valid: "zero or at least the active format's \(size.width)x\(size.height)")
        }
        var encoding = try StillImageSettings(dictionary: settings.format)
        if case .jpeg = encoding { encoding = .jpeg(quality: settings.photoQualityPrioritization.jpegQuality) }
        if encoding != still.settings { try still.setOutputSettings(encoding) }
        let bracket = (settings as? PhotoBracketSettings)?.bracketedSettings
        // A preview beside a single JPEG photo, where the settings ask for one.
        let isJPEG = if case .jpeg = encoding { true } else { false }
        let preview = bracket == nil && isJPEG ? settings.previewPhotoFormat.map {
            PreviewPhoto.size(for: $0, photo: (Int(size.width), Int(size.height)))
        } : nil
        let resolved = ResolvedPhotoSettings(uniqueID: settings.uniqueID, photoDimensions: size,
                                             previewDimensions: CMVideoDimensions(width: Int32(preview?.width ?? 0), height: Int32(preview?.height ?? 0)),
                                             isFlashEnabled: bracket == nil && device.wouldFlashFire(in: settings.flashMode),
                                             expectedPhotoCount: bracket?.count ?? 1)
        return Plan(connection: connection, resolved: resolved, previewSize: preview)
    }

    private struct Plan: Sendable {
        let connection: CaptureConnection
        let resolved: ResolvedPhotoSettings
        let previewSize: (width: Int, height: Int)?
    }

    private func captureBracket(_ settings: PhotoBracketSettings, plan: Plan, delegate: UncheckedDelegate<any PhotoCaptureDelegate>) throws(CaptureError) {
        let total = settings.bracketedSettings.count
        let delivered = Atomic<Int>(0)
        try still.captureStillImageBracket(from: plan.connection, withSettingsArray: settings.bracketedSettings) { sample, bracket, error in
            let count = delivered.add(1, ordering: .relaxed).newValue
            self.delegates.async { self.deliver(sample, error: error, plan: plan, count: count, bracket: bracket, delegate: delegate, last: count == total) }
        }
    }

    /// On the photo queue: the photo's stages after its frame was taken.
    private func deliver(_ sample: SampleBuffer?, error: CaptureError?, plan: Plan, count: Int, bracket: (any BracketedStillImageSettings)?,
                         delegate: UncheckedDelegate<any PhotoCaptureDelegate>, last: Bool) {
        let photo = sample.map { Photo(sample: $0, preview: $0.previewPhoto, resolvedSettings: plan.resolved, photoCount: count, bracketSettings: bracket) }
        if count == 1 { delegate.value.photoOutput(self, didCapturePhotoFor: plan.resolved) }
        delegate.value.photoOutput(self, didFinishProcessingPhoto: photo ?? Photo(failed: plan.resolved), error: error)
        delegate.value.photoOutput(self, didFinishProcessingPhoto: sample, previewPhoto: sample?.previewPhoto, resolvedSettings: plan.resolved,
                                   bracketSettings: bracket, error: error)
        if last { delegate.value.photoOutput(self, didFinishCaptureFor: plan.resolved, error: error) }
    }

    /// The JPEG file of an iOS 10 delegate's photo sample buffer (its EXIF included); nil when
    /// it is not a JPEG (AVCapturePhotoOutput.jpegPhotoDataRepresentation).
    public static func jpegPhotoDataRepresentation(forJPEGSampleBuffer JPEGSampleBuffer: CMSampleBuffer,
                                                   previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? {
        try? StillImageOutput.jpegStillImageData(from: JPEGSampleBuffer)
    }

    private var activeDimensions: CMVideoDimensions {
        guard let format = connection(with: .video)?.device?.activeFormat else { return CMVideoDimensions() }
        return CMVideoDimensions(width: Int32(format.width), height: Int32(format.height))
    }

    // The still output's branch, run as this output's.
    var mediaType: MediaType { still.mediaType }
    let kind = "photo"
    var owner: SessionReference { still.owner }
    func setConnections(_ connections: [CaptureConnection]) { still.setConnections(connections) }
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] { still.branch(prefix: prefix, source: source) }
    func attach(_ branch: RunningBranch) throws(CaptureError) { try still.attach(branch) }
    func detach(error: CaptureError) { still.detach(error: error) }
    func inputInterrupted(_ device: CaptureDevice, reason: InterruptionReason) { still.inputInterrupted(device, reason: reason) }
    func connectionOrientationChanged() { still.connectionOrientationChanged() }
}
