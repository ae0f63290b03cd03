import Foundation

/// Finds motion in 8-bit gray frames: the pure part of ``MetadataObjectType/motion``, without
/// GStreamer, so tests feed it rendered frames.
///
/// Each analysed frame is reduced to a grid of cell means (about 80 cells across; at 1280x720,
/// 16x16-pixel cells read at every other pixel) and compared with the last analysed frame's
/// grid. A change of light over the whole frame (auto exposure, a torch, a lamp, the virtual
/// scene's exposure steps) scales every pixel alike, clipped at white: the frame's gain is the
/// median ratio of the cells neither dark nor clipped, and a cell has changed only when it
/// differs from its last value times that gain by more than the sensitivity allows (a floor of
/// levels plus a fraction of the value). Each cell keeps its clipped pixels apart (their true
/// level is unknown), so a cell half white stays half white when the light goes up. Changed cells are joined into regions (8-connected);
/// regions smaller than the minimum area are dropped. When more than half of the analysed area
/// changed at once, the change is taken for light (a lamp's shadow pattern, the camera moved)
/// and nothing is reported, as other motion detectors do.
///
/// A white-balance change scales colours differently, which a gray frame cannot tell from
/// motion; the caller passes `settled: false` for frames while the device's own settings
/// (white balance, exposure, torch, focus, zoom) are changing, and those frames only become the
/// new reference.
///
/// Not thread-safe: one detector per branch, used on its appsink thread. No allocation per frame
/// once the frame size is known.
struct MotionDetector {
    /// A changed region, in normalised device coordinates.
    struct Region: Equatable {
        var bounds: CGRect
        var area: Double
        var score: Double
    }

    /// More than this fraction of the analysed cells changing at once is light, not motion.
    static let globalChangeFraction = 0.5
    /// Cells darker than this, or with a clipped pixel, do not vote for the frame's gain.
    static let dark: Float = 16
    /// Pixels at or above this level are taken as clipped: their true level is unknown.
    static let saturated: Float = 250

    private(set) var settings = MotionDetectionSettings()
    private var geometry = (width: 0, height: 0, cell: 0, columns: 0, rows: 0)
    /// A cell's measure: the mean of its unclipped pixels, and the fraction clipped.
    struct Cell {
        var mean: Float = 0
        var clipped: Float = 0
        /// The cell's mean over all its pixels, clipped ones at white.
        var value: Float { (1 - clipped) * mean + clipped * 255 }
    }

    private var reference: [Cell] = [], current: [Cell] = []
    private var hasReference = false
    private var gain: Float = 1, analysedCells = 0
    private var mask: [Bool] = [], changed: [Bool] = [], visited: [Bool] = []
    private var ratios: [Float] = [], stack: [Int] = [], rowSums: [UInt32] = [], clippedCounts: [UInt32] = []
    private var lastAnalysed: UInt64?

    /// Takes new settings; the regions apply from the next frame.
    mutating func configure(_ settings: MotionDetectionSettings) {
        guard settings != self.settings else { return }
        self.settings = settings
        if geometry.columns > 0 { buildMask() }
    }

    /// Whether a frame presented at `time` (nanoseconds) is due for analysis at the settings' rate
    /// (a frame a tenth of an interval early counts as on time).
    func isDue(_ time: UInt64) -> Bool {
        guard let last = lastAnalysed else { return true }
        // Time going back is a new stream (a source swapped): start again.
        guard time > last else { return time < last }
        return Double(time - last) >= 0.9e9 / settings.analysisFrameRate
    }

    /// Analyses a frame presented at `time`: the changed regions, largest first (empty for the
    /// first frame, and for frames that are not `settled`, which only become the reference).
    mutating func analyse(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, time: UInt64, settled: Bool = true) -> [Region] {
        lastAnalysed = time
        if width != geometry.width || height != geometry.height { resize(width: width, height: height) }
        guard geometry.columns > 0, bytes.count >= bytesPerRow * (height - 1) + width else { return [] }
        measure(bytes, bytesPerRow: bytesPerRow)
        defer {
            swap(&reference, &current)
            hasReference = true
        }
        guard hasReference, settled else { return [] }
        let count = markChanges()
        guard count > 0, Double(count) <= Self.globalChangeFraction * Double(analysedCells) else { return [] }
        return regions()
    }

    private mutating func resize(width: Int, height: Int) {
        let cell = max(2, width / 80)
        let columns = width / cell, rows = height / cell
        geometry = (width, height, cell, columns, rows)
        let cells = columns * rows
        reference = [Cell](repeating: Cell(), count: cells)
        current = reference
        changed = [Bool](repeating: false, count: cells)
        visited = changed
        ratios.reserveCapacity(cells)
        stack.reserveCapacity(cells)
        rowSums = [UInt32](repeating: 0, count: columns)
        clippedCounts = rowSums
        hasReference = false
        buildMask()
    }

    /// Which cells count: centre inside an included region (or any, with none) and outside every
    /// ignored one.
    private mutating func buildMask() {
        let (_, _, _, columns, rows) = geometry
        mask = (0..<(columns * rows)).map { index in
            let centre = CGPoint(x: (Double(index % columns) + 0.5) / Double(columns), y: (Double(index / columns) + 0.5) / Double(rows))
            let included = settings.includedRegions.isEmpty || settings.includedRegions.contains { $0.contains(centre) }
            return included && !settings.ignoredRegions.contains { $0.contains(centre) }
        }
        analysedCells = mask.reduce(0) { $0 + ($1 ? 1 : 0) }
    }

    /// Fills `current` with each cell's mean of its unclipped pixels and its fraction of clipped
    /// ones (at or above `saturated`), reading every other pixel of cells 8 pixels or wider.
    private mutating func measure(_ bytes: UnsafeRawBufferPointer, bytesPerRow: Int) {
        let (_, _, cell, columns, rows) = geometry
        let step = cell >= 8 ? 2 : 1
        let samples = UInt32((cell / step) * (cell / step))
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let saturated = UInt8(Self.saturated)
        rowSums.withUnsafeMutableBufferPointer { sums in
            clippedCounts.withUnsafeMutableBufferPointer { clipped in
                current.withUnsafeMutableBufferPointer { cells in
                    for row in 0..<rows {
                        for column in 0..<columns { sums[column] = 0; clipped[column] = 0 }
                        var y = row * cell
                        while y < (row + 1) * cell {
                            let line = base + y * bytesPerRow
                            for column in 0..<columns {
                                var sum: UInt32 = 0, count: UInt32 = 0, x = column * cell
                                let end = x + cell
                                while x < end {
                                    let value = line[x]
                                    if value >= saturated { count &+= 1 } else { sum &+= UInt32(value) }
                                    x += step
                                }
                                sums[column] &+= sum
                                clipped[column] &+= count
                            }
                            y += step
                        }
                        for column in 0..<columns {
                            let unclipped = samples - clipped[column]
                            cells[row * columns + column] = Cell(mean: unclipped == 0 ? 255 : Float(sums[column]) / Float(unclipped),
                                                                 clipped: Float(clipped[column]) / Float(samples))
                        }
                    }
                }
            }
        }
    }

    /// Marks the cells whose change the frame's gain does not explain; returns how many.
    ///
    /// A cell's expected value is its clipped part at white plus its unclipped part's mean times
    /// the gain, clipped; with the gain below 1, a part clipped before may have been anything
    /// brighter, so it may now be anywhere from white times the gain up to white (see
    /// `expected`).
    private mutating func markChanges() -> Int {
        ratios.removeAll(keepingCapacity: true)
        for index in reference.indices where mask[index] {
            let before = reference[index], after = current[index]
            if before.clipped == 0, after.clipped == 0, before.mean >= Self.dark, after.mean >= 4 { ratios.append(after.mean / before.mean) }
        }
        gain = 1
        // The gain needs a tenth of the analysed cells to vote; fewer (a dark or clipped frame) keep 1.
        if ratios.count > 0, ratios.count * 10 >= analysedCells {
            ratios.sort()
            gain = ratios[ratios.count / 2]
        }
        let sensitivity = Float(settings.sensitivity)
        let floor = 4 + 16 * (1 - sensitivity), fraction = 0.05 + 0.15 * (1 - sensitivity)
        var count = 0
        for index in reference.indices {
            guard mask[index] else { changed[index] = false; continue }
            let (low, high) = expected(reference[index])
            let after = current[index].value
            let difference = after < low ? low - after : (after > high ? after - high : 0)
            let isChanged = difference > floor + fraction * max(high, after)
            changed[index] = isChanged
            if isChanged { count += 1 }
        }
        return count
    }

    /// The range a cell's value may take now if only the light changed by `gain`: from its
    /// value scaled by the gain to its value unchanged, since a colour channel clipped in the
    /// camera (a saturated red) does not follow the light, and pixels crossing into white within
    /// a cell stop at white.
    private func expected(_ cell: Cell) -> (low: Float, high: Float) {
        let unclipped = (1 - cell.clipped) * min(255, cell.mean * gain)
        let scaled = (low: unclipped + cell.clipped * min(255, 255 * gain), high: unclipped + cell.clipped * 255)
        return (min(scaled.low, cell.value), max(scaled.high, cell.value))
    }

    /// The 8-connected regions of changed cells at least the minimum area, largest first.
    private mutating func regions() -> [Region] {
        let (_, _, _, columns, rows) = geometry
        for index in visited.indices { visited[index] = false }
        let cellArea = 1 / Double(columns * rows)
        var found: [Region] = []
        for start in changed.indices where changed[start] && !visited[start] {
            stack.removeAll(keepingCapacity: true)
            stack.append(start)
            visited[start] = true
            var cells = 0, change: Float = 0
            var box = (minX: columns, minY: rows, maxX: -1, maxY: -1)
            while let index = stack.popLast() {
                let x = index % columns, y = index / columns
                cells += 1
                let (low, high) = expected(reference[index]), after = current[index].value
                change += after < low ? low - after : max(0, after - high)
                box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < columns, ny < rows else { continue }
                        let next = ny * columns + nx
                        if changed[next] && !visited[next] { visited[next] = true; stack.append(next) }
                    }
                }
            }
            let area = Double(cells) * cellArea
            guard area >= settings.minimumArea else { continue }
            let bounds = CGRect(x: Double(box.minX) / Double(columns), y: Double(box.minY) / Double(rows),
                                width: Double(box.maxX - box.minX + 1) / Double(columns), height: Double(box.maxY - box.minY + 1) / Double(rows))
            found.append(Region(bounds: bounds, area: area, score: min(1, Double(change) / Double(cells) / 255)))
        }
        return found.sorted { $0.area > $1.area }
    }
}
