import Foundation

/// Signal measurements for audio tests.
enum AudioAnalysis {
    /// The power of `frequency` in `samples` at `rate` (Goertzel), normalised by the count.
    static func power(of frequency: Double, in samples: [Double], rate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = sample + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return power / Double(samples.count * samples.count)
    }

    /// The candidate with the most power in `samples`.
    static func strongest(of candidates: [Int], in samples: [Double], rate: Int) -> Int {
        candidates.max { power(of: Double($0), in: samples, rate: rate) < power(of: Double($1), in: samples, rate: rate) }!
    }

    /// How many times the signal changes sign.
    static func zeroCrossings(_ samples: [Double]) -> Int {
        zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }
}
