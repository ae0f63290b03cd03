import Testing
@testable import CaptureKit

/// The context a test's virtual devices come from: its own, under the `.ownDevices` trait, so
/// tests running side by side never share a virtual camera's controls, faults or format.
enum TestContext {
    @TaskLocal private static var scoped: CaptureContext?

    /// The test's own context. A test outside the trait's scope (a suite without `.ownDevices`,
    /// or code on a thread the test did not start as a task) is a fault in the test: it is
    /// recorded, and gets a context of its own rather than the shared one the ports use.
    static var current: CaptureContext {
        if let scoped { return scoped }
        Issue.record("TestContext.current outside the .ownDevices trait: give the suite the trait, or read the context before leaving the test's task")
        return CaptureContext()
    }

    static func withOwnDevices(_ body: () async throws -> Void) async rethrows {
        try await $scoped.withValue(CaptureContext(), operation: body)
    }
}

/// Gives each test of the suite (or the one test) a `CaptureContext` of its own, with its own
/// virtual cameras and microphone, as `TestContext.current`: what `TestSession` and
/// `CaptureDevice.find(virtual:)` use.
struct OwnDevices: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        try await TestContext.withOwnDevices(function)
    }
}

extension Trait where Self == OwnDevices {
    /// Each test gets its own virtual devices (`TestContext.current`).
    static var ownDevices: OwnDevices { OwnDevices() }
}
