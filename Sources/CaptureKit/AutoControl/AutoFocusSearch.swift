/// A contrast-detect autofocus search: a coarse sweep of the lens range, then a fine sweep
/// around the sharpest coarse position; the answer is the middle of the sharpest positions the
/// fine sweep measured (a lens has a depth of field: neighbouring positions can be equally sharp).
///
/// A coarse sweep that finds no contrast to speak of (a plain patch at the point of interest:
/// its sharpest position under 10 % sharper than its softest) ends the search with the lens where
/// it started, rather than wherever noise peaked.
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
    /// The last position as sharp as `best` (within 0.5 %).
    private var bestEnd: Float?
    private var low: Float, high: Float, step: Float
    private var isFine = false
    private let range: ClosedRange<Float>
    /// Where the lens was when the search began, and the softest coarse measurement.
    private let start: Float
    private var softest: Double?
    /// Whether the coarse sweep found nothing sharper than the rest: the lens goes back to `start`.
    private(set) var isFlat = false
    /// A coarse sweep whose sharpest position is less than this much sharper than its softest is flat.
    static let flatContrast = 1.1
    /// Positions measured per search (coarse and fine sweeps) when the fine sweep has room on
    /// both sides.
    let positionCount: Int

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.position == rhs.position && lhs.low == rhs.low && lhs.high == rhs.high && lhs.isFine == rhs.isFine
            && lhs.best?.position == rhs.best?.position && lhs.best?.sharpness == rhs.best?.sharpness && lhs.bestEnd == rhs.bestEnd
    }

    /// A search over `range`, starting at the end nearer to `from` (less lens travel).
    init(range: ClosedRange<Float>, smooth: Bool, from current: Float) {
        self.range = range
        start = current
        step = Self.coarseStep(smooth: smooth)
        positionCount = Int(((range.upperBound - range.lowerBound) / step).rounded()) + 1 + 2 * Int(Self.refinement) + 1
        low = range.lowerBound
        high = range.upperBound
        let fromHigh = abs(current - high) < abs(current - low)
        if fromHigh { step = -step }
        position = fromHigh ? high : low
    }


    /// Records the sharpness at `position`; returns the next position to measure, or nil when
    /// the search is over (the lens then goes to `best`).
    mutating func record(_ sharpness: Double) -> Float? {
        if let current = best, sharpness >= current.sharpness * 0.995 && sharpness <= current.sharpness * 1.005 {
            bestEnd = position
        } else if best == nil || sharpness > best!.sharpness {
            best = (position, sharpness)
            bestEnd = position
        }
        if !isFine { softest = min(softest ?? sharpness, sharpness) }
        let next = position + step
        if next >= low - 1e-4 && next <= high + 1e-4 {
            position = min(max(next, low), high)
            return position
        }
        guard !isFine, let best else { return nil }
        if let softest, best.sharpness < softest * Self.flatContrast {
            isFlat = true
            return nil
        }
        // Fine sweep: a coarse step either side of the sharpest position.
        isFine = true
        let coarse = abs(step)
        low = max(range.lowerBound, best.position - coarse)
        high = min(range.upperBound, best.position + coarse)
        step = coarse / Self.refinement
        position = low
        self.best = nil
        bestEnd = nil
        return position
    }

    /// Where the lens ends: the middle of the sharpest positions measured.
    var result: Float {
        if isFlat { return start }
        guard let best else { return position }
        return (best.position + (bestEnd ?? best.position)) / 2
    }
}
