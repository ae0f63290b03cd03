import Foundation

/// The virtual microphone's signal: a sine tone at a quarter of full scale whose pitch changes
/// at every whole second of running time, walking up the A major scale and starting again
/// every eight seconds:
///
///     value(t) = 0.25 · sin(2π · f(⌊t⌋) · t)
///     f(n)     = round(440 · 2^(s[n mod 8] / 12)) Hz,  s = [0, 2, 4, 5, 7, 9, 11, 12]
///              = 440, 494, 554, 587, 659, 740, 831, 880 Hz for n mod 8 = 0 … 7
///
/// where `t` is the running time in seconds (a buffer's presentation time). Each frequency is a
/// whole number of hertz, so `f · t` is a whole number of cycles at every whole second: the
/// phase is 0 there whatever the frequency, and the tone changes pitch without a jump.
///
/// Samples lie on the grid of their rate: sample `k` of a buffer whose presentation time is
/// `p` nanoseconds, at `r` Hz, is the signal at `t = (round(p · r / 10⁹) + k) / r` — the same
/// value whichever buffer carries it. Phases are computed in integers (`f · (i mod r) mod r`),
/// so a sample's value does not drift however long the microphone runs. Every channel carries
/// the same signal. S16LE samples are `round(value · 32767)`, F32LE samples the value.
///
/// Tests predict any buffer from its presentation time (`value(sample:rate:)`), and tell the
/// seconds apart by frequency (`frequency(second:)`).
enum VirtualMicrophoneSignal {
    /// The peak value, as a fraction of full scale.
    static let amplitude = 0.25
    /// Semitones above A4 (440 Hz) of the eight seconds of a cycle.
    static let semitones = [0, 2, 4, 5, 7, 9, 11, 12]
    /// The frequencies of the eight seconds of a cycle, in hertz.
    static let frequencies: [Int] = semitones.map { Int((440 * pow(2, Double($0) / 12)).rounded()) }

    /// The frequency during second `second` of running time (⌊t⌋ = second).
    static func frequency(second: Int64) -> Int {
        frequencies[Int(second % Int64(frequencies.count))]
    }

    /// The index of the sample nearest to `presentationTime` (nanoseconds) on the grid of
    /// `rate`: round(p · r / 10⁹), without overflow for any `UInt64` time.
    static func sampleIndex(presentationTime: UInt64, rate: Int) -> Int64 {
        let seconds = Int64(presentationTime / 1_000_000_000)
        let remainder = Int64(presentationTime % 1_000_000_000)
        return seconds * Int64(rate) + (remainder * Int64(rate) + 500_000_000) / 1_000_000_000
    }

    /// The signal at sample `index` of rate `rate`, i.e. at `index / rate` seconds; in
    /// -`amplitude` … `amplitude`.
    static func value(sample index: Int64, rate: Int) -> Double {
        let rate64 = Int64(rate)
        let second = index / rate64
        let offset = index % rate64
        let cycles = Int64(frequency(second: second)) * offset % rate64
        return amplitude * sin(2 * Double.pi * Double(cycles) / Double(rate))
    }

    /// The S16LE sample for `value` (full scale 32767).
    static func s16(_ value: Double) -> Int16 { Int16((value * 32767).rounded()) }

    /// Fills `bytes` (interleaved frames of `format`) with the signal from `presentationTime`
    /// (nanoseconds, running time) on. A trailing partial frame is left alone.
    static func render(into bytes: UnsafeMutableRawBufferPointer, format: AudioFormat, presentationTime: UInt64) {
        let frames = bytes.count / format.bytesPerFrame
        let first = sampleIndex(presentationTime: presentationTime, rate: format.sampleRate)
        let channels = format.channelCount
        switch format.sampleFormat {
        case .s16le:
            for frame in 0..<frames {
                let sample = s16(value(sample: first + Int64(frame), rate: format.sampleRate)).littleEndian
                for channel in 0..<channels {
                    bytes.storeBytes(of: sample, toByteOffset: (frame * channels + channel) * 2, as: Int16.self)
                }
            }
        case .f32le:
            for frame in 0..<frames {
                let sample = Float(value(sample: first + Int64(frame), rate: format.sampleRate)).bitPattern.littleEndian
                for channel in 0..<channels {
                    bytes.storeBytes(of: sample, toByteOffset: (frame * channels + channel) * 4, as: UInt32.self)
                }
            }
        }
    }
}
