import Yams

/// Mapping of Yams' parse errors to located pipeline file errors.
extension PipelineFileError {
    /// Creates an error from an error thrown by `Yams.compose(yaml:)`, keeping its position.
    /// - Parameters:
    ///   - yamlError: The error Yams threw.
    ///   - yaml: The text that was parsed.
    ///   - fileName: The file name for the location.
    init(yamlError: any Error, yaml: String, fileName: String) {
        func at(_ line: Int, _ column: Int) -> PipelineFile.SourceLocation {
            PipelineFile.SourceLocation(file: fileName, line: line, column: column)
        }
        guard let error = yamlError as? YamlError else {
            self.init(.syntax(problem: String(describing: yamlError)), at: at(1, 1))
            return
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            self.init(.syntax(problem: Self.describe(problem, context)), at: at(mark.line, mark.column))
        case .reader(let problem, let offset, _, _):
            let (line, column) = offset.map { Self.lineAndColumn(ofCharacterOffset: $0, in: yaml) } ?? (1, 1)
            self.init(.syntax(problem: problem), at: at(line, column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let line = Self.lineRepeatingKey(key, after: context.mark, in: yaml) ?? context.mark.line
            self.init(.duplicateKey(key), at: at(line, context.mark.column))
        default:
            self.init(.syntax(problem: error.description), at: at(1, 1))
        }
    }

    /// A parser problem with its context, e.g. `could not find expected ':' (while scanning a
    /// simple key at line 3, column 3)`.
    private static func describe(_ problem: String, _ context: YamlError.Context?) -> String {
        guard let context, !context.text.isEmpty else { return problem }
        return "\(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
    }

    /// The 1-based line and column (in Unicode scalars) of a character offset.
    static func lineAndColumn(ofCharacterOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }

    /// The line where a block-mapping key is repeated after its first occurrence at `first`, if
    /// it can be found: the next line, within the same mapping, that has the key at the same column.
    ///
    /// Yams reports a duplicated key at its first occurrence; pointing at the repetition is more
    /// useful. Flow mappings and other layouts fall back to the first occurrence.
    static func lineRepeatingKey(_ key: String, after first: Mark, in yaml: String) -> Int? {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = first.column - 1
        guard first.line >= 1, first.line < lines.count else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"]
        for lineIndex in first.line..<lines.count {
            let scalars = Array(lines[lineIndex].unicodeScalars)
            guard let firstNonSpace = scalars.firstIndex(where: { $0 != " " }),
                  scalars[firstNonSpace] != "#", scalars[firstNonSpace] != "\r"
            else {
                continue
            }
            if firstNonSpace < indent {
                return nil
            }
            guard firstNonSpace == indent else { continue }
            let rest = String(String.UnicodeScalarView(scalars[indent...]))
            for spelling in spellings where rest.hasPrefix(spelling) {
                let after = rest.dropFirst(spelling.count).drop { $0 == " " }
                if after.first == ":" {
                    return lineIndex + 1
                }
            }
        }
        return nil
    }
}
