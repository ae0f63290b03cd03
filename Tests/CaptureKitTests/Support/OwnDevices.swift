import Testing
@testable import CaptureKit

/// The context a test's virtual devices come from: its own, under the `.ownDevices` trait, so
/// tests running side by side never share a virtual camera's controls, faults or format.
enum TestContext {
    @TaskLocal static var current = CaptureContext.shared
}

/// Gives each test of the suite (or the one test) a `CaptureContext` of its own, with its own
/// virtual cameras and microphone, as `TestContext.current`: what `TestSession` and
/// `CaptureDevice.find(virtual:)` use.
struct OwnDevices: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        try await TestContext.$current.withValue(CaptureContext()) { try await function() }
    }
}

extension Trait where Self == OwnDevices {
    /// Each test gets its own virtual devices (`TestContext.current`).
    static var ownDevices: OwnDevices { OwnDevices() }
}
