@testable import CaptureFiles

/// A pipeline file with a camera, a microphone and one output, for tests of one output kind's
/// keys and errors.
enum OneOutputFile {
    /// The file's text: one output of `kind` with `settings` (lines indented under the kind's
    /// key, which is on line 8, so the first setting is on line 9, column 7).
    static func yaml(_ kind: String, _ settings: String) -> String {
        """
        version: 1
        inputs:
          - name: camera
            device: virtual
          - name: mic
            device: virtual-mic
        outputs:
          - \(kind):
        \(settings.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
        run:
          seconds: 2
        """
    }

    /// The error parsing the file as `fileName` gives, as printed, or "no error".
    static func error(_ kind: String, _ settings: String, fileName: String) -> String {
        do {
            _ = try PipelineFile.parse(yaml(kind, settings), fileName: fileName)
            return "no error"
        } catch {
            return error.description
        }
    }
}
