import Foundation

extension PipelinePlan {
    /// The `gst-launch-1.0` arguments for this plan, quoted for a POSIX shell: paste it after
    /// `gst-launch-1.0 ` and it runs.
    public var launchDescription: String {
        var parts: [String] = []
        let elements = self.elements
        let links = self.links
        var rendered = Set<Int>()
        for (index, element) in elements.enumerated() {
            if index > 0, let linkIndex = links.firstIndex(where: { Self.elementName($0.to) == element.name }) {
                let link = links[linkIndex]
                rendered.insert(linkIndex)
                let upstream = Self.elementName(link.from)
                if upstream == elements[index - 1].name, !link.from.contains("."), !link.to.contains(".") {
                    parts.append("!")
                } else {
                    parts.append("\(link.from.contains(".") ? link.from : upstream + ".") !")
                }
            }
            var words = [element.factory, "name=\(element.name)"]
            words += element.properties.map { "\($0.name)=\(Self.shellQuoted($0.value.description))" }
            parts.append(words.joined(separator: " "))
        }
        // Second links into an element (a muxer's audio after its video) by name at the end.
        for (index, link) in links.enumerated() where !rendered.contains(index) {
            parts.append("\(link.from.contains(".") ? link.from : Self.elementName(link.from) + ".") ! \(link.to.contains(".") ? link.to : link.to + ".")")
        }
        return parts.joined(separator: " ")
    }

    /// The element part of a link end (`mux` of `mux.video_%u`).
    static func elementName(_ end: String) -> String {
        end.split(separator: ".", maxSplits: 1).first.map(String.init) ?? end
    }

    /// Quotes a property value for the shell when it holds characters the shell would take.
    static func shellQuoted(_ value: String) -> String {
        let plain = value.allSatisfy { $0.isLetter || $0.isNumber || "_-./:,=+@%".contains($0) }
        if plain && !value.isEmpty { return value }
        return "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
