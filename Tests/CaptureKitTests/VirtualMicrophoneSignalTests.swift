import Foundation
import Testing
@testable import CaptureKit

/// The virtual microphone's signal, without GStreamer: a tone whose pitch changes every second,
/// predictable sample by sample from presentation times.
@Suite("Virtual microphone signal", .ownDevices)
struct VirtualMicrophoneSignalTests {
    /// `frames` frames of `format` rendered from `presentationTime`, as values in -1…1 (channel 0).
    static func render(_ format: AudioFormat, frames: Int, from presentationTime: UInt64) -> (bytes: [UInt8], values: [Double]) {
        var bytes = [UInt8](repeating: 0, count: frames * format.bytesPerFrame)
        bytes.withUnsafeMutableBytes { VirtualMicrophoneSignal.render(into: $0, format: format, presentationTime: presentationTime) }
        let values = (0..<frames).map { frame -> Double in
            bytes.withUnsafeBytes { raw in
                let offset = frame * format.bytesPerFrame
                switch format.sampleFormat {
                case .s16le: return Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32767
                case .f32le: return Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
                }
            }
        }
        return (bytes, values)
    }

    static let monoFloat = AudioFormat(sampleRate: 48000, channelCount: 1, sampleFormat: .f32le)
    static let stereo16 = AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le)

    @Test("each second of running time plays its note of the A major scale, cycling every 8 seconds")
    func frequencyPerSecond() {
        #expect(VirtualMicrophoneSignal.frequencies == [440, 494, 554, 587, 659, 740, 831, 880])
        for second in 0..<10 {
            let expected = VirtualMicrophoneSignal.frequencies[second % 8]
            #expect(VirtualMicrophoneSignal.frequency(second: Int64(second)) == expected)
            let values = Self.render(Self.monoFloat, frames: 48000, from: UInt64(second) * 1_000_000_000).values
            let crossings = AudioAnalysis.zeroCrossings(values)
            #expect(abs(crossings - 2 * expected) <= 1, "second \(second): \(crossings) zero crossings for \(expected) Hz")
            #expect(AudioAnalysis.strongest(of: VirtualMicrophoneSignal.frequencies, in: values, rate: 48000) == expected)
            #expect(abs(values.max()! - 0.25) < 1e-3 && abs(values.min()! + 0.25) < 1e-3, "a quarter of full scale")
        }
    }

    @Test("buffers of any length, stamped as a live source stamps them, join into one continuous signal")
    func continuityAcrossBuffers() {
        for format in [Self.stereo16, Self.monoFloat] {
            let total = 120_000  // 2.5 s: two changes of pitch
            let start: UInt64 = 1_393_964  // a live source starts wherever running time is
            let whole = Self.render(format, frames: total, from: start)
            for length in [480, 441, 1024] {
                var joined: [UInt8] = [], values: [Double] = []
                var first = 0
                while first < total {
                    let frames = min(length, total - first)
                    // audiotestsrc's stamps: its start plus the sample offset in nanoseconds, rounded down.
                    let pts = start + UInt64(first) * 1_000_000_000 / 48000
                    let part = Self.render(format, frames: frames, from: pts)
                    joined += part.bytes
                    values += part.values
                    first += frames
                }
                if length == 480 {
                    #expect(joined == whole.bytes, "\(format): 10 ms buffers are stamped exactly, so they are the same bytes")
                } else {
                    // Stamps rounded down by less than a nanosecond move a sample by less than 2e-6.
                    let worst = zip(values, whole.values).map { abs($0 - $1) }.max()!
                    #expect(worst <= (format.sampleFormat == .s16le ? 1.0001 / 32767 : 2e-6), "\(format), \(length)-frame buffers: \(worst)")
                }
            }
            // No jump anywhere, at the changes of pitch (samples 48000 and 96000) either: each step
            // stays within what the steepest tone allows between two samples.
            let steepest = 2 * Double.pi * 880 * 0.25 / 48000 + (format.sampleFormat == .s16le ? 1.0 / 32767 : 1e-6)
            let steps = zip(whole.values, whole.values.dropFirst()).map { abs($1 - $0) }
            #expect(steps.max()! <= steepest, "\(format): largest step \(steps.max()!)")
            let boundary = Self.render(format, frames: 2, from: 1_000_000_000).values
            #expect(abs(boundary[0]) < 1e-9, "phase 0 at every whole second")
        }
    }

    @Test("the value at a known time follows the documented formula, in both sample formats and every channel")
    func valueAtKnownTime() {
        // 1 s + 12 samples at 48 kHz: second 1 plays 494 Hz.
        let expected = 0.25 * sin(2 * Double.pi * 494 * (1 + 12.0 / 48000))
        let atSample = VirtualMicrophoneSignal.value(presentationTime: 1_000_000_000, frame: 12, rate: 48000)
        #expect(abs(atSample - expected) < 1e-9)
        #expect(VirtualMicrophoneSignal.value(presentationTime: 1_000_250_000, frame: 0, rate: 48000) == atSample,
                "the same time from another buffer's start is the same value")
        let later = VirtualMicrophoneSignal.value(presentationTime: 1_000_250_010, frame: 0, rate: 48000)
        #expect(later != atSample && abs(later - atSample) <= 2 * Double.pi * 494 * 0.25 * 10e-9, "10 ns later: the tone moved on by its slope")
        let bytes = Self.render(Self.stereo16, frames: 4, from: 1_000_250_000).bytes
        let left = bytes.withUnsafeBytes { Int16(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: Int16.self)) }
        let right = bytes.withUnsafeBytes { Int16(littleEndian: $0.loadUnaligned(fromByteOffset: 2, as: Int16.self)) }
        #expect(left == Int16((expected * 32767).rounded()) && right == left)
        #expect(abs(Self.render(Self.monoFloat, frames: 1, from: 1_000_250_000).values[0] - expected) < 1e-7)
        // At 44 kHz, sample 25 is 1/1760 s: a quarter cycle of 440 Hz, the peak.
        #expect(abs(VirtualMicrophoneSignal.value(presentationTime: 0, frame: 25, rate: 44000) - 0.25) < 1e-12)
        #expect(VirtualMicrophoneSignal.value(presentationTime: 0, frame: 0, rate: 48000) == 0)
    }

    @Test("ten days in, a sample has the value it has in the first cycle: integer phases do not drift")
    func noDrift() {
        let late: UInt64 = 864_001 * 1_000_000_000 + 250_000  // second 864001 ≡ 1 (mod 8)
        #expect(VirtualMicrophoneSignal.value(presentationTime: late, frame: 0, rate: 48000)
                == VirtualMicrophoneSignal.value(presentationTime: 1_000_250_000, frame: 0, rate: 48000))
        #expect(VirtualMicrophoneSignal.value(presentationTime: late, frame: 47_988, rate: 48000)
                == VirtualMicrophoneSignal.value(presentationTime: 2_000_000_000, frame: 0, rate: 48000), "and across the next whole second")
        let last = VirtualMicrophoneSignal.value(presentationTime: .max, frame: 1_000_000, rate: 192_000)
        #expect(last.isFinite && abs(last) <= 0.25, "no overflow at the largest time")
    }
}
