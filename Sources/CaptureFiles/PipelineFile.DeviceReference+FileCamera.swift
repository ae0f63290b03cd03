import Foundation

extension PipelineFile.DeviceReference {
    /// The prefix of a file camera's reference (`file:clip.mp4`).
    static let filePrefix = "file:"

    /// The reference with a `file:` device's path resolved in the folder of the pipeline file
    /// it is written in (`location.file`), which the path must stay inside: a relative path is
    /// read there, an absolute one as written, every symbolic link followed. Other references
    /// are returned as they are.
    /// - Throws: ``PipelineFileError/Kind/inputOutsideFolder(_:reason:folder:)`` at `location`
    ///   for a path that leads out of the folder, has `..` after a folder that does not exist,
    ///   or passes through a link to nothing.
    func resolvingFileCamera(at location: PipelineFile.SourceLocation) throws(PipelineFileError) -> Self {
        guard case .identifier(let reference) = self, reference.hasPrefix(Self.filePrefix) else { return self }
        let written = String(reference.dropFirst(Self.filePrefix.count))
        let folder = PipelineFolder(URL(fileURLWithPath: location.file).deletingLastPathComponent())
        switch folder.resolve(written) {
        case .success(let path):
            return .identifier(Self.filePrefix + path)
        case .failure(.outside(let resolved)):
            throw PipelineFileError(.inputOutsideFolder(written, reason: "resolves to '\(resolved)'", folder: folder.url.path), at: location)
        case .failure(.parentOfMissingFolder):
            throw PipelineFileError(.inputOutsideFolder(written, reason: "has '..' after a folder that does not exist", folder: folder.url.path),
                                    at: location)
        case .failure(.danglingLink(let link, let target)):
            throw PipelineFileError(.inputOutsideFolder(written, reason: "passes through '\(link)', a symbolic link to '\(target)', which does not exist",
                                                        folder: folder.url.path), at: location)
        }
    }
}
