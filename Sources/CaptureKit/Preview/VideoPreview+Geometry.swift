import Foundation

extension VideoPreview {
    /// The preview's geometry now: bounds, gravity, the connection's orientation and mirroring
    /// (read together) and the connected device's format, each read once; `connected` when the
    /// picture's size came from a video connection's device.
    var currentGeometry: (geometry: PreviewGeometry, connected: Bool) {
        let (bounds, gravity, connection) = state.withLock { ($0.bounds, $0.gravity, $0.connections.first) }
        let (orientation, mirrored) = connection?.orientationState ?? (.landscapeRight, false)
        let format = connection?.device?.activeFormat
        let geometry = PreviewGeometry(pictureSize: format.map { CGSize(width: $0.width, height: $0.height) }, bounds: bounds,
                                       gravity: gravity, orientation: orientation, mirrored: mirrored)
        return (geometry, format != nil)
    }

    /// The rect the whole picture occupies in view coordinates (AVPlayerLayer's `videoRect`):
    /// inside ``bounds`` with bars beside or above and below it for `.resizeAspect`, reaching
    /// past ``bounds`` (the cropped parts) for `.resizeAspectFill`, ``bounds`` itself for
    /// `.resize`. Draw overlays, or a picture shown by other means (a web page playing a
    /// stream), in it.
    ///
    /// Zero ``bounds`` stand for the picture's own size as shown, so the rect is then the
    /// picture's size (turned for portrait orientations) at the bounds' origin. Without a video
    /// connection the picture is taken to be exactly the shape of ``bounds``, so the rect is
    /// ``bounds`` (a 1 × 1 square when they are zero too).
    public var videoRect: CGRect { currentGeometry.geometry.pictureRect }

    /// The device point of interest shown at a point of the view (AVCaptureVideoPreviewLayer's
    /// `captureDevicePointOfInterestForPoint:`): (0,0) is the top left, (1,1) the bottom right of
    /// the picture as the sensor sees it (landscape, before the connection's orientation and
    /// mirroring), the coordinates `CaptureDevice.setFocusPointOfInterest(_:)`,
    /// `setExposurePointOfInterest(_:)` and `MetadataOutput`'s objects use.
    ///
    /// `pointInLayer` is in the view's coordinates: those of ``bounds``, whose origin need not be
    /// (0,0). The mapping honours ``videoGravity`` and is the exact inverse of
    /// ``pointForCaptureDevicePointOfInterest(_:)``. As in AVFoundation a point off the picture
    /// maps outside 0…1 (a letterbox bar of `.resizeAspect`, or beyond ``bounds``); use
    /// ``captureDevicePointOfInterestIfVisible(for:)`` to be told so.
    ///
    /// Without a video connection the picture is taken to fill ``bounds`` exactly (see
    /// ``videoRect``), landscape and unmirrored, so the result is the point's fraction of the
    /// bounds rather than AVFoundation's meaningless value.
    public func captureDevicePointOfInterest(for pointInLayer: CGPoint) -> CGPoint {
        currentGeometry.geometry.devicePoint(forViewPoint: pointInLayer)
    }

    /// The view point that shows a device point of interest (AVCaptureVideoPreviewLayer's
    /// `pointForCaptureDevicePointOfInterest:`); the exact inverse of
    /// ``captureDevicePointOfInterest(for:)``. With `.resizeAspectFill` a device point in a
    /// cropped-off part maps outside ``bounds``.
    public func pointForCaptureDevicePointOfInterest(_ captureDevicePointOfInterest: CGPoint) -> CGPoint {
        currentGeometry.geometry.viewPoint(forDevicePoint: captureDevicePointOfInterest)
    }

    /// ``captureDevicePointOfInterest(for:)`` under its Swift name in AVFoundation
    /// (`captureDevicePointConverted(fromLayerPoint:)`).
    public func captureDevicePointConverted(fromLayerPoint pointInLayer: CGPoint) -> CGPoint {
        captureDevicePointOfInterest(for: pointInLayer)
    }

    /// ``pointForCaptureDevicePointOfInterest(_:)`` under its Swift name in AVFoundation
    /// (`layerPointConverted(fromCaptureDevicePoint:)`).
    public func layerPointConverted(fromCaptureDevicePoint captureDevicePointOfInterest: CGPoint) -> CGPoint {
        pointForCaptureDevicePointOfInterest(captureDevicePointOfInterest)
    }

    /// The device point of interest shown at a point of the view, or nil where the view shows no
    /// picture there: on a letterbox bar of `.resizeAspect`, or outside ``bounds``. Not in
    /// AVFoundation, whose ``captureDevicePointOfInterest(for:)`` answers with a point outside
    /// 0…1 instead.
    ///
    /// A point on the picture's edge counts as on it, and the result is always inside 0…1 (the
    /// last bits of rounding clamped), so it can go straight to
    /// `CaptureDevice.setFocusPointOfInterest(_:)`.
    public func captureDevicePointOfInterestIfVisible(for pointInLayer: CGPoint) -> CGPoint? {
        let geometry = currentGeometry.geometry
        guard geometry.isInPicture(pointInLayer) else { return nil }
        let point = geometry.devicePoint(forViewPoint: pointInLayer)
        return CGPoint(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1))
    }

    /// The rect of metadata output coordinates (device coordinates, as
    /// ``MetadataOutput/setRectOfInterest(_:)`` takes them) shown in a rect of the view
    /// (AVCaptureVideoPreviewLayer's `metadataOutputRectConverted(fromLayerRect:)`): the bounding
    /// box of the rect's corners mapped as ``captureDevicePointOfInterest(for:)`` maps points.
    /// The exact inverse of ``layerRectConverted(fromMetadataOutputRect:)``.
    ///
    /// The whole of ``bounds`` gives (0,0,1,1) where the picture fills them exactly; with
    /// `.resizeAspectFill` a rect inside it (the part on view, for
    /// ``MetadataOutput/setRectOfInterest(_:)`` to scan only what the user sees), with
    /// `.resizeAspect` one reaching past it (the bars).
    public func metadataOutputRectConverted(fromLayerRect rectInLayerCoordinates: CGRect) -> CGRect {
        currentGeometry.geometry.deviceRect(forViewRect: rectInLayerCoordinates)
    }

    /// The rect of the view that shows a rect of metadata output coordinates
    /// (AVCaptureVideoPreviewLayer's `layerRectConverted(fromMetadataOutputRect:)`): the bounding
    /// box of its corners mapped as ``pointForCaptureDevicePointOfInterest(_:)`` maps points;
    /// (0,0,1,1) gives ``videoRect``.
    public func layerRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        currentGeometry.geometry.viewRect(forDeviceRect: rectInMetadataOutputCoordinates)
    }

    /// A metadata object with its position in view coordinates (AVCaptureVideoPreviewLayer's
    /// `transformedMetadataObject(for:)`), for drawing it over the preview.
    ///
    /// The result is of the object's own type: a ``MachineReadableCodeObject`` with each corner
    /// mapped as ``pointForCaptureDevicePointOfInterest(_:)`` maps points (in the order the
    /// object had them, so the first is still the symbol's top left as it reads) and its bounds
    /// the box around them; a ``FaceObject`` with its bounds mapped as
    /// ``layerRectConverted(fromMetadataOutputRect:)`` maps rects (its roll and yaw angles stay
    /// as the detector measured them in the sensor's picture). Nil when the preview has no video
    /// connection, and for metadata object types CaptureKit does not define.
    public func transformedMetadataObject(for metadataObject: any MetadataObject) -> (any MetadataObject)? {
        let (geometry, connected) = currentGeometry
        guard connected else { return nil }
        switch metadataObject {
        case var code as MachineReadableCodeObject:
            code.corners = code.corners.map(geometry.viewPoint(forDevicePoint:))
            code.bounds = code.corners.isEmpty ? geometry.viewRect(forDeviceRect: code.bounds) : PreviewGeometry.box(code.corners)
            return code
        case var face as FaceObject:
            face.bounds = geometry.viewRect(forDeviceRect: face.bounds)
            return face
        default:
            return nil
        }
    }
}
