import Foundation

/// Where a preview's picture lies in its view, and the exact mapping between device points of
/// interest and view points (AVCaptureVideoPreviewLayer's geometry, as a value).
///
/// Device points run from (0,0) top left to (1,1) bottom right of the picture as the sensor
/// delivers it (landscape), whatever the orientation and mirroring. The picture is shown turned
/// clockwise by `orientation.rotationDegrees`, then mirrored left-right when `mirrored`, then
/// placed in the view by `gravity`. Both directions are the same few exact steps (a quarter
/// turn, a flip, a scale and an offset) run forwards or backwards, so they are inverses to the
/// last few bits.
struct PreviewGeometry: Sendable, Hashable {
    /// The picture as the sensor delivers it (width × height, landscape).
    let pictureSize: CGSize
    /// The view the picture is placed in: never empty (see `init`).
    let bounds: CGRect
    let gravity: VideoGravity
    let orientation: VideoOrientation
    let mirrored: Bool
    /// The rect the whole picture occupies in view coordinates: inside `bounds` with bars for
    /// `.resizeAspect`, around it for `.resizeAspectFill`, `bounds` itself for `.resize`.
    let pictureRect: CGRect

    /// The geometry of `pictureSize` shown in `bounds`.
    ///
    /// A `bounds` without a positive, finite width and height stands for the picture's own size
    /// as shown (width × height, or height × width when the orientation is a portrait one) at the
    /// bounds' origin ((0,0) for `.zero`). A nil or empty `pictureSize` (no video connection)
    /// stands for a picture exactly the shape of the bounds, so every gravity fills them exactly;
    /// with neither, the view is a 1 × 1 square.
    init(pictureSize: CGSize?, bounds: CGRect, gravity: VideoGravity, orientation: VideoOrientation, mirrored: Bool) {
        let quarterTurned = orientation.rotationDegrees % 180 != 0
        func shown(_ size: CGSize) -> CGSize { quarterTurned ? CGSize(width: size.height, height: size.width) : size }
        func usable(_ size: CGSize) -> Bool {
            size.width.isFinite && size.height.isFinite && size.width > 0 && size.height > 0
        }
        let given = bounds.isNull ? CGRect.zero : bounds.standardized
        let origin = given.origin.x.isFinite && given.origin.y.isFinite ? given.origin : .zero
        let picture = pictureSize.flatMap { usable($0) ? $0 : nil }
        let view: CGRect
        if usable(given.size) {
            view = CGRect(origin: origin, size: given.size)
        } else {
            view = CGRect(origin: origin, size: picture.map(shown) ?? CGSize(width: 1, height: 1))
        }
        self.pictureSize = picture ?? shown(view.size)
        self.bounds = view
        self.gravity = gravity
        self.orientation = orientation
        self.mirrored = mirrored
        self.pictureRect = Self.place(shown(self.pictureSize), in: view, gravity: gravity)
    }

    /// The rect a picture of `size` (as shown) occupies in `view` under `gravity`, centred.
    static func place(_ size: CGSize, in view: CGRect, gravity: VideoGravity) -> CGRect {
        let horizontal = view.width / size.width, vertical = view.height / size.height
        let byWidth: Bool
        switch gravity {
        case .resize: return view
        case .resizeAspect: byWidth = horizontal <= vertical
        case .resizeAspectFill: byWidth = horizontal >= vertical
        }
        // The axis that sets the scale keeps the view's edges exactly; the other is centred.
        if byWidth {
            let height = size.height * horizontal
            return CGRect(x: view.minX, y: view.midY - height / 2, width: view.width, height: height)
        } else {
            let width = size.width * vertical
            return CGRect(x: view.midX - width / 2, y: view.minY, width: width, height: view.height)
        }
    }

    // MARK: Points

    /// The view point showing device point `device` (outside `bounds` for a point that
    /// `.resizeAspectFill` crops off).
    func viewPoint(forDevicePoint device: CGPoint) -> CGPoint {
        var (u, v) = Self.turn(device.x, device.y, orientation)
        if mirrored { u = 1 - u }
        return CGPoint(x: pictureRect.minX + u * pictureRect.width, y: pictureRect.minY + v * pictureRect.height)
    }

    /// The device point shown at view point `view` (outside 0…1 on a letterbox bar or beyond
    /// the picture).
    func devicePoint(forViewPoint view: CGPoint) -> CGPoint {
        var u = (view.x - pictureRect.minX) / pictureRect.width
        let v = (view.y - pictureRect.minY) / pictureRect.height
        if mirrored { u = 1 - u }
        let (x, y) = Self.unturn(u, v, orientation)
        return CGPoint(x: x, y: y)
    }

    /// The part of the view that shows the picture: `pictureRect` between `.resizeAspect`'s
    /// bars, otherwise all of `bounds` (`.resizeAspectFill`'s picture covers them; taken as
    /// `bounds` so that rounding in the centring never shaves their edges off).
    var visibleRect: CGRect { gravity == .resizeAspect ? pictureRect : bounds }

    /// Whether view point `view` shows part of the picture: inside `visibleRect`, edges
    /// included, so neither on a letterbox bar nor beyond the view.
    func isInPicture(_ view: CGPoint) -> Bool {
        let visible = visibleRect
        return (visible.minX...visible.maxX).contains(view.x) && (visible.minY...visible.maxY).contains(view.y)
    }

    // MARK: Rects

    /// The view rect showing device rect `device`: its corners mapped, their bounding box (the
    /// mapping keeps edges axis-aligned, so this is the mapped rect itself).
    func viewRect(forDeviceRect device: CGRect) -> CGRect {
        guard !device.isNull else { return device }
        return Self.box(viewPoint(forDevicePoint: CGPoint(x: device.minX, y: device.minY)),
                        viewPoint(forDevicePoint: CGPoint(x: device.maxX, y: device.maxY)))
    }

    /// The device rect shown in view rect `view`.
    func deviceRect(forViewRect view: CGRect) -> CGRect {
        guard !view.isNull else { return view }
        return Self.box(devicePoint(forViewPoint: CGPoint(x: view.minX, y: view.minY)),
                        devicePoint(forViewPoint: CGPoint(x: view.maxX, y: view.maxY)))
    }

    /// The rect with opposite corners `a` and `b`.
    static func box(_ a: CGPoint, _ b: CGPoint) -> CGRect {
        CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The bounding box of `points` (`.null` for none).
    static func box(_ points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    // MARK: Orientation

    /// Device point (x, y) as a fraction of the picture turned clockwise by `orientation`
    /// (pixel (x, y) of a W × H picture turned a quarter clockwise lands at (H − y, x)).
    static func turn(_ x: CGFloat, _ y: CGFloat, _ orientation: VideoOrientation) -> (CGFloat, CGFloat) {
        switch orientation {
        case .landscapeRight: (x, y)
        case .portrait: (1 - y, x)
        case .landscapeLeft: (1 - x, 1 - y)
        case .portraitUpsideDown: (y, 1 - x)
        }
    }

    /// `turn` undone.
    static func unturn(_ u: CGFloat, _ v: CGFloat, _ orientation: VideoOrientation) -> (CGFloat, CGFloat) {
        switch orientation {
        case .landscapeRight: (u, v)
        case .portrait: (v, 1 - u)
        case .landscapeLeft: (1 - u, 1 - v)
        case .portraitUpsideDown: (1 - v, u)
        }
    }
}
