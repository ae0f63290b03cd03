import Foundation
import Testing
@testable import CaptureKit

/// The auto modes' arithmetic, without frames.
@Suite("Auto-control arithmetic", .ownDevices)
struct AutoControlMathTests {
    @Test("a focus search sweeps coarse then fine, and ends in the middle of the sharpest plateau")
    func focusSearch() {
        // Sharpness peaks flat over 0.57…0.63.
        func sharpness(_ position: Float) -> Double { max(0, 1 - max(0, Double(abs(position - 0.6)) - 0.03) * 4) }
        var search = AutoFocusSearch(range: 0...1, smooth: false, from: 0)
        var visited = [search.position]
        while let next = search.record(sharpness(search.position)) { visited.append(next) }
        #expect(visited.count == search.positionCount, "\(visited)")
        #expect(abs(search.result - 0.6) < 0.011, "\(search.result)")
        #expect(zip(visited, visited.dropFirst()).prefix(10).allSatisfy { abs($1 - $0 - 0.1) < 1e-4 }, "coarse steps of 0.1")

        var smooth = AutoFocusSearch(range: 0.5...1, smooth: true, from: 1)
        #expect(smooth.position == 1, "starts at the end nearer the lens")
        var last = smooth.position
        while let next = smooth.record(sharpness(smooth.position)) {
            if next < last { #expect(last - next <= 0.0501) }
            last = next
        }
        #expect(abs(smooth.result - 0.6) < 0.011)
    }

    @Test("a coarse sweep over a plain patch (no sharper position) ends the search where the lens started")
    func flatFocusSearch() {
        var search = AutoFocusSearch(range: 0...1, smooth: false, from: 0.35)
        var count = 1
        // Noise only: 2 % up and down, the "sharpest" at the far end.
        while let next = search.record(1 + Double(next0(search.position)) * 0.02) { count += 1; _ = next }
        #expect(search.isFlat && search.result == 0.35, "\(search.result)")
        #expect(count == 11, "the coarse sweep only: \(count) positions")

        var contrast = AutoFocusSearch(range: 0...1, smooth: false, from: 0.35)
        while contrast.record(contrast.position > 0.75 ? 1.5 : 1) != nil {}
        #expect(!contrast.isFlat && contrast.result > 0.75, "a real peak is followed: \(contrast.result)")

        func next0(_ position: Float) -> Float { position == 1 ? 1 : (position * 10).truncatingRemainder(dividingBy: 2) - 0.5 }
    }

    @Test("exposure steps are damped, duration first at ISO 100, then ISO, within the limits")
    func exposureProgram() {
        let limits = (duration: (1.0 / 8000)...(1.0 / 30), iso: 50.0...3200)
        #expect(AutoExposure.offset(meanLuma: 59, target: 118, bias: 0) == -1)
        #expect(AutoExposure.offset(meanLuma: 59, target: 118, bias: -1) == 0)
        let brighter = AutoExposure.next(duration: 1.0 / 120, iso: 100, offset: -1, limits: limits, maxISO: 800)
        #expect(abs(brighter.duration - 1.0 / 120 * pow(2, 0.75)) < 1e-9 && brighter.iso == 100)
        let dark = AutoExposure.next(duration: 1.0 / 30, iso: 100, offset: -4, limits: limits, maxISO: 800)
        #expect(dark.duration == 1.0 / 30 && abs(dark.iso - 800) < 0.01, "ISO capped at 800 without low-light boost")
        let boosted = AutoExposure.next(duration: 1.0 / 30, iso: 800, offset: -3, limits: limits, maxISO: 3200)
        #expect(boosted.iso > 800)
        let bright = AutoExposure.next(duration: 1.0 / 8000, iso: 100, offset: 3, limits: limits, maxISO: 800)
        #expect(bright.duration == 1.0 / 8000 && bright.iso == 50)
    }

    @Test("gray world divides out the applied gains; steps move geometrically and keep the smallest gain 1")
    func grayWorld() {
        let unit = CaptureDevice.WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1)
        let gains = AutoWhiteBalance.grayWorld(red: 200, green: 100, blue: 50, appliedGains: unit, maxGain: 8)
        #expect(gains == .init(redGain: 1, greenGain: 2, blueGain: 4))
        // The same scene balanced with (1, 2, 4) already: gray world is still (1, 2, 4).
        let again = AutoWhiteBalance.grayWorld(red: 200, green: 200, blue: 200, appliedGains: gains, maxGain: 8)
        #expect(AutoWhiteBalance.isBalanced(again, target: gains, tolerance: 1e-6))
        let step = AutoWhiteBalance.step(from: unit, towards: gains)
        #expect(step.redGain == 1 && step.greenGain > 1 && step.greenGain < 2 && step.blueGain > step.greenGain)
    }
}
