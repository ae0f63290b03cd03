import CaptureKit
import Foundation

/// `GET /snapshot.jpg`'s stills: the camera's next frame as a JPEG with EXIF, one still for
/// every request that arrives while it is being made. Ten programs polling the URL (Home
/// Assistant, OctoPrint) at once cost one still, not ten, and no one waits behind another's.
///
/// Threading: an actor; the still is made on a task of its own, which requests only await.
actor Snapshots {
    private let camera: ServerCamera
    private var current: Task<Result<Data, CaptureError>, Never>?
    /// Stills made, for tests and the benchmark.
    private(set) var made = 0

    init(camera: ServerCamera) {
        self.camera = camera
    }

    /// The still being made, or a new one.
    func next() async throws(CaptureError) -> Data {
        if let current { return try await current.value.get() }
        let camera = camera
        let task = Task { () -> Result<Data, CaptureError> in
            do throws(CaptureError) { return .success(try await camera.snap()) } catch { return .failure(error) }
        }
        current = task
        made += 1
        let result = await task.value
        current = nil
        return try result.get()
    }
}
