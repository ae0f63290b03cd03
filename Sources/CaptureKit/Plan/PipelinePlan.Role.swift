extension PipelinePlan {
    /// Which element of its part (an input's source, an output's branch, an encoded stage) a
    /// planned element is. The builder that plans an element gives it a role, and the code that
    /// attaches to the running element finds it by the same role, so the two cannot disagree
    /// on a spelling: a mistyped role does not compile. The element's name is the part's key and
    /// the role's suffix (`output1_sink`), as `pipelineDescription` shows it.
    @_spi(Plan) public struct Role: Hashable, Sendable {
        /// What follows the part's key and `_` in the element's name.
        public let suffix: String

        init(_ suffix: String) { self.suffix = suffix }

        /// The name of the element with this role in the part keyed `part`.
        public func name(in part: String) -> String { "\(part)_\(suffix)" }

        // Sources: the bin holding one, the device's element, and the conversions and filters
        // behind it.
        static let bin = Role("bin")
        static let src = Role("src")
        static let caps = Role("caps")
        static let crop = Role("crop")
        static let zoom = Role("zoom")
        static let zoomcaps = Role("zoomcaps")
        static let raw = Role("raw")
        static let decode = Role("decode")
        static let freeze = Role("freeze")
        static let clock = Role("clock")
        static let fileconvert = Role("fileconvert")
        static let filerate = Role("filerate")
        static let filescale = Role("filescale")
        static let lccaps = Role("lccaps")
        static let lcconvert = Role("lcconvert")
        static let lcqueue = Role("lcqueue")
        static let lcscale = Role("lcscale")
        static let pwconvert = Role("pwconvert")
        static let pwscale = Role("pwscale")
        static let tee = Role("tee")

        // Branches and stages: video.
        static let queue = Role("queue")
        static let vqueue = Role("vqueue")
        static let convert = Role("convert")
        static let scale = Role("scale")
        static let flip = Role("flip")
        static let format = Role("format")
        static let jpegconvert = Role("jpegconvert")
        static let jpeg = Role("jpeg")
        static let encode = Role("encode")
        static let enc = Role("enc")
        static let overlay = Role("overlay")
        static let h264 = Role("h264")
        static let parse = Role("parse")
        static let pay = Role("pay")
        static let webrtc = Role("webrtc")
        static let drain = Role("drain")
        static let mux = Role("mux")
        static let sink = Role("sink")
        /// A preview's text overlays, one per label it can show.
        static func label(_ index: Int) -> Role { Role("label\(index)") }

        // Branches and stages: audio.
        static let aqueue = Role("aqueue")
        static let aconvert = Role("aconvert")
        static let aresample = Role("aresample")
        static let resample = Role("resample")
        static let acaps = Role("acaps")
        static let aenc = Role("aenc")
        static let apay = Role("apay")
        static let aparse = Role("aparse")
        static let atee = Role("atee")
    }
}

extension PipelinePlan.Element {
    /// The element with `role` in the part keyed `part`, made from `factory`.
    init(_ factory: String, _ role: PipelinePlan.Role, in part: String, _ properties: [PipelinePlan.Property] = []) {
        self.init(factory, name: role.name(in: part), properties)
    }
}
