import CGStreamer
import CGStreamerSys
import Synchronization

/// Tells whether a GStreamer object has been freed: set by a weak reference GLib clears when
/// the object's last reference goes (on whichever thread dropped it). For tests that check a
/// removed element is not kept alive.
public final class FinalizationWatch: Sendable {
    private let finalized = Atomic<Bool>(false)

    /// Whether the watched object has been freed.
    public var isFinalized: Bool { finalized.load(ordering: .acquiring) }

    fileprivate func markFinalized() { finalized.store(true, ordering: .releasing) }
}

extension FinalizationWatch {
    /// A watch on the GObject at `object`.
    static func watching(_ object: UnsafeMutableRawPointer) -> FinalizationWatch {
        let watch = FinalizationWatch()
        let box = Unmanaged.passRetained(watch).toOpaque()
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), { data, _ in
            let watch = Unmanaged<FinalizationWatch>.fromOpaque(data!).takeRetainedValue()
            watch.markFinalized()
        }, box)
        return watch
    }
}

extension Element {
    /// A watch on this element's finalization. The wrapper's own reference counts: an element
    /// is freed only once every wrapper of it is gone too.
    public func watchFinalization() -> FinalizationWatch { .watching(UnsafeMutableRawPointer(pointer.raw)) }
}

extension Pipeline {
    /// A watch on this pipeline's finalization (with it, every element still in it).
    public func watchFinalization() -> FinalizationWatch { .watching(UnsafeMutableRawPointer(pointer.raw)) }
}
