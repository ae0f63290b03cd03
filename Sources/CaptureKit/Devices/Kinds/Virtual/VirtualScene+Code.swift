
extension VirtualScene {
    /// A code the virtual scene shows: a symbol (the defaults' stored in
    /// `VirtualScene+DefaultCodes.swift`, others encoded by the linked detectors' writer), drawn
    /// black on a white label at a place given in fractions of the frame.
    ///
    /// The label is the whole frame for linear codes and PDF417, the largest square at the
    /// frame's top left for QR, Aztec and Data Matrix codes. The symbol is centred on it at the
    /// largest whole number of pixels per module that leaves a quiet zone (linear codes: 11
    /// modules a side, bars over the middle 80% of the label's height; matrix codes 4 modules,
    /// PDF417 2).
    struct Code: Sendable, Hashable {
        let symbol: MetadataDetection.Symbol
        /// Fractions of the frame's width and height.
        let x: Double, y: Double, width: Double, height: Double

        init(_ symbol: MetadataDetection.Symbol, x: Double, y: Double, width: Double, height: Double) {
            self.symbol = symbol
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// `text` encoded as `type` by the linked detectors' writer; throws `invalidSetting` in a
        /// process without them, or for text the type cannot carry.
        init(_ type: MetadataObjectType, _ text: String, x: Double, y: Double, width: Double, height: Double) throws(CaptureError) {
            guard let engine = MetadataDetection.linked else { throw MetadataDetection.notLinked(type) }
            self.init(try engine.encode(text, as: type), x: x, y: y, width: width, height: height)
        }

        /// The default scene's codes: a QR code on the left, an EAN-13 top right.
        static let defaults: [Code] = [
            Code(VirtualScene.qrSymbol, x: 0.05, y: 0.08, width: 0.5, height: 0.5),
            Code(VirtualScene.ean13Symbol, x: 0.5, y: 0.08, width: 0.45, height: 0.25),
        ]

        /// Matrix codes drawn on a square label.
        private var isSquare: Bool { [.qr, .aztec, .dataMatrix].contains(symbol.type) }
        /// Codes of one row of bars.
        private var isLinear: Bool { ![.pdf417, .qr, .aztec, .dataMatrix].contains(symbol.type) }

        /// The white label in pixels of a `width` x `height` frame.
        func label(width frameWidth: Int, height frameHeight: Int) -> (x: Range<Int>, y: Range<Int>) {
            let x0 = Int(Double(frameWidth) * x), y0 = Int(Double(frameHeight) * y)
            var columns = Int(Double(frameWidth) * width), rows = Int(Double(frameHeight) * height)
            if isSquare {
                columns = min(columns, rows)
                rows = columns
            }
            return (x0..<(x0 + columns), y0..<(y0 + rows))
        }

        /// Draws the label and the symbol.
        func draw(on canvas: inout Canvas) {
            let label = label(width: canvas.width, height: canvas.height)
            canvas.fill(x: label.x, y: label.y, b: 255, g: 255, r: 255)
            if isLinear {
                let scale = max(1, label.x.count / (symbol.width + 22))
                let left = label.x.lowerBound + (label.x.count - scale * symbol.width) / 2
                let bars = (label.y.lowerBound + label.y.count / 10)..<(label.y.upperBound - label.y.count / 10)
                for column in 0..<symbol.width where symbol[x: column, y: 0] {
                    canvas.fill(x: (left + column * scale)..<(left + (column + 1) * scale), y: bars, b: 0, g: 0, r: 0)
                }
                return
            }
            let quiet = symbol.type == .pdf417 ? 2 : 4
            let scale = max(1, min(label.x.count / (symbol.width + 2 * quiet), label.y.count / (symbol.height + 2 * quiet)))
            let left = label.x.lowerBound + (label.x.count - scale * symbol.width) / 2
            let top = label.y.lowerBound + (label.y.count - scale * symbol.height) / 2
            for row in 0..<symbol.height {
                for column in 0..<symbol.width where symbol[x: column, y: row] {
                    canvas.fill(x: (left + column * scale)..<(left + (column + 1) * scale), y: (top + row * scale)..<(top + (row + 1) * scale),
                                b: 0, g: 0, r: 0)
                }
            }
        }
    }
}
