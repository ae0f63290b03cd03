/// A contrast-detect autofocus search: a coarse sweep of the lens range, then a fine sweep
/// around the sharpest coarse position; the answer is the sharpest position measured.
///
/// Pure state: the loop moves the lens to `position`, waits for a frame taken there, records its
/// sharpness, and moves on until `record` returns nil.
struct AutoFocusSearch: Equatable, Sendable {
    /// Coarse steps: a tenth of the lens range, a twentieth when smooth.
    static func coarseStep(smooth: Bool) -> Float { smooth ? 0.05 : 0.1 }
    /// Fine steps are a fifth of the coarse ones.
    static let refinement: Float = 5

    private(set) var position: Float
    private(set) var best: (position: Float, sharpness: Double)?
    private var low: Float, high: Float, step: Float
    private var isFine = false
    private let range: ClosedRange<Float>

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.position == rhs.position && lhs.low == rhs.low && lhs.high == rhs.high && lhs.isFine == rhs.isFine
            && lhs.best?.position == rhs.best?.position && lhs.best?.sharpness == rhs.best?.sharpness
    }

    /// A search over `range`, starting at the end nearer to `from` (less lens travel).
    init(range: ClosedRange<Float>, smooth: Bool, from current: Float) {
        self.range = range
        step = Self.coarseStep(smooth: smooth)
        low = range.lowerBound
        high = range.upperBound
        let fromHigh = abs(current - high) < abs(current - low)
        if fromHigh { step = -step }
        position = fromHigh ? high : low
    }

    /// Positions measured per search: coarse and fine sweeps.
    var positionCount: Int {
        let coarse = Int(((range.upperBound - range.lowerBound) / abs(step)).rounded()) + 1
        return coarse + 2 * Int(Self.refinement) + 1
    }

    /// Records the sharpness at `position`; returns the next position to measure, or nil when
    /// the search is over (the lens then goes to `best`).
    mutating func record(_ sharpness: Double) -> Float? {
        if best == nil || sharpness > best!.sharpness { best = (position, sharpness) }
        let next = position + step
        if next >= low - 1e-4 && next <= high + 1e-4 {
            position = min(max(next, low), high)
            return position
        }
        guard !isFine, let best else { return nil }
        // Fine sweep: a coarse step either side of the sharpest position.
        isFine = true
        let coarse = abs(step)
        low = max(range.lowerBound, best.position - coarse)
        high = min(range.upperBound, best.position + coarse)
        step = coarse / Self.refinement
        position = low
        return position
    }

    /// Where the lens ends: the sharpest position measured.
    var result: Float { best?.position ?? position }
}
