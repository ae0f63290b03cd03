import CaptureKit
import Foundation
import Hummingbird

extension ServerRoutes {
    /// HLS VOD of the continuous recording (with `--segment`), for players that take HLS:
    /// - `GET /api/hls.m3u8?from=…&to=…`: a VOD playlist (fMP4, version 7) of the whole
    ///   segments overlapping the range, of one recording (the one at `from`); the first
    ///   segment's header is the initialisation section;
    /// - `GET /api/hls/init.mp4?file=F` and `GET /api/hls/segment.m4s?file=F`: a listed
    ///   segment's header and its fragments (404 for a file the index does not list in the
    ///   folder).
    ///
    /// A `token` in the playlist's query is carried into its URIs.
    func addHLS(to router: Router<ServerContext>) {
        let camera = camera
        router.get("/api/hls.m3u8") { request, _ -> Response in
            let (archive, from, to) = try Self.range(request, camera: camera)
            let all = archive.segments(from: from, to: to)
            guard let first = all.first else {
                throw APIError.badRequest("outOfRange", "no segment between \(SegmentArchive.timestamp(from)) and \(SegmentArchive.timestamp(to)); valid: a range /api/recordings lists")
            }
            let segments = all.filter { $0.recording == first.recording }
            let token = Self.query(request)["token"].map { "&token=" + (Self.queryEscaped($0)) } ?? ""
            var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
                         "#EXT-X-TARGETDURATION:\(Int((segments.map(\.duration).max() ?? 1).rounded(.up)))",
                         "#EXT-X-PROGRAM-DATE-TIME:\(SegmentArchive.timestamp(first.start))",
                         "#EXT-X-MAP:URI=\"/api/hls/init.mp4?file=\(Self.queryEscaped(first.file))\(token)\""]
            for segment in segments {
                lines.append("#EXTINF:\(String(format: "%.3f", segment.duration)),")
                lines.append("/api/hls/segment.m4s?file=\(Self.queryEscaped(segment.file))\(token)")
            }
            lines.append("#EXT-X-ENDLIST")
            return Response(status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
                            body: .init(byteBuffer: ByteBuffer(string: lines.joined(separator: "\n") + "\n")))
        }
        for (path, part, type) in [("/api/hls/init.mp4", true, "video/mp4"), ("/api/hls/segment.m4s", false, "video/iso.segment")] {
            router.get(RouterPath(path)) { request, _ -> Response in
                guard camera.continuous != nil else { throw Self.noContinuousRecording }
                let archive = SegmentArchive(folder: camera.continuousFolder)
                guard let file = Self.query(request)["file"], let segment = archive.segment(named: file) else { throw APIError.notFound(path) }
                let parts: (header: Data, fragments: Data)
                do throws(CaptureError) { parts = try archive.parts(of: segment) } catch { throw APIError(error) }
                return Response(status: .ok, headers: [.contentType: type],
                                body: .init(byteBuffer: ByteBuffer(bytes: part ? parts.header : parts.fragments)))
            }
        }
    }

    /// `text` escaped for a query value.
    static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
