/// A snapshot of a session's inputs, outputs and connections: what the compiler reads.
struct SessionGraph: Sendable {
    struct Input: Sendable {
        var name: String
        var device: CaptureDevice
        /// What the input's port delivers: a camera's video or a microphone's audio.
        var mediaType: MediaType
        var format: CaptureDevice.Format
        var frameRate: Double
    }

    struct Branch: Sendable {
        var name: String
        var input: Int
        var output: any OutputNode
        var connection: CaptureConnection
    }

    var inputs: [Input]
    var branches: [Branch]
}
