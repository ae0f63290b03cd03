/// A width and height in pixels (CoreMedia's CMVideoDimensions).
public struct CMVideoDimensions: Sendable {
    public var width: Int32
    public var height: Int32

    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    public init() { self.init(width: 0, height: 0) }
}
