import Dispatch
import Synchronization
import Testing
@testable import CaptureKit

/// The session executor without GStreamer: a request that waits for events holds the requests
/// behind it, never the events, and its caller waits on its own thread.
@Suite("Session executor", .ownDevices)
struct SessionExecutorTests {
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("a held request lets events run and keeps later requests waiting until an event ends it; its caller gets the result then")
    func holdAndRelease() async throws {
        let executor = SessionExecutor(label: "test.executor")
        let log = Log()
        let later = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            executor.submit {
                log.add("later request")
                later.signal()
            }
        }
        let result = try executor.run(whenNested: 0) { (transition: Transition<Int, CaptureError>) in
            log.add("request")
            executor.post(at: .now() + .milliseconds(150)) {
                log.add("event")
                transition.finish(.success(42))
            }
        }
        #expect(result == 42)
        #expect(later.wait(timeout: .now() + 2) == .success)
        #expect(log.all == ["request", "event", "later request"], "\(log.all)")
        #expect(executor.longestStep < 100_000_000, "no step waited for the event: \(executor.longestStep) ns")
    }

    @Test("a failure settled before the end reaches a nested caller at once, and the blocking caller after the end")
    func nestedAndFailure() async throws {
        let executor = SessionExecutor(label: "test.executor")
        let error = CaptureError.pipelineFailed(element: "x", message: "no")
        #expect(throws: error) {
            try executor.run(whenNested: ()) { (transition: Transition<Void, CaptureError>) in
                transition.settle(.failure(error))
                executor.post { transition.end() }
            }
        }
        let nested = executor.run {
            Result { () throws(CaptureError) in
                try executor.run(whenNested: ()) { (transition: Transition<Void, CaptureError>) in
                    transition.settle(.failure(error))
                    executor.post { transition.end() }
                }
            }
        }
        #expect(throws: error) { try nested.get() }
        let unsettled = executor.run { executor.run(whenNested: -1) { (transition: Transition<Int, Never>) in executor.post { transition.finish(.success(1)) } } }
        #expect(unsettled == -1, "nested, a transition not settled yet returns the nested value")
        // perform resumes after the hold its step took is released.
        let value = await executor.perform { () -> Int in
            executor.run(whenNested: 0) { (transition: Transition<Int, Never>) in executor.post(at: .now() + .milliseconds(50)) { transition.finish(.success(7)) } }
        }
        #expect(value == 0, "nested inside perform")
        #expect(executor.run { 5 } == 5)
    }
}

extension SessionExecutorTests {
    @Test("an async caller of a request gets the result an event settles after the request's step, not a nested default")
    func asyncCallerGetsLateResult() async throws {
        let executor = SessionExecutor(label: "test.executor.async")
        do {
            _ = try await executor.perform { (transition: Transition<Int, CaptureError>) in
                executor.post(at: .now() + .milliseconds(50)) { transition.finish(.failure(.sessionNotRunning)) }
            }
            Issue.record("the failure settled at the event did not reach the async caller")
        } catch {
            #expect(error.code == .sessionNotRunning)
        }
        let value = try await executor.perform { (transition: Transition<Int, CaptureError>) in
            executor.post { transition.finish(.success(7)) }
        }
        #expect(value == 7)
    }
}
