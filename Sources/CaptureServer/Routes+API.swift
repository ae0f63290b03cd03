import CaptureKit
import Foundation
import Hummingbird

extension ServerRoutes {
    /// A camera as `GET /api/devices` lists it.
    struct DeviceInfo: Encodable, Sendable {
        struct Format: Encodable, Sendable {
            var width: Int
            var height: Int
            var pixelFormat: String
            /// [min, max] frames per second, one pair per range.
            var frameRates: [[Double]]
        }

        var uniqueID: String
        var localizedName: String
        var position: String
        var formats: [Format]

        init(_ device: CaptureDevice) {
            uniqueID = device.uniqueID
            localizedName = device.localizedName
            position = "\(device.position)"
            formats = device.formats.map { format in
                Format(width: format.width, height: format.height, pixelFormat: format.pixelFormat.rawValue,
                       frameRates: format.videoSupportedFrameRateRanges.map { [$0.minFrameRate, $0.maxFrameRate] })
            }
        }
    }

    /// `GET /api/state`.
    struct StateReport: Encodable, Sendable {
        struct Device: Encodable, Sendable {
            var uniqueID: String
            var localizedName: String
            var position: String
        }

        var device: Device
        var running: Bool
        var controls: ControlReport
        var recording: ServerCamera.RecordingStatus
        /// WebRTC viewers connected now.
        var viewers: Int
        /// `/ws/metadata` subscribers now.
        var metadataSubscribers: Int
    }

    func state() throws -> StateReport {
        let device = camera.device
        return StateReport(device: .init(uniqueID: device.uniqueID, localizedName: device.localizedName, position: "\(device.position)"),
                           running: camera.session.isRunning, controls: try device.controlReport(),
                           recording: camera.recordingStatus, viewers: camera.stream.statistics.clients,
                           metadataSubscribers: camera.metadata.count)
    }

    /// `GET /api/devices`, `GET /api/state`, `POST /api/device`, `POST /api/controls`.
    func addAPI(to router: Router<ServerContext>) {
        router.get("/api/devices") { _, _ -> Response in
            try .json(camera.cameras().map(DeviceInfo.init))
        }
        router.get("/api/state") { _, _ -> Response in
            try .json(try state())
        }
        router.post("/api/device") { request, _ -> Response in
            let body = try await JSONBody(request, keys: ["uniqueID"])
            let ids = camera.cameras().map(\.uniqueID)
            guard let uniqueID = try body.string("uniqueID", valid: ids.joined(separator: ", ")) else {
                throw APIError.badRequest("missingKey", "the body has no \"uniqueID\"; valid: \(ids.joined(separator: ", "))")
            }
            guard ids.contains(uniqueID) else {
                throw APIError(.notFound, code: "deviceNotFound", message: "no camera \"\(uniqueID)\"; valid: \(ids.joined(separator: ", "))")
            }
            _ = try await camera.switchDevice(to: uniqueID)
            return try .json(try state())
        }
        router.post("/api/controls") { request, _ -> Response in
            let body = try await JSONBody(request, keys: ServerCamera.controlKeys)
            return try .json(try await camera.apply(body))
        }
    }
}
