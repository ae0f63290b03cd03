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
/// Sample `k` of a buffer whose presentation time is `p` nanoseconds, at `r` Hz, is the signal at
/// exactly `t = p / 10⁹ + k / r` seconds, whatever the buffer's length or where the source
/// started: a buffer converted to another rate still holds the same tone at the same times.
/// Phases are computed in integers (the cycles of `f · t` modulo 1, as a fraction over
/// `10⁹ · r`), so a sample's value does not drift however long the microphone runs. Every
/// channel carries the same signal. S16LE samples are `round(value · 32767)`, F32LE samples
/// the value.
///
/// Tests predict any buffer from its presentation time (`value(presentationTime:frame:rate:)`),
/// and tell the seconds apart by frequency (`frequency(second:)`).
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

    /// The signal at frame `frame` of a buffer of rate `rate` whose presentation time is
    /// `presentationTime` nanoseconds: at `presentationTime / 10⁹ + frame / rate` seconds,
    /// in -`amplitude` … `amplitude`. Exact for any `UInt64` time and any frame up to 10⁶.
    static func value(presentationTime: UInt64, frame: Int, rate: Int) -> Double {
        // t = seconds + numerator / denominator, the fraction held in integers.
        let denominator = 1_000_000_000 * Int64(rate)
        let numerator = Int64(presentationTime % 1_000_000_000) * Int64(rate) + Int64(frame) * 1_000_000_000
        let second = Int64(presentationTime / 1_000_000_000) + numerator / denominator
        let cycles = Int64(frequency(second: second)) * (numerator % denominator) % denominator
        return amplitude * sin(2 * Double.pi * Double(cycles) / Double(denominator))
    }

    /// The S16LE sample for `value` (full scale 32767).
    static func s16(_ value: Double) -> Int16 { Int16((value * 32767).rounded()) }

    /// The value an S16LE sample stands for (full scale 32767).
    static func s16ToValue(_ sample: Int16) -> Double { Double(sample) / 32767 }

    /// Fills `bytes` (interleaved frames of `format`) with the signal from `presentationTime`
    /// (nanoseconds, running time) on. A trailing partial frame is left alone.
    static func render(into bytes: UnsafeMutableRawBufferPointer, format: AudioFormat, presentationTime: UInt64) {
        let frames = bytes.count / format.bytesPerFrame
        let channels = format.channelCount
        switch format.sampleFormat {
        case .s16le:
            for frame in 0..<frames {
                let sample = s16(value(presentationTime: presentationTime, frame: frame, rate: format.sampleRate)).littleEndian
                for channel in 0..<channels {
                    bytes.storeBytes(of: sample, toByteOffset: (frame * channels + channel) * 2, as: Int16.self)
                }
            }
        case .f32le:
            for frame in 0..<frames {
                let sample = Float(value(presentationTime: presentationTime, frame: frame, rate: format.sampleRate)).bitPattern.littleEndian
                for channel in 0..<channels {
                    bytes.storeBytes(of: sample, toByteOffset: (frame * channels + channel) * 4, as: UInt32.self)
                }
            }
        }
    }
}
