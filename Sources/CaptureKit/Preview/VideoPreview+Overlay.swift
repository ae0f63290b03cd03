import Foundation
import GStreamerSwift

extension VideoPreview {
    /// Outlines and labels drawn over the picture (nil, the default: none). Setting the first
    /// overlay, or nil, rebuilds a running preview's branch; changing one only redraws.
    public var overlay: PreviewOverlay? {
        get { state.withLock { $0.overlay } }
        set {
            let rebuild = state.withLock { state in
                defer { state.overlay = newValue }
                return (state.overlay == nil) != (newValue == nil)
            }
            if rebuild { owner.branchChanged() } else { showLabels() }
        }
    }

    /// Puts the overlay's labels on the branch's text elements (textoverlay locks its own
    /// properties; the streaming thread renders them on its next frame).
    func showLabels() {
        let (labels, shapes, origin) = state.withLock { ($0.labels, $0.overlay?.shapes ?? [], $0.bounds.origin) }
        let labelled = shapes.filter { $0.label != nil && !$0.points.isEmpty }
        for (index, element) in labels.enumerated() {
            guard index < labelled.count, let text = labelled[index].label else {
                try? element.set("silent", true)
                continue
            }
            let left = labelled[index].points.map(\.x).min() ?? 0, top = labelled[index].points.map(\.y).min() ?? 0
            try? element.set("text", .string(text))
            try? element.set("deltax", .int(Int(left - origin.x)))
            try? element.set("deltay", .int(max(0, Int(top - origin.y) - 22)))
            try? element.set("silent", false)
        }
    }

    /// Draws the overlay's outlines into a BGRx/BGRA frame the size of the view. Runs on the
    /// streaming thread: reads the overlay under the lock, writes pixels in place (the buffer is
    /// made writable first, so frames other outputs share stay as they were).
    func drawOverlay(_ buffer: inout ProbeBuffer, width: Int, height: Int) {
        let (shapes, origin) = state.withLock { ($0.overlay?.shapes ?? [], $0.bounds.origin) }
        guard !shapes.isEmpty, width > 0, height > 0 else { return }
        let stride = buffer.size / height
        guard stride >= width * 4 else { return }
        _ = try? buffer.withWritableBytes { pixels in
            var canvas = OverlayCanvas(pixels: pixels, width: width, height: height, stride: stride)
            for shape in shapes where shape.points.count > 1 {
                let points = shape.points
                for index in points.indices {
                    let from = points[index], to = points[(index + 1) % points.count]
                    canvas.line(from: CGPoint(x: from.x - origin.x, y: from.y - origin.y), to: CGPoint(x: to.x - origin.x, y: to.y - origin.y))
                }
            }
        }
    }
}

/// A BGRx frame's bytes, drawn on with 3-pixel green lines.
struct OverlayCanvas {
    let pixels: UnsafeMutableRawBufferPointer
    let width: Int, height: Int, stride: Int

    mutating func line(from start: CGPoint, to end: CGPoint) {
        let steps = max(1, Int(max(abs(end.x - start.x), abs(end.y - start.y)).rounded(.up)))
        for step in 0...steps {
            let t = CGFloat(step) / CGFloat(steps)
            let x = Int((start.x + (end.x - start.x) * t).rounded()), y = Int((start.y + (end.y - start.y) * t).rounded())
            for dy in -1...1 { for dx in -1...1 { plot(x + dx, y + dy) } }
        }
    }

    private func plot(_ x: Int, _ y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let offset = y * stride + x * 4
        pixels[offset] = 0        // B
        pixels[offset + 1] = 255  // G
        pixels[offset + 2] = 0    // R
        pixels[offset + 3] = 255
    }
}
