extension CaptureDevice {
    /// The zoom factor: 1 shows the whole field; 2 crops the centre half and scales it up.
    public var videoZoomFactor: Double { withState { $0.zoom.factor } }

    /// Sets the zoom factor, 1 … `activeFormat.videoMaxZoomFactor`; needs the configuration
    /// lock. The virtual camera (and, later, cameras without `zoom_absolute`) zooms digitally:
    /// crop around the centre and scale, from the next frame on.
    public func setVideoZoomFactor(_ factor: Double) throws(CaptureError) {
        try requireConfigurationLock()
        let maximum = activeFormat.videoMaxZoomFactor
        guard maximum > 1 else { throw .unsupported(feature: "zoom", device: uniqueID) }
        guard (1...maximum).contains(factor) else { throw .outOfRange(name: "video zoom factor", value: factor, range: 1...maximum) }
        withState { state in
            state.zoom.factor = factor
            state.sensor.changed(notifying: nil)
        }
    }
}

/// Zoom settings a device holds.
struct ZoomState {
    var factor = 1.0
}
