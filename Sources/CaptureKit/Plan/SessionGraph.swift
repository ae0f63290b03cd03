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

    /// An output's branch: the ports it takes media from, the output's own media type first
    /// (a movie takes video, then audio when the session has a microphone).
    struct Branch: Sendable {
        struct Port: Sendable {
            /// The index of the input in `inputs`.
            var input: Int
            var connection: CaptureConnection
        }

        var name: String
        var output: any OutputNode
        var ports: [Port]
        /// The key of the encoded stage the output takes its video from, set by the compiler
        /// for outputs that want encoded video.
        var stage: String? = nil

        /// The first port's input: the one of the output's own media type.
        var input: Int { ports[0].input }
        /// The first port's connection.
        var connection: CaptureConnection { ports[0].connection }
    }

    var inputs: [Input]
    var branches: [Branch]
    /// What the compiler was told about the machine, for the outputs' plans.
    var environment = PipelineCompiler.Environment()
}
