import Synchronization

/// Whether a branch's feeds still pass frames: open until the branch posts an error. Read by a
/// probe on every tee pad feeding the branch (one atomic load per frame); closed on the failing
/// element's thread by the bus's sync handler, so a failed branch's error never reaches the
/// tee, which would hand it to everything upstream.
final class BranchGate: Sendable {
    private let closed = Atomic<Bool>(false)

    var isOpen: Bool { !closed.load(ordering: .acquiring) }

    func close() { closed.store(true, ordering: .releasing) }
}
