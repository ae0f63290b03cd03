extension CaptureDevice {
    /// Per-channel white-balance gains (AVCaptureDevice.WhiteBalanceGains).
    ///
    /// A gain multiplies the device's native, linear R, G or B value. Gains for a device are
    /// normalised the way AVFoundation's are: the smallest is 1.0 and none is below it. The
    /// virtual camera's native RGB is linear sRGB (BT.709 primaries, D65 white), so the gains
    /// that neutralise D65 are (1, 1, 1). `WhiteBalanceMath` converts to and from chromaticity.
    public struct WhiteBalanceGains: Sendable, Hashable, CustomStringConvertible {
        /// The gain on the red channel.
        public var redGain: Float
        /// The gain on the green channel.
        public var greenGain: Float
        /// The gain on the blue channel.
        public var blueGain: Float

        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            self.redGain = redGain
            self.greenGain = greenGain
            self.blueGain = blueGain
        }

        public var description: String { "WhiteBalanceGains(r: \(redGain), g: \(greenGain), b: \(blueGain))" }
    }

    /// The chromaticity of an illuminant as CIE 1931 xy coordinates
    /// (AVCaptureDevice.WhiteBalanceChromaticityValues). D65 is (0.3127, 0.3290).
    public struct WhiteBalanceChromaticityValues: Sendable, Hashable, CustomStringConvertible {
        /// CIE 1931 x.
        public var x: Float
        /// CIE 1931 y.
        public var y: Float

        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }

        public var description: String { "WhiteBalanceChromaticityValues(x: \(x), y: \(y))" }
    }

    /// An illuminant as a correlated colour temperature and a tint
    /// (AVCaptureDevice.WhiteBalanceTemperatureAndTintValues).
    ///
    /// - `temperature`: the correlated colour temperature in kelvin: the temperature of the
    ///   closest point of the Planckian (black-body) locus in the CIE 1960 uv plane, the
    ///   definition of CIE 15.
    /// - `tint`: the signed distance from that point, perpendicular to the locus in the CIE 1960
    ///   uv plane (the CIE's Δuv), times 3000: the scale and sign of the Adobe DNG SDK
    ///   (dng_temperature), which AVFoundation's −150…150 range follows. **Positive tint is
    ///   green** (the illuminant lies above the locus, towards the green spectral colours);
    ///   negative is magenta (below it, towards the purple line). ±150 is Δuv = ±0.05, the limit
    ///   within which CIE 15 considers a correlated colour temperature meaningful. D65, slightly
    ///   above the locus (Δuv ≈ +0.0032), is about 6504 K and tint +9.6.
    public struct WhiteBalanceTemperatureAndTintValues: Sendable, Hashable, CustomStringConvertible {
        /// The correlated colour temperature, in kelvin.
        public var temperature: Float
        /// The offset from the Planckian locus: 3000 × Δuv, positive towards green.
        public var tint: Float

        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }

        public var description: String {
            "WhiteBalanceTemperatureAndTintValues(temperature: \(temperature), tint: \(tint))"
        }
    }
}
