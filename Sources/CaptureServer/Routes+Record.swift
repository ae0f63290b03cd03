import Hummingbird

extension ServerRoutes {
    /// `POST /api/record/start` (201 and the new file's name once its first frame is in it;
    /// 409 while recording) and `POST /api/record/stop` (the finished file's name, duration and
    /// size; 409 when not recording).
    func addRecording(to router: Router<ServerContext>) {
        router.post("/api/record/start") { request, _ -> Response in
            _ = try await JSONBody(request, keys: [])
            return try .json(try await camera.startRecording(), status: .created)
        }
        router.post("/api/record/stop") { request, _ -> Response in
            _ = try await JSONBody(request, keys: [])
            return try .json(try await camera.stopRecording())
        }
    }
}
