import Yams

/// Decoding of an input's `controls` mapping.
extension PipelineFileDecoder {
    /// The keys allowed in `controls`.
    static let controlKeys = ["iso", "shutter", "lens", "focus", "zoom", "torch", "wb", "ev", "flash"]

    func decodeControls(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.ControlsSpec {
        let item = try mapping(entry.value, key: entry.key, context: "controls")
        try item.rejectUnknownKeys(allowed: Self.controlKeys)
        var spec = PipelineFile.ControlsSpec(location: item.location)
        if let iso = item["iso"] { spec.iso = Float(try positive(iso)) }
        if let shutter = item["shutter"] { spec.shutter = try duration(shutter) }
        if let lens = item["lens"] { spec.lens = Float(try number(lens)) }
        if let focus = item["focus"] { spec.focus = try choice(focus, of: PipelineFile.FocusModeName.self) }
        if let zoom = item["zoom"] { spec.zoom = try positive(zoom) }
        if let torch = item["torch"] { spec.torch = Float(try number(torch)) }
        if let wb = item["wb"] { spec.whiteBalance = try whiteBalance(wb) }
        if let ev = item["ev"] { spec.ev = Float(try number(ev)) }
        if let flash = item["flash"] { spec.flash = try choice(flash, of: PipelineFile.FlashModeName.self) }
        return spec
    }

    private func positive(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Double {
        let value = try number(entry)
        guard value > 0 else {
            throw PipelineFileError(.outOfRange(key: entry.key, value: "\(value)", valid: "greater than 0"), at: entry.valueLocation)
        }
        return value
    }

    /// "1/60" or a number of seconds.
    private func duration(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Double {
        let tag = yamlType(of: entry.value)
        if tag == .int || tag == .float { return try positive(entry) }
        let text = try string(entry)
        let parts = text.split(separator: "/")
        guard parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), numerator > 0, denominator > 0 else {
            throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: "1/60 or seconds, e.g. 0.02"), at: entry.valueLocation)
        }
        return numerator / denominator
    }

    /// `auto`, a temperature, or "TEMPERATURE:TINT".
    private func whiteBalance(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.WhiteBalanceSpec {
        let tag = yamlType(of: entry.value)
        if tag == .int || tag == .float { return .temperature(Float(try positive(entry)), tint: 0) }
        let text = try string(entry)
        if text == "auto" { return .auto }
        let parts = text.split(separator: ":").map { Float($0) }
        guard parts.count == 2, let temperature = parts[0], let tint = parts[1], temperature > 0 else {
            throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: "auto, KELVIN or KELVIN:TINT"), at: entry.valueLocation)
        }
        return .temperature(temperature, tint: tint)
    }
}
