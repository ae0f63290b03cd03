import ArgumentParser
import CaptureFiles

/// `--max-size 50M`.
extension ByteCount: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}
