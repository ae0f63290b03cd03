// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "CaptureKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CaptureKit", targets: ["CaptureKit"]),
        // Barcodes (zxing-cpp) and faces (OpenCV) for MetadataOutput and MetadataFileScanner:
        // an app that scans adds this product; one that does not builds without their headers.
        .library(name: "CaptureKitDetectors", targets: ["CaptureKitDetectors"]),
        .library(name: "CaptureFiles", targets: ["CaptureFiles"]),
        .library(name: "CaptureServer", targets: ["CaptureServer"]),
        // WHEP's HTTP (Hummingbird): a whep:// output's own server, and addWHEPRoutes for an
        // app's router. CaptureKit itself has no HTTP.
        .library(name: "CaptureKitWHEP", targets: ["CaptureKitWHEP"]),
        .executable(name: "capture", targets: ["capture"]),
        .executable(name: "capture-bench", targets: ["capture-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // CaptureKitWHEP (HTTP signalling for WebRTC playback) and `capture serve`.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // `capture serve`: the metadata WebSocket of the camera app in the browser.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // `capture serve`'s connection deadlines: channel handlers on Hummingbird's pipeline.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // `make docs`: swift package generate-documentation --target CaptureKit.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C: the system libraries and the one shim. Nothing above GStreamerSwift imports these,
        // but for CaptureKit's one look for its linked products (ck_products.h).
        .systemLibrary(
            name: "CGStreamerSys",
            pkgConfig: "gstreamer-app-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .target(
            name: "CGStreamer",
            dependencies: ["CGStreamerSys"],
            // gstsdp: the WebRTC offer and answer (ck_webrtc.c). gst-rtsp-server (ck_rtsp.c; Debian
            // libgstrtspserver-1.0-dev): its headers are under gstreamer-app-1.0's include
            // directory, its library is linked here. gio (GDBus): the camera portal (ck_portal.c).
            linkerSettings: [.linkedLibrary("exif"), .linkedLibrary("gstsdp-1.0"), .linkedLibrary("gstrtspserver-1.0"),
                             .linkedLibrary("gio-2.0")]
        ),
        // C++ with a C interface over zxing-cpp (Debian libzxing-dev 1.4, 2.x on Debian 13):
        // nothing but Detectors imports it.
        .target(
            name: "CZXing",
            cxxSettings: [.define("ZX_USE_UTF8")],
            linkerSettings: [.linkedLibrary("ZXing"), .linkedLibrary("stdc++")]
        ),
        // ck_faces.h forwarded to libCaptureKitFaces.so, opened on the first face detection so
        // that processes that never look for faces do not load OpenCV. The library is shim/ (C++
        // with a C interface over OpenCV 4.6's cascade classifiers, Debian libopencv-objdetect-dev;
        // cascades from opencv-data), built by FacesLibraryPlugin into this target's resources in
        // every build that includes CaptureKitDetectors, a dependent's too.
        .target(
            name: "CFacesLoader",
            exclude: ["shim"],
            linkerSettings: [.linkedLibrary("dl")],
            plugins: ["FacesLibraryPlugin"]
        ),
        .plugin(name: "FacesLibraryPlugin", capability: .buildTool()),
        // Capture-agnostic detectors over 8-bit gray images: barcodes (zxing-cpp), faces (OpenCV).
        .target(name: "Detectors", dependencies: ["CZXing", "CFacesLoader"]),
        // A thin, safe, capture-agnostic Swift layer over GStreamer.
        .target(name: "GStreamerSwift", dependencies: ["CGStreamer", "CGStreamerSys"]),
        // V4L2 ioctls (device capabilities, controls, menus) over the C in CGStreamer: the V4L2
        // device kind's own target, so that GStreamerSwift knows nothing of V4L2.
        .target(name: "CaptureKitV4L2", dependencies: ["CGStreamer"]),
        // The public AVFoundation-like model.
        .target(
            name: "CaptureKit",
            dependencies: [
                "GStreamerSwift", "CaptureKitV4L2", "CGStreamer", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The detectors behind CaptureKit's MetadataOutput, linked by depending on this product.
        .target(name: "CaptureKitDetectors", dependencies: ["CaptureKit", "Detectors"]),
        // The HTTP server of whep:// outputs, and WHEP routes for an app's router.
        .target(
            name: "CaptureKitWHEP",
            dependencies: [
                "CaptureKit", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Pipeline files, which may declare metadata outputs and whep:// streams: with the
        // detectors and WHEP's server.
        .target(name: "CaptureFiles", dependencies: ["CaptureKit", "CaptureKitDetectors", "CaptureKitWHEP", .product(name: "Yams", package: "Yams")]),
        // The web camera app behind `capture serve`: the HTTP API, WHEP, MJPEG, the metadata
        // WebSocket and the page (Page/, copied as it is).
        .target(
            name: "CaptureServer",
            dependencies: [
                "CaptureKit", "CaptureKitDetectors", "CaptureKitWHEP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.copy("Page")]
        ),
        .executableTarget(
            name: "capture",
            dependencies: [
                "CaptureKit", "CaptureKitDetectors", "CaptureKitWHEP", "CaptureFiles", "CaptureServer", "GStreamerSwift",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The runtime churn, through the public API: `make test` runs a short one, capture-bench a long one.
        .target(name: "CaptureKitChurn", dependencies: ["CaptureKit", "CaptureKitDetectors", "GStreamerSwift"]),
        .executableTarget(name: "capture-bench", dependencies: ["CaptureKit", "CaptureKitDetectors", "CaptureKitChurn", "GStreamerSwift", "Detectors"]),
        .executableTarget(name: "StillPhotoExample", dependencies: ["CaptureKit"], path: "Examples/StillPhoto"),
        .executableTarget(name: "FrameStatsExample", dependencies: ["CaptureKit"], path: "Examples/FrameStats"),
        .executableTarget(name: "MetadataScanExample", dependencies: ["CaptureKitDetectors"], path: "Examples/MetadataScan"),
        .executableTarget(name: "ManualControlsExample", dependencies: ["CaptureKit"], path: "Examples/ManualControls"),
        .executableTarget(name: "PipelineFileExample", dependencies: ["CaptureFiles", "CaptureKit"], path: "Examples/PipelineFile"),
        .executableTarget(name: "RecordMovieExample", dependencies: ["CaptureKit"], path: "Examples/RecordMovie"),
        .executableTarget(name: "StreamCameraExample", dependencies: ["CaptureKit"], path: "Examples/StreamCamera"),
        .testTarget(name: "GStreamerSwiftTests", dependencies: ["GStreamerSwift"]),
        .testTarget(name: "DetectorsTests", dependencies: ["Detectors"]),
        // Fixtures/v4l2: real webcams' recorded control tables, inside the repository so a clone
        // alone passes its tests.
        .testTarget(
            name: "CaptureKitTests",
            dependencies: ["CaptureKit", "CaptureKitDetectors", "CaptureKitWHEP", "Detectors", "CaptureKitChurn", "GStreamerSwift", "CaptureKitV4L2",
                           .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Fixtures")]
        ),
        // Runs the built `capture` command and examples as a user would.
        .testTarget(name: "CaptureCommandTests"),
        .testTarget(
            name: "CaptureServerTests",
            dependencies: [
                "CaptureServer", "CaptureKit",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Browser/: the page's headless-Chromium checks (Python), run by BrowserTests.swift.
            exclude: ["Browser"]
        ),
        .testTarget(name: "CaptureFilesTests", dependencies: ["CaptureFiles", "CaptureKit"], exclude: ["Golden"]),
        // Code written the way Apple's AVFoundation samples are, with `AV` dropped: it imports
        // CaptureKit as an app does (no @testable) and must compile unchanged. In Swift 5 mode,
        // as those samples are written (Swift 6 mode rejects a non-Sendable class captured by
        // a dispatch closure on Darwin as here: a language edit, not a CaptureKit one).
        // The code scanners among them need the detectors, as an app that scans does.
        .testTarget(name: "PortsTests", dependencies: ["CaptureKit", "CaptureKitDetectors"], swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
