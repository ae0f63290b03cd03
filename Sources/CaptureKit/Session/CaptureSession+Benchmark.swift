import GStreamerSwift

extension CaptureSession {
    /// The longest a step of the session's executor has taken so far (what a step costs every
    /// step behind it): the churn's invariant, and a benchmark figure.
    @_spi(Benchmark)
    public var longestExecutorStep: Duration { .nanoseconds(Int64(executor.longestStep)) }

    /// A watch that says when the running pipeline (every element and pad in it) has been
    /// freed; nil while the session does not run.
    @_spi(Benchmark)
    public func watchPipelineFinalization() -> FinalizationWatch? {
        state.withLock { $0.runtime }?.pipeline.watchFinalization()
    }
}
