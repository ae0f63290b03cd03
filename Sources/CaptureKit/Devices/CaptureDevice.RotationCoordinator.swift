import Foundation
import Observation
import Synchronization

extension CaptureDevice {
    /// The rotation angles that keep a camera's pictures level with the horizon
    /// (AVCaptureDevice.RotationCoordinator, iOS 17): one for a preview, one for captured
    /// photos and movies. Both are observable (`observe(_:options:changeHandler:)` or
    /// Observation) and change when ``deviceOrientation`` does.
    ///
    /// Linux has no gravity-sensor API, so the app feeds the orientation: set
    /// ``deviceOrientation`` from whatever it knows (an accelerometer it reads through IIO, a
    /// rotation the display reports, a setting). It is how the device is held, named as
    /// ``VideoOrientation`` names orientations: `.landscapeRight` (the default) is the camera's
    /// natural orientation, angle 0; `.portrait` turns the pictures 90° clockwise.
    public final class RotationCoordinator: Sendable, Observable, KeyValueObservable {
        /// The camera whose pictures are turned.
        public let device: CaptureDevice
        /// The preview the preview angle is for.
        public let previewLayer: VideoPreview?
        private let orientation = Mutex(VideoOrientation.landscapeRight)
        private let registrar = ObservationRegistrar()

        public init(device: CaptureDevice, previewLayer: VideoPreview?) {
            self.device = device
            self.previewLayer = previewLayer
        }

        /// How the device is held now; set by the app (see the type's documentation).
        public var deviceOrientation: VideoOrientation {
            get {
                registrar.access(self, keyPath: \.deviceOrientation)
                return orientation.withLock { $0 }
            }
            set {
                registrar.withMutation(of: self, keyPath: \.deviceOrientation) { orientation.withLock { $0 = newValue } }
            }
        }

        /// The angle to set on the preview's connection (`videoRotationAngle`).
        public var videoRotationAngleForHorizonLevelPreview: CGFloat { CGFloat(deviceOrientation.rotationDegrees) }

        /// The angle to set on photo and movie connections (`videoRotationAngle`).
        public var videoRotationAngleForHorizonLevelCapture: CGFloat { CGFloat(deviceOrientation.rotationDegrees) }
    }
}
