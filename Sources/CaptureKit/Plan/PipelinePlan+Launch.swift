import Foundation

extension PipelinePlan {
    /// The `gst-launch-1.0` arguments for this plan, quoted for a POSIX shell: paste it after
    /// `gst-launch-1.0 ` and it runs.
    public var launchDescription: String {
        var parts: [String] = []
        for (index, element) in elements.enumerated() {
            let upstream = links.first { $0.to == element.name }?.from
            if index > 0 {
                if let upstream, upstream == elements[index - 1].name {
                    parts.append("!")
                } else if let upstream {
                    parts.append("\(upstream). !")
                }
            }
            var words = [element.factory, "name=\(element.name)"]
            words += element.properties.map { "\($0.name)=\(Self.shellQuoted($0.value))" }
            parts.append(words.joined(separator: " "))
        }
        return parts.joined(separator: " ")
    }

    /// Quotes a property value for the shell when it holds characters the shell would take.
    static func shellQuoted(_ value: String) -> String {
        let plain = value.allSatisfy { $0.isLetter || $0.isNumber || "_-./:,=+@%".contains($0) }
        if plain && !value.isEmpty { return value }
        return "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
