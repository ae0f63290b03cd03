import Foundation
import PropertyBased
import Testing
@testable import CaptureKit

/// VideoPreview's geometry is AVCaptureVideoPreviewLayer's: device points of interest run from
/// (0,0) top left to (1,1) bottom right of the sensor's landscape picture, which is shown turned
/// clockwise by the connection's orientation, mirrored left-right when it is mirrored, and
/// placed in the bounds by gravity. Properties over random pictures, bounds (non-zero origins
/// and zero bounds too), gravities, orientations and mirrorings; then cases worked by hand.
@Suite("VideoPreviewGeometry", .ownDevices, .serialized)
struct VideoPreviewGeometryTests {
    static let tolerance = 1e-9

    // MARK: Random scenes

    /// Ten fractions make a scene: picture width and height (1…5000 px), bounds origin
    /// (−1000…1000) and size (1…4000 pt; zero one time in eight: the picture's own size), and
    /// two fractions left for a point.
    static let fractions = Gen.double(in: 0...1).array(of: 10)

    static func geometry(_ f: [Double], _ gravity: VideoGravity, _ orientation: VideoOrientation, _ mirrored: Bool) -> PreviewGeometry {
        let picture = CGSize(width: (1 + f[0] * 4999).rounded(), height: (1 + f[1] * 4999).rounded())
        let zero = f[6] < 0.125
        let bounds = CGRect(x: zero ? 0 : -1000 + f[2] * 2000, y: zero ? 0 : -1000 + f[3] * 2000,
                            width: zero ? 0 : 1 + f[4] * 3999, height: zero ? 0 : 1 + f[5] * 3999)
        return PreviewGeometry(pictureSize: picture, bounds: bounds, gravity: gravity, orientation: orientation, mirrored: mirrored)
    }

    static func close(_ a: CGPoint, _ b: CGPoint, within tolerance: Double = tolerance) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    static func close(_ a: CGRect, _ b: CGRect) -> Bool {
        close(CGPoint(x: a.minX, y: a.minY), CGPoint(x: b.minX, y: b.minY)) && close(CGPoint(x: a.maxX, y: a.maxY), CGPoint(x: b.maxX, y: b.maxY))
    }

    static func inUnitSquare(_ p: CGPoint, within tolerance: Double = tolerance) -> Bool {
        (-tolerance...1 + tolerance).contains(p.x) && (-tolerance...1 + tolerance).contains(p.y)
    }

    static let gravities = Gen<VideoGravity>.case
    static let orientations = Gen<VideoOrientation>.case

    // MARK: Properties

    @Test("device → view → device is the identity within 1e-9, on and off the picture")
    func deviceRoundTrip() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.gravities, Self.orientations, Gen.bool) { f, gravity, orientation, mirrored in
            let g = Self.geometry(f, gravity, orientation, mirrored)
            let device = CGPoint(x: -0.5 + 2 * f[7], y: -0.5 + 2 * f[8])
            let back = g.devicePoint(forViewPoint: g.viewPoint(forDevicePoint: device))
            #expect(Self.close(back, device), "\(g): \(device) came back as \(back)")
        }
    }

    @Test("view → device → view is the identity within 1e-9, bars and beyond the bounds included")
    func viewRoundTrip() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.gravities, Self.orientations, Gen.bool) { f, gravity, orientation, mirrored in
            let g = Self.geometry(f, gravity, orientation, mirrored)
            let b = g.bounds
            let view = CGPoint(x: b.minX - b.width / 2 + 2 * b.width * f[7], y: b.minY - b.height / 2 + 2 * b.height * f[8])
            let back = g.viewPoint(forDevicePoint: g.devicePoint(forViewPoint: view))
            #expect(Self.close(back, view), "\(g): \(view) came back as \(back)")
        }
    }

    @Test("rect conversions round trip both ways and are the corners' bounding boxes")
    func rectRoundTrips() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.gravities, Self.orientations, Gen.bool) { f, gravity, orientation, mirrored in
            let g = Self.geometry(f, gravity, orientation, mirrored)
            let device = CGRect(x: f[7] * 0.8, y: f[8] * 0.8, width: f[9] * 0.2, height: f[0] * 0.2)
            let view = g.viewRect(forDeviceRect: device)
            #expect(Self.close(g.deviceRect(forViewRect: view), device))
            let corners = [CGPoint(x: device.minX, y: device.minY), CGPoint(x: device.maxX, y: device.minY),
                           CGPoint(x: device.maxX, y: device.maxY), CGPoint(x: device.minX, y: device.maxY)]
            #expect(Self.close(view, PreviewGeometry.box(corners.map(g.viewPoint(forDevicePoint:)))))
            let inView = CGRect(x: g.bounds.minX + f[7] * g.bounds.width / 2, y: g.bounds.minY + f[8] * g.bounds.height / 2,
                                width: f[9] * g.bounds.width / 2, height: f[0] * g.bounds.height / 2)
            #expect(Self.close(g.viewRect(forDeviceRect: g.deviceRect(forViewRect: inView)), inView))
            // The whole picture is the picture's rect.
            #expect(Self.close(g.viewRect(forDeviceRect: CGRect(x: 0, y: 0, width: 1, height: 1)), g.pictureRect))
        }
    }

    @Test("the view's centre shows the device's centre, always")
    func centre() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.gravities, Self.orientations, Gen.bool) { f, gravity, orientation, mirrored in
            let g = Self.geometry(f, gravity, orientation, mirrored)
            let centre = CGPoint(x: g.bounds.midX, y: g.bounds.midY)
            #expect(Self.close(g.devicePoint(forViewPoint: centre), CGPoint(x: 0.5, y: 0.5)))
            #expect(Self.close(g.viewPoint(forDevicePoint: CGPoint(x: 0.5, y: 0.5)), centre))
        }
    }

    @Test("zero bounds are the picture's own size as shown, turned for portrait")
    func zeroBounds() async {
        await propertyCheck(count: 200, input: Self.fractions, Self.gravities, Self.orientations, Gen.bool) { f, gravity, orientation, mirrored in
            var f = f
            f[6] = 0
            let g = Self.geometry(f, gravity, orientation, mirrored)
            let portrait = orientation == .portrait || orientation == .portraitUpsideDown
            let shown = portrait ? CGSize(width: g.pictureSize.height, height: g.pictureSize.width) : g.pictureSize
            #expect(g.bounds == CGRect(origin: .zero, size: shown))
            #expect(Self.close(g.pictureRect, g.bounds))
        }
    }

    @Test("aspect: a point on a letterbox bar maps outside 0…1 and is not in the picture; one on the picture maps inside")
    func letterboxBars() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.orientations, Gen.bool) { f, orientation, mirrored in
            let g = Self.geometry(f, .resizeAspect, orientation, mirrored)
            let (b, p) = (g.bounds, g.pictureRect)
            #expect(b.minX <= p.minX + Self.tolerance && p.maxX <= b.maxX + Self.tolerance
                    && b.minY <= p.minY + Self.tolerance && p.maxY <= b.maxY + Self.tolerance, "the picture lies inside the bounds")
            // A bar is there when the picture falls short of the bounds on one axis by more than rounding.
            let side = p.minX - b.minX, top = p.minY - b.minY
            if side > 1e-6 {
                let bar = CGPoint(x: b.minX + side * f[7] * 0.999, y: b.minY + b.height * f[8])
                let device = g.devicePoint(forViewPoint: bar)
                #expect(!Self.inUnitSquare(device, within: 0), "\(g): bar point \(bar) → \(device)")
                #expect(!g.isInPicture(bar))
            }
            if top > 1e-6 {
                let bar = CGPoint(x: b.minX + b.width * f[7], y: b.maxY - top * f[8] * 0.999)
                let device = g.devicePoint(forViewPoint: bar)
                #expect(!Self.inUnitSquare(device, within: 0), "\(g): bar point \(bar) → \(device)")
                #expect(!g.isInPicture(bar))
            }
            let onPicture = CGPoint(x: p.minX + p.width * f[9], y: p.minY + p.height * f[0])
            #expect(g.isInPicture(onPicture))
            #expect(Self.inUnitSquare(g.devicePoint(forViewPoint: onPicture)))
        }
    }

    @Test("fill: the view's corners map inside 0…1, touching its edges on the axis that fits")
    func fillCorners() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.orientations, Gen.bool) { f, orientation, mirrored in
            let g = Self.geometry(f, .resizeAspectFill, orientation, mirrored)
            let b = g.bounds
            let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY), CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)]
            let devices = corners.map(g.devicePoint(forViewPoint:))
            for (corner, device) in zip(corners, devices) {
                #expect(Self.inUnitSquare(device), "\(g): corner \(corner) → \(device)")
                #expect(g.isInPicture(corner))
            }
            // The visible part is the device rect of the bounds; one of its sides spans 0…1.
            let visible = g.deviceRect(forViewRect: b)
            #expect(abs(visible.width - 1) < Self.tolerance || abs(visible.height - 1) < Self.tolerance, "\(visible)")
        }
    }

    /// The device corner each view corner shows when the picture exactly fills the view: top left
    /// and top right of the view, unmirrored. Worked from the turns: landscapeRight shows the
    /// sensor as it is; portrait turns it a quarter clockwise, so the sensor's left edge (x = 0)
    /// becomes the top and its bottom (y = 1) the left: view top left is device (0,1);
    /// landscapeLeft is a half turn; portraitUpsideDown a quarter anticlockwise.
    static let topCorners: [VideoOrientation: (left: CGPoint, right: CGPoint)] = [
        .landscapeRight: (CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0)),
        .portrait: (CGPoint(x: 0, y: 1), CGPoint(x: 0, y: 0)),
        .landscapeLeft: (CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)),
        .portraitUpsideDown: (CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1)),
    ]

    @Test("resize: the view's corners map to the device's corners as orientation and mirroring dictate")
    func resizeCorners() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.orientations, Gen.bool) { f, orientation, mirrored in
            let g = Self.geometry(f, .resize, orientation, mirrored)
            let b = g.bounds
            var (topLeft, topRight) = Self.topCorners[orientation]!
            if mirrored { swap(&topLeft, &topRight) }
            // The bottom corners are the top ones' opposites (a half turn about the centre).
            func opposite(_ p: CGPoint) -> CGPoint { CGPoint(x: 1 - p.x, y: 1 - p.y) }
            let expected = [(CGPoint(x: b.minX, y: b.minY), topLeft), (CGPoint(x: b.maxX, y: b.minY), topRight),
                            (CGPoint(x: b.maxX, y: b.maxY), opposite(topLeft)), (CGPoint(x: b.minX, y: b.maxY), opposite(topRight))]
            for (view, device) in expected {
                #expect(Self.close(g.devicePoint(forViewPoint: view), device), "\(g): \(view) → \(g.devicePoint(forViewPoint: view)), not \(device)")
            }
        }
    }

    @Test("mirroring reflects the view about its vertical centre line")
    func mirroring() async {
        await propertyCheck(count: 1000, input: Self.fractions, Self.gravities, Self.orientations) { f, gravity, orientation in
            let plain = Self.geometry(f, gravity, orientation, false), mirrored = Self.geometry(f, gravity, orientation, true)
            let b = plain.bounds
            let view = CGPoint(x: b.minX + b.width * f[7], y: b.minY + b.height * f[8])
            let reflected = CGPoint(x: 2 * b.midX - view.x, y: view.y)
            #expect(mirrored.pictureRect == plain.pictureRect)
            #expect(Self.close(mirrored.devicePoint(forViewPoint: view), plain.devicePoint(forViewPoint: reflected), within: 1e-9))
        }
    }

    // MARK: Cases worked by hand

    @Test("1280×720, portrait, 375×667 fill: corners and centre")
    func portraitFill() {
        // Shown portrait the picture is 720×1280. Fill takes the larger scale:
        // 375/720 = 0.520833…, 667/1280 = 0.52109375 → 0.52109375 (height fits exactly).
        // Width 720 × 0.52109375 = 375.1875, centred: x = 187.5 − 187.59375 = −0.09375, so
        // 0.09375 pt is cropped at each side. pictureRect = (−0.09375, 0, 375.1875, 667).
        let g = PreviewGeometry(pictureSize: CGSize(width: 1280, height: 720), bounds: CGRect(x: 0, y: 0, width: 375, height: 667),
                                gravity: .resizeAspectFill, orientation: .portrait, mirrored: false)
        #expect(Self.close(g.pictureRect, CGRect(x: -0.09375, y: 0, width: 375.1875, height: 667)))
        // View top left (0,0): u = 0.09375 / 375.1875 = 1/4002, v = 0. Portrait undone:
        // device = (v, 1 − u) = (0, 4001/4002).
        #expect(Self.close(g.devicePoint(forViewPoint: CGPoint(x: 0, y: 0)), CGPoint(x: 0, y: 4001.0 / 4002)))
        // View top right (375,0): u = 375.09375 / 375.1875 = 4001/4002 → device (0, 1/4002).
        #expect(Self.close(g.devicePoint(forViewPoint: CGPoint(x: 375, y: 0)), CGPoint(x: 0, y: 1.0 / 4002)))
        // Centre (187.5, 333.5) → (0.5, 0.5).
        #expect(Self.close(g.devicePoint(forViewPoint: CGPoint(x: 187.5, y: 333.5)), CGPoint(x: 0.5, y: 0.5)))
        // Bottom left (0,667): u = 1/4002, v = 1 → (1, 4001/4002).
        #expect(Self.close(g.devicePoint(forViewPoint: CGPoint(x: 0, y: 667)), CGPoint(x: 1, y: 4001.0 / 4002)))
    }

    @Test("1280×720, landscapeRight, 800×600 aspect: bars of 75 pt above and below")
    func landscapeAspect() {
        // 800/1280 = 0.625, 600/720 = 0.8333 → 0.625: the picture is 800×450, at y = (600 − 450)/2 = 75.
        let g = PreviewGeometry(pictureSize: CGSize(width: 1280, height: 720), bounds: CGRect(x: 0, y: 0, width: 800, height: 600),
                                gravity: .resizeAspect, orientation: .landscapeRight, mirrored: false)
        #expect(g.pictureRect == CGRect(x: 0, y: 75, width: 800, height: 450))
        // (400,300): u = 400/800 = 0.5, v = (300 − 75)/450 = 0.5.
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 400, y: 300)) == CGPoint(x: 0.5, y: 0.5))
        // (0,75): the picture's top left → (0,0).
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 0, y: 75)) == CGPoint(x: 0, y: 0))
        // (400,10) is on the top bar: v = (10 − 75)/450 = −0.1444… < 0.
        let bar = g.devicePoint(forViewPoint: CGPoint(x: 400, y: 10))
        #expect(bar.x == 0.5 && abs(bar.y - -65.0 / 450) < Self.tolerance && bar.y < 0)
        #expect(!g.isInPicture(CGPoint(x: 400, y: 10)))
        // (800,525): the picture's bottom right → (1,1).
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 800, y: 525)) == CGPoint(x: 1, y: 1))
    }

    @Test("640×480, portrait, mirrored (a front camera), 480×640 resize")
    func portraitMirrored() {
        // Shown portrait the picture is 480×640: it fills the view at scale 1. A view point
        // (x, y) is u = x/480, v = y/640; mirrored u' = 1 − u; portrait undone: device =
        // (v, 1 − u') = (y/640, x/480), the formula ports of iOS front-camera code use.
        let g = PreviewGeometry(pictureSize: CGSize(width: 640, height: 480), bounds: CGRect(x: 0, y: 0, width: 480, height: 640),
                                gravity: .resize, orientation: .portrait, mirrored: true)
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 0, y: 0)) == CGPoint(x: 0, y: 0))
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 480, y: 0)) == CGPoint(x: 0, y: 1))
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 0, y: 640)) == CGPoint(x: 1, y: 0))
        // (120, 480): (480/640, 120/480) = (0.75, 0.25).
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 120, y: 480)) == CGPoint(x: 0.75, y: 0.25))
        // Unmirrored the same tap is (0.75, 1 − 0.25) = (0.75, 0.75).
        let plain = PreviewGeometry(pictureSize: g.pictureSize, bounds: g.bounds, gravity: .resize, orientation: .portrait, mirrored: false)
        #expect(plain.devicePoint(forViewPoint: CGPoint(x: 120, y: 480)) == CGPoint(x: 0.75, y: 0.75))
    }

    @Test("a non-zero bounds origin: view points are in the layer's coordinate space")
    func boundsOrigin() {
        // 1280×720 landscapeRight resize into (100, 50, 640, 360): scale 0.5, picture at the origin.
        let g = PreviewGeometry(pictureSize: CGSize(width: 1280, height: 720), bounds: CGRect(x: 100, y: 50, width: 640, height: 360),
                                gravity: .resize, orientation: .landscapeRight, mirrored: false)
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 100, y: 50)) == .zero)
        #expect(g.devicePoint(forViewPoint: CGPoint(x: 420, y: 230)) == CGPoint(x: 0.5, y: 0.5))
        #expect(g.viewPoint(forDevicePoint: CGPoint(x: 1, y: 1)) == CGPoint(x: 740, y: 410))
    }

    // MARK: Through VideoPreview

    /// A preview of the virtual back camera at `preset`, not running: it has its connection and
    /// the device's format, which is all the geometry needs.
    static func preview(_ preset: SessionPreset) throws -> (VideoPreview, CaptureSession, CaptureDevice) {
        let device = CaptureDevice.find(virtual: .back)
        let session = CaptureSession()
        try session.setSessionPreset(preset)
        try session.addInput(CaptureDeviceInput(device: device))
        let preview = VideoPreview(session: session)
        return (preview, session, device)
    }

    @Test("seed 002's tap-to-focus: a full-screen portrait preview (320×568, default gravity) of 1920×1080")
    func seedTapToFocus() throws {
        // The seed's DTVideoPreviewView fills an iPhone 5's portrait screen (320×568 points);
        // it never sets videoGravity, so it is AVFoundation's default, resizeAspect; the session
        // keeps its default (high) preset, 1920×1080 on that phone. Shown portrait: 1080×1920.
        // 320/1080 = 0.29630, 568/1920 = 0.29583 → 0.29583: the picture is 319.5×568 at
        // x = 160 − 159.75 = 0.25 (bars of a quarter point at the sides).
        let (preview, session, device) = try Self.preview(.hd1920x1080)
        defer { device.restoreDefaultControls(); _ = session }
        let connection = try #require(preview.connection)
        connection.videoOrientation = .portrait
        preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 568)
        #expect(preview.videoGravity == .resizeAspect)
        #expect(Self.close(preview.videoRect, CGRect(x: 0.25, y: 0, width: 319.5, height: 568)))
        // A tap at the centre focuses at the centre.
        #expect(Self.close(preview.captureDevicePointOfInterest(for: CGPoint(x: 160, y: 284)), CGPoint(x: 0.5, y: 0.5)))
        // A tap at (80, 142): u = (80 − 0.25)/319.5 = 79.75/319.5, v = 142/568 = 0.25;
        // device = (v, 1 − u) = (0.25, 239.75/319.5) = (0.25, 0.75039…): near the sensor's
        // bottom left, which a portrait phone shows at the top left.
        let tap = CGPoint(x: 80, y: 142)
        let point = preview.captureDevicePointOfInterest(for: tap)
        #expect(Self.close(point, CGPoint(x: 0.25, y: 239.75 / 319.5)))
        // The seed's handler: only where focus can be pointed, lock, set point and mode, unlock.
        #expect(device.isFocusPointOfInterestSupported && device.isFocusModeSupported(.autoFocus))
        let visible = try #require(preview.captureDevicePointOfInterestIfVisible(for: tap))
        #expect(visible == point)
        try device.lockForConfiguration()
        try device.setFocusPointOfInterest(visible)
        try device.setFocusMode(.autoFocus)
        device.unlockForConfiguration()
        #expect(device.focusPointOfInterest == point)
        // A tap on the quarter-point bar at the left: u < 0, so device y = 1 − u > 1.
        let bar = preview.captureDevicePointOfInterest(for: CGPoint(x: 0.1, y: 300))
        #expect(bar.y > 1)
        #expect(preview.captureDevicePointOfInterestIfVisible(for: CGPoint(x: 0.1, y: 300)) == nil)
        // The picture's edges are on it, clamped into 0…1 (the seed's setter would throw otherwise).
        let edge = try #require(preview.captureDevicePointOfInterestIfVisible(for: CGPoint(x: 319.75, y: 568)))
        #expect(Self.inUnitSquare(edge, within: 0) && Self.close(edge, CGPoint(x: 1, y: 0)))
    }

    @Test("the public methods round trip over random bounds, gravities, orientations and mirrorings on a real preview")
    func previewProperties() async throws {
        let (preview, session, _) = try Self.preview(.hd1280x720)
        defer { _ = session }
        let connection = try #require(preview.connection)
        await propertyCheck(count: 300, input: Self.fractions, Self.gravities, Self.orientations, Gen.bool) { f, gravity, orientation, mirrored in
            connection.videoOrientation = orientation
            connection.isVideoMirrored = mirrored
            preview.videoGravity = gravity
            preview.bounds = Self.geometry(f, gravity, orientation, mirrored).bounds
            let expected = PreviewGeometry(pictureSize: CGSize(width: 1280, height: 720), bounds: preview.bounds, gravity: gravity,
                                           orientation: orientation, mirrored: mirrored)
            #expect(preview.videoRect == expected.pictureRect)
            let b = expected.bounds
            let view = CGPoint(x: b.minX + b.width * f[7], y: b.minY + b.height * f[8])
            let device = preview.captureDevicePointOfInterest(for: view)
            #expect(device == expected.devicePoint(forViewPoint: view))
            #expect(preview.captureDevicePointConverted(fromLayerPoint: view) == device)
            #expect(Self.close(preview.pointForCaptureDevicePointOfInterest(device), view))
            #expect(preview.layerPointConverted(fromCaptureDevicePoint: device) == preview.pointForCaptureDevicePointOfInterest(device))
            if let visible = preview.captureDevicePointOfInterestIfVisible(for: view) {
                #expect(Self.inUnitSquare(visible, within: 0) && Self.close(visible, device))
            } else {
                #expect(gravity == .resizeAspect && !Self.inUnitSquare(device, within: 1e-12), "\(view) → \(device) said off the picture")
            }
            let rect = CGRect(x: view.x, y: view.y, width: b.width * f[9] / 2, height: b.height * f[0] / 2)
            #expect(Self.close(preview.layerRectConverted(fromMetadataOutputRect: preview.metadataOutputRectConverted(fromLayerRect: rect)), rect))
        }
    }

    @Test("transformedMetadataObject: a code's corners (in order) and bounds, a face's bounds, in view coordinates")
    func transformedObjects() throws {
        let (preview, session, _) = try Self.preview(.hd1280x720)
        defer { _ = session }
        let connection = try #require(preview.connection)
        connection.videoOrientation = .portrait
        connection.isVideoMirrored = false
        preview.videoGravity = .resize
        preview.bounds = CGRect(x: 0, y: 0, width: 360, height: 640)
        // Portrait resize into 360×640 (the picture's shape at half scale): device (x, y) shows at
        // view (360·(1 − y), 640·x).
        let corners = [CGPoint(x: 0.25, y: 0.5), CGPoint(x: 0.5, y: 0.5), CGPoint(x: 0.5, y: 0.75), CGPoint(x: 0.25, y: 0.75)]
        let code = MachineReadableCodeObject(type: .qr, stringValue: "hello", corners: corners, time: .zero, duration: .zero)
        let transformed = try #require(preview.transformedMetadataObject(for: code) as? MachineReadableCodeObject)
        #expect(transformed.corners == [CGPoint(x: 180, y: 160), CGPoint(x: 180, y: 320), CGPoint(x: 90, y: 320), CGPoint(x: 90, y: 160)])
        #expect(transformed.bounds == CGRect(x: 90, y: 160, width: 90, height: 160))
        #expect(transformed.stringValue == "hello" && transformed.type == .qr)
        #expect(transformed.corners == corners.map(preview.pointForCaptureDevicePointOfInterest))

        let face = FaceObject(faceID: 7, bounds: CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4), rollAngle: 10, yawAngle: nil, time: .zero, duration: .zero)
        let movedFace = try #require(preview.transformedMetadataObject(for: face) as? FaceObject)
        // x 0.1…0.4 → view y 64…256; y 0.2…0.6 → view x 360·0.4 = 144 … 360·0.8 = 288.
        #expect(Self.close(movedFace.bounds, CGRect(x: 144, y: 64, width: 144, height: 192)))
        #expect(movedFace.faceID == 7 && movedFace.rollAngle == 10)
        #expect(movedFace.bounds == preview.layerRectConverted(fromMetadataOutputRect: face.bounds))

        // Mirrored and filled: still each corner as the point conversion maps it.
        connection.isVideoMirrored = true
        preview.videoGravity = .resizeAspectFill
        preview.bounds = CGRect(x: 10, y: 20, width: 300, height: 300)
        let mirrored = try #require(preview.transformedMetadataObject(for: code) as? MachineReadableCodeObject)
        #expect(mirrored.corners == corners.map(preview.pointForCaptureDevicePointOfInterest))
        #expect(mirrored.bounds == PreviewGeometry.box(mirrored.corners))
    }

    @Test("without a video connection: transformedMetadataObject is nil; points are fractions of the bounds")
    func unconnected() throws {
        let preview = VideoPreview()
        let face = FaceObject(faceID: 1, bounds: CGRect(x: 0, y: 0, width: 0.5, height: 0.5), rollAngle: nil, yawAngle: nil, time: .zero, duration: .zero)
        #expect(preview.transformedMetadataObject(for: face) == nil)
        preview.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        #expect(preview.videoRect == preview.bounds)
        #expect(preview.captureDevicePointOfInterest(for: CGPoint(x: 50, y: 50)) == CGPoint(x: 0.25, y: 0.5))
        #expect(preview.captureDevicePointOfInterestIfVisible(for: CGPoint(x: 250, y: 50)) == nil)
        preview.bounds = .zero
        #expect(preview.videoRect == CGRect(x: 0, y: 0, width: 1, height: 1))

        let session = CaptureSession()
        let unconnected = VideoPreview(sessionWithNoConnection: session)
        #expect(unconnected.connection == nil && unconnected.transformedMetadataObject(for: face) == nil)
    }

    // MARK: The article

    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CaptureKit/CaptureKit.docc/PreviewingVideo.md")

    @Test("PreviewingVideo.md's samples are compiled in VideoPreviewTests.swift and the ports' PreviewTapToFocusTests.swift, word for word")
    func articleSample() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let source = try [tests.appendingPathComponent("CaptureKitTests/VideoPreviewTests.swift"),
                          tests.appendingPathComponent("PortsTests/PreviewTapToFocusTests.swift")]
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        // Lines without their indentation, blank ones dropped, in the sample and in those files alike.
        let flattened = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { String($0.components(separatedBy: "```")[0]) }
        #expect(blocks.count == 2)
        for block in blocks {
            let sample = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            #expect(flattened.contains(sample), "not compiled in VideoPreviewTests.swift or PreviewTapToFocusTests.swift:\n\(block)")
        }
    }
}
