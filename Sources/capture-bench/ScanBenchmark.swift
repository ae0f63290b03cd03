@_spi(Benchmark) import CaptureKit
import Detectors
import Foundation

/// Barcode reading: decode time per 1280x720 GRAY8 frame (the virtual camera's, with its QR
/// code) against `zbarimg` on the same frame in the same run, and the latency from a code
/// becoming readable in the virtual scene to the metadata delegate, in frames at 30 fps.
enum ScanBenchmark {
    static func run() async throws -> [String: Double] {
        let frame = try await grayFrame()
        var figures: [String: Double] = [:]
        for (name, symbologies) in [("qr", Set([Symbology.qr])), ("all", Set(Symbology.allCases))] {
            let reader = BarcodeReader(symbologies: symbologies)
            var times: [Double] = []
            var found = 0
            for _ in 0..<100 {
                let start = DispatchTime.now().uptimeNanoseconds
                let codes = frame.pixels.withUnsafeBytes { reader.read($0, width: frame.width, height: frame.height, rowStride: frame.width) }
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                found = codes.count
            }
            figures["decode_\(name)_p50_ms"] = Processes.percentile(times, 0.5)
            figures["decode_\(name)_p99_ms"] = Processes.percentile(times, 0.99)
            figures["decode_\(name)_codes"] = Double(found)
        }
        // zbarimg on the same frame, as a PGM file: whole process per image, as it is used.
        let pgm = FileManager.default.temporaryDirectory.appendingPathComponent("capture-bench-scan.pgm")
        try (Data("P5\n\(frame.width) \(frame.height)\n255\n".utf8) + Data(frame.pixels)).write(to: pgm)
        var zbar: [Double] = []
        var zbarCodes = 0
        for _ in 0..<20 {
            let (seconds, output) = try Processes.time("/usr/bin/zbarimg", ["-q", pgm.path])
            zbar.append(seconds * 1000)
            // Its stderr (merged here) complains about D-Bus on machines without one.
            zbarCodes = output.split(separator: "\n").filter { !$0.hasPrefix("Connection") }.count
        }
        figures["zbarimg_p50_ms"] = Processes.percentile(zbar, 0.5)
        figures["zbarimg_codes"] = Double(zbarCodes)
        for (name, value) in try await latency() { figures[name] = value }
        return figures
    }

    /// The virtual camera's frame at 1280x720 in GRAY8.
    static func grayFrame() async throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let device = try CaptureDevice.find("virtual")
        let session = CaptureSession()
        try session.setSessionPreset(.hd1280x720)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .gray8))
        try session.checked.addOutput(output)
        var frames = output.sampleBuffers(bufferingNewest: 1).makeAsyncIterator()
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        for _ in 0..<3 { _ = await frames.next() }
        guard let sample = await frames.next() else { throw CaptureError.captureCancelled }
        return try sample.withPlanes { planes in
            let plane = planes[0], width = sample.formatDescription.width, height = sample.formatDescription.height
            var pixels = [UInt8](repeating: 0, count: width * height)
            for row in 0..<height {
                for column in 0..<width { pixels[row * width + column] = plane.bytes[row * plane.bytesPerRow + column] }
            }
            return (width, height, pixels)
        }
    }

    /// The QR code made unreadable (lens at 0: a 14-pixel blur), then sharp again: from the
    /// completion handler of the sharp lens (its syncTime frame painted) to the first delegate
    /// call with the code, in frame intervals; 20 trials at 1280x720@30.
    static func latency() async throws -> [String: Double] {
        let device = try CaptureDevice.find("virtual")
        let (session, output) = try MetadataSession.make(device, types: [.qr])
        var batches = output.metadataObjects(bufferingNewest: 64).makeAsyncIterator()
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setFocusMode(.continuousAutoFocus)
            device.unlockForConfiguration()
        }
        var delays: [Double] = [], framesLate: [Double] = []
        for _ in 0..<20 {
            try device.checked.setFocusModeLocked(lensPosition: 0)
            try await Task.sleep(for: .milliseconds(300))
            let sharp: (CaptureTime, UInt64) = await withCheckedContinuation { continuation in
                try? device.checked.setFocusModeLocked(lensPosition: sharpLens) { time in
                    continuation.resume(returning: (time, DispatchTime.now().uptimeNanoseconds))
                }
            }
            // Skip batches from before the blur (still queued), then wait for the code.
            while let batch = await batches.next() {
                guard let code = batch.first, code.time >= sharp.0 else { continue }
                delays.append(Double(DispatchTime.now().uptimeNanoseconds - sharp.1) / 1e9 * 30)
                framesLate.append((code.time.seconds - sharp.0.seconds) * 30)
                break
            }
        }
        return ["latency_p50_frames": Processes.percentile(delays, 0.5), "latency_max_frames": delays.max() ?? 0,
                "found_after_sharp_p50_frames": Processes.percentile(framesLate, 0.5)]
    }

    /// Where the virtual scene is sharp.
    static let sharpLens: Float = 0.6
}
