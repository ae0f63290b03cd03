/// Digital zoom in the pipeline (`videocrop ! videoscale ! capsfilter`), for cameras without
/// optical zoom: the centre 1/factor of the frame scaled back to the whole frame.
enum DigitalZoom {
    /// The largest digital zoom factor offered on V4L2 cameras without zoom_absolute.
    static let maxFactor = 4.0

    /// Pixels to crop from each edge of a `width` x `height` frame for `factor`, even so that
    /// subsampled chroma stays aligned.
    /// Crop margins in pixels.
    typealias Crop = (left: Int, right: Int, top: Int, bottom: Int)

    static func crop(width: Int, height: Int, factor: Double) -> Crop {
        func margin(_ size: Int) -> Int {
            let kept = Double(size) / max(factor, 1)
            return Int(((Double(size) - kept) / 4).rounded(.down)) * 2
        }
        let horizontal = margin(width), vertical = margin(height)
        return (horizontal, horizontal, vertical, vertical)
    }
}
