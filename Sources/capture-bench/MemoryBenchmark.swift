import CaptureKit
import Foundation

/// Resident memory growth per cycle after warm-up, for the three loops the live-runtime issue
/// holds to < 2 MB over 1,000: start/stop of a 640x480 virtual session with a still output,
/// adding and removing a still output on a running session, and stills taken. Cycles per loop:
/// CAPTURE_BENCH_MEMORY_CYCLES (default 200); CAPTURE_BENCH_MEMORY_ONLY_START_STOP runs the first
/// loop alone (for valgrind).
enum MemoryBenchmark {
    static func run() async throws -> [String: Double] {
        let environment = ProcessInfo.processInfo.environment
        let cycles = Int(environment["CAPTURE_BENCH_MEMORY_CYCLES"] ?? "") ?? 200
        var figures: [String: Double] = ["cycles": Double(cycles)]
        figures["startStopKBPerCycle"] = try await growth(cycles: cycles) {
            let session = try makeSession(outputs: [StillImageOutput()])
            try await session.startRunning()
            await session.stopRunning()
        }
        if environment["CAPTURE_BENCH_MEMORY_ONLY_START_STOP"] != nil { return figures }
        let running = try makeSession(outputs: [VideoDataOutput()])
        try await running.startRunning()
        figures["addRemoveKBPerCycle"] = try await growth(cycles: cycles) {
            let still = StillImageOutput()
            try running.addOutput(still)
            try running.removeOutput(still)
        }
        await running.stopRunning()
        let still = StillImageOutput()
        let stills = try makeSession(outputs: [still])
        try await stills.startRunning()
        let connection = still.connection(with: .video)!
        figures["stillKBPerCycle"] = try await growth(cycles: cycles) {
            _ = try await still.captureStillImage(from: connection)
        }
        await stills.stopRunning()
        return figures
    }

    static func makeSession(outputs: [any CaptureOutput]) throws -> CaptureSession {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.addInput(CaptureDeviceInput(device: try CaptureDevice.find("virtual")))
        for output in outputs { try session.addOutput(output) }
        return session
    }

    /// Kilobytes of resident memory gained per cycle over `cycles` cycles after `cycles / 5`
    /// warm-up ones.
    static func growth(cycles: Int, _ body: () async throws -> Void) async throws -> Double {
        for _ in 0..<max(1, cycles / 5) { try await body() }
        let before = residentKilobytes()
        let verbose = ProcessInfo.processInfo.environment["CAPTURE_BENCH_VERBOSE"] != nil
        for cycle in 0..<cycles {
            try await body()
            if verbose && (cycle + 1) % 100 == 0 { print("cycle \(cycle + 1): +\(residentKilobytes() - before) KB") }
        }
        return Double(residentKilobytes() - before) / Double(cycles)
    }

    /// Resident set size from /proc/self/statm, in kilobytes.
    static func residentKilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
