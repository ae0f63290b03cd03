import Foundation

/// A live HLS playlist: `playlist.m3u8` and segments `segmentNNNNN.ts` in a directory, a
/// rolling window of the newest segments (older ones are deleted).
public struct HLSTarget: Sendable, Hashable {
    /// Where the playlist and segments go (made when missing).
    public var directory: URL
    /// Seconds per segment; segments start on key frames (default 2).
    public var segmentDuration: Int
    /// Segments listed in the playlist (default 5); twice as many are kept on disk, and the one
    /// being written.
    public var playlistLength: Int

    public init(directory: URL, segmentDuration: Int = 2, playlistLength: Int = 5) {
        self.directory = directory
        self.segmentDuration = segmentDuration
        self.playlistLength = playlistLength
    }

    /// The playlist's file.
    public var playlistURL: URL { directory.appendingPathComponent("playlist.m3u8") }
}
