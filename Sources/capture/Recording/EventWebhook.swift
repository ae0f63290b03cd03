import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `--webhook URL`: POSTs each event line (the JSON `--events` prints) to a receiver, in order,
/// retrying a failed delivery with back-off (0.5 s doubling to 30 s, 8 tries) before giving it up.
///
/// A dead or slow receiver never holds up the recording: lines wait in a queue of their own
/// (the newest 1,000; older ones are dropped with a note) and one task delivers them. At the
/// recording's end ``finish(within:)`` gives the queue a few seconds, then gives up what is left.
///
/// Threading: `send` from any thread (the recording's delegate queue); delivery on its own task.
final class EventWebhook: Sendable {
    static let attempts = 8, queueLength = 1000
    static let firstDelay = 0.5, longestDelay = 30.0, requestTimeout = 5.0
    /// How long the end of a recording waits for the queue.
    static let finishing = 5.0

    let url: URL
    private let log: @Sendable (String) -> Void
    private let lines: AsyncStream<Data>.Continuation
    private let delivery: Task<Void, Never>

    /// `log` gets a line for each delivery given up.
    init(url: URL, log: @escaping @Sendable (String) -> Void) {
        self.url = url
        self.log = log
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(Self.queueLength))
        lines = continuation
        delivery = Task {
            let session = URLSession(configuration: .ephemeral)
            for await line in stream {
                var delay = Self.firstDelay
                for attempt in 1...Self.attempts {
                    let failure = await Self.post(line, to: url, session: session)
                    guard let failure else { break }
                    if attempt == Self.attempts || Task.isCancelled {
                        log("webhook: gave up an event after \(attempt) tries (\(failure))")
                        break
                    }
                    try? await Task.sleep(for: .seconds(delay))
                    delay = min(delay * 2, Self.longestDelay)
                }
            }
        }
    }

    /// Queues one event line for delivery; never waits.
    func send(_ line: Data) {
        if case .dropped = lines.yield(line) { log("webhook: \(Self.queueLength) events wait for the receiver; the oldest was dropped") }
    }

    /// Ends the queue and waits up to `seconds` for what is in it to be delivered; what is
    /// still being retried then is given up.
    func finish(within seconds: Double) async {
        lines.finish()
        let delivery = delivery
        let deadline = Task {
            try? await Task.sleep(for: .seconds(seconds))
            delivery.cancel()
        }
        await delivery.value
        deadline.cancel()
    }

    /// One POST; nil when the receiver answered 2xx, else what went wrong.
    ///
    /// Through the completion-handler task, which the delivery task's cancellation does not
    /// cancel: the async `upload(for:from:)` cancels its URLSession task when the calling task
    /// is cancelled, and swift-corelibs-foundation (Swift 6.3) can crash when that cancel races
    /// the task's own failure ("Trying to access a behaviour for a task that in not in the
    /// registry": `capture record` died so at the end of a recording whose receiver was down).
    /// A request in flight when ``finish(within:)`` gives up ends by its own timeout.
    static func post(_ line: Data, to url: URL, session: URLSession) async -> String? {
        var request = URLRequest(url: url, timeoutInterval: requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return await withCheckedContinuation { continuation in
            session.uploadTask(with: request, from: line) { _, response, error in
                if let error {
                    continuation.resume(returning: error.localizedDescription)
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                continuation.resume(returning: (200..<300).contains(status) ? nil : "HTTP \(status)")
            }.resume()
        }
    }
}
