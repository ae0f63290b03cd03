/// A declarative capture pipeline, decoded and validated from a YAML pipeline file.
///
/// A pipeline file names the capture inputs (devices), the outputs fed from them and how long
/// the session runs. Decode one with ``load(contentsOf:)`` or ``parse(_:fileName:)``; every value
/// in the result has been checked against schema version 1, and the values that a later runtime
/// step may still reject carry the ``SourceLocation`` they were read from.
///
/// ```yaml
/// version: 1
/// inputs:
///   - device: virtual
/// outputs:
///   - still: { format: jpeg }
/// run:
///   frames: 30
/// ```
public struct PipelineFile: Sendable, Equatable {
    /// The schema version the file declares. Only `1` is valid.
    public var version: Int
    /// The session preset, if the file sets one.
    public var preset: SessionPresetName?
    /// The capture inputs, in file order. Never empty; names are unique.
    public var inputs: [Input]
    /// The outputs, in file order. Never empty; names are unique.
    public var outputs: [Output]
    /// How long the session runs.
    public var run: RunLength
    /// Where the `preset` value is written, if the file sets one.
    public var presetLocation: SourceLocation?
    /// Where the `run` key is written.
    public var runLocation: SourceLocation

    /// Creates a pipeline description.
    /// - Parameters:
    ///   - version: The schema version.
    ///   - preset: The session preset, if any.
    ///   - inputs: The capture inputs.
    ///   - outputs: The outputs.
    ///   - run: How long the session runs.
    ///   - presetLocation: Where the preset is written, if anywhere.
    ///   - runLocation: Where the `run` key is written.
    public init(
        version: Int,
        preset: SessionPresetName?,
        inputs: [Input],
        outputs: [Output],
        run: RunLength,
        presetLocation: SourceLocation?,
        runLocation: SourceLocation
    ) {
        self.version = version
        self.preset = preset
        self.inputs = inputs
        self.outputs = outputs
        self.run = run
        self.presetLocation = presetLocation
        self.runLocation = runLocation
    }

    /// The schema versions this library can read.
    public static let supportedVersions: [Int] = [1]
}
