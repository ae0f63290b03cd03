extension CaptureDevice {
    /// A `videotestsrc` device for benchmarks and tests: `isLive` paces it at the frame rate,
    /// otherwise it runs as fast as the pipeline takes frames; `frameCount` ends the stream.
    /// A `videoMaxZoomFactor` above 1 zooms digitally in the pipeline, as V4L2 cameras without
    /// optical zoom do.
    @_spi(Benchmark)
    public static func testPattern(width: Int, height: Int, frameRate: Double = 30, pattern: String = "smpte",
                                   isLive: Bool, frameCount: Int? = nil, videoMaxZoomFactor: Double = 1) -> CaptureDevice {
        let format = Format(pixelFormat: .bgra, width: width, height: height,
                            videoSupportedFrameRateRanges: [.init(minFrameRate: frameRate, maxFrameRate: frameRate)],
                            videoMaxZoomFactor: videoMaxZoomFactor)
        return CaptureDevice(uniqueID: "test-pattern:\(pattern)", modelID: "videotestsrc", localizedName: "Test Pattern",
                             manufacturer: "GStreamer", position: .unspecified, formats: [format], activeFormat: format,
                             backend: TestPatternBackend(pattern: pattern, isLive: isLive, frameCount: frameCount, capabilities: DeviceCapabilities(
                                provisions: [.exposureContinuous: .device, .zoom: videoMaxZoomFactor > 1 ? .software(.digitalZoom) : .unsupported],
                                metersFrames: false)))
    }
}
