import CaptureKit
import Foundation
import Hummingbird
import HummingbirdWebSocket
import HTTPTypes

extension ServerRoutes {
    /// The continuous recording by time (with `--segment`):
    /// - `GET /api/recordings?from=…&to=…`: its segments and events in the range (ISO 8601 times
    ///   or seconds since 1970; the whole folder without them), and the folder's first and last
    ///   times;
    /// - `GET /api/thumbnail.jpg?at=…&width=320`: a JPEG of the key frame at or before `at`;
    /// - `GET /api/export?from=…&to=…`: one movie (MP4, or as the segments are) of the range from the segments' own fragments,
    ///   cut at the key frame at or before `from`; `X-Capture-Start` and `X-Capture-End` say the
    ///   true start and end;
    /// - `POST /api/events` `{"kind": "doorbell"}`: marks an event now (the recording's pre- and
    ///   post-roll around it), answering the event;
    /// - `GET /ws/events`: a WebSocket of each event's start and end.
    ///
    /// Without a continuous recording the first three are 409.
    func addTimeline(to router: Router<ServerContext>) {
        let camera = camera
        router.get("/api/recordings") { request, _ -> Response in
            let (archive, from, to) = try Self.range(request, camera: camera)
            // The index read twice in all: its segments (the range's, and the first and last
            // times), and its events.
            let all = archive.segments(from: .distantPast, to: .distantFuture)
            let segments = all.filter { $0.start < to && $0.end > from }.map { segment in
                SegmentJSON(file: segment.file, start: SegmentArchive.timestamp(segment.start),
                            end: SegmentArchive.timestamp(segment.end), duration: segment.duration, frames: segment.frames, bytes: segment.bytes)
            }
            return try .json(TimelineJSON(first: all.first.map { SegmentArchive.timestamp($0.start) }, last: all.map(\.end).max().map(SegmentArchive.timestamp),
                                          segments: segments, events: archive.events(from: from, to: to).map(EventJSON.init)))
        }
        router.get("/api/thumbnail.jpg") { request, _ -> Response in
            let (archive, _, _) = try Self.range(request, camera: camera)
            let query = Self.query(request)
            guard let text = query["at"], let at = SegmentArchive.date(fromTimestamp: text) ?? Double(text).map(Date.init(timeIntervalSince1970:)) else {
                throw APIError.badRequest("badRequest", "at '\(query["at"]?.prefix(80) ?? "")' is not a time: ISO 8601 (2026-11-29T10:00:00Z) or seconds since 1970")
            }
            let width = query["width"].map { Int($0) ?? 0 } ?? 320
            let jpeg: Data
            do throws(CaptureError) { jpeg = try archive.thumbnail(at: at, maxWidth: width) } catch { throw APIError(error) }
            // A recorded frame never changes.
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=86400, immutable"],
                            body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        router.get("/api/export") { request, _ -> Response in
            let (archive, from, to) = try Self.range(request, camera: camera)
            let export: SegmentArchive.Export
            do throws(CaptureError) { export = try archive.export(from: from, to: to) } catch { throw APIError(error) }
            // A fragment at a time: a range of hours is never held whole.
            let body = ResponseBody(contentLength: export.byteCount) { writer in
                try await writer.write(ByteBuffer(bytes: export.header))
                for piece in export.pieces {
                    try await writer.write(ByteBuffer(bytes: try export.bytes(of: piece)))
                }
                try await writer.finish(nil)
            }
            let start = SegmentArchive.timestamp(export.start)
            return Response(status: .ok, headers: [
                .contentType: Self.mediaType(export.fileType),
                .contentDisposition: "attachment; filename=\"\(start.replacingOccurrences(of: ":", with: "-")).\(export.fileType)\"",
                HTTPField.Name("X-Capture-Start")!: start, HTTPField.Name("X-Capture-End")!: SegmentArchive.timestamp(export.end),
            ], body: body)
        }
        router.post("/api/events") { request, _ -> Response in
            let body = try await JSONBody(request, keys: ["kind"])
            let kind = try body.string("kind", valid: "a word naming the event, e.g. \"doorbell\"") ?? "api"
            guard !kind.isEmpty, kind.count <= 64, kind.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw APIError.badRequest("outOfRange", "kind '\(kind.prefix(80))' is not a word: 1 to 64 letters, digits, - or _")
            }
            guard let continuous = camera.continuous else { throw Self.noContinuousRecording }
            guard let event = continuous.triggerEvent(kind) else {
                throw APIError.conflict("notRecording", "the continuous recording has no frame yet; try again in a moment")
            }
            return try .json(EventJSON(event, phase: "triggered"), status: .created)
        }
        let feed = camera.events
        router.ws("/ws/events") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let (id, texts) = feed.subscribe()
            defer { feed.unsubscribe(id) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for try await _ in inbound.messages(maxSize: 64 * 1024) {} }
                group.addTask { for await text in texts { try await outbound.write(.text(text)) } }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    static let noContinuousRecording = APIError.conflict("noContinuousRecording", "the server records continuously only when started with --segment SECONDS")

    /// The continuous recording's folder and the request's `from` and `to` (whole when absent).
    static func range(_ request: Request, camera: ServerCamera) throws -> (SegmentArchive, Date, Date) {
        guard camera.continuous != nil else { throw noContinuousRecording }
        let query = Self.query(request)
        func date(_ name: String, default fallback: Date) throws -> Date {
            guard let text = query[name] else { return fallback }
            if let seconds = Double(text), seconds.isFinite { return Date(timeIntervalSince1970: seconds) }
            if let date = SegmentArchive.date(fromTimestamp: text) { return date }
            throw APIError.badRequest("badRequest", "\(name) '\(text.prefix(80))' is not a time: ISO 8601 (2026-11-29T10:00:00Z, with or without milliseconds) or seconds since 1970")
        }
        let from = try date("from", default: .distantPast), to = try date("to", default: .distantFuture)
        guard from < to else { throw APIError.badRequest("badRequest", "from (\(query["from"] ?? "-")) is not before to (\(query["to"] ?? "-"))") }
        return (SegmentArchive(folder: camera.continuousFolder), from, to)
    }
}

/// `GET /api/recordings`'s answer: the whole folder's first and last times (null when empty),
/// and the range's segments and events.
struct TimelineJSON: Encodable {
    let first: String?
    let last: String?
    let segments: [SegmentJSON]
    let events: [EventJSON]
}

/// A segment as `GET /api/recordings` lists it: its file relative to the continuous folder,
/// wall-clock start and end (ISO 8601, UTC).
struct SegmentJSON: Encodable {
    let file: String
    let start: String
    let end: String
    let duration: Double
    let frames: Int
    let bytes: Int64
}
