import CGStreamer
import CGStreamerSys
import Synchronization

/// A bin: elements grouped so they change state, and are added to or removed from a running
/// pipeline, as one. A source's or an output's branch is one bin, reached from outside through
/// ghost pads.
public final class Bin: Sendable {
    /// The bin as an element, to add to a pipeline or another bin, link, or change state.
    public let element: Element
    private let members = Mutex<[String: Element]>([:])

    /// Makes an empty bin named `name` (unique within its parent).
    public init(name: String) {
        GStreamer.initialize()
        let bin = gst_bin_new(name)!
        gst_object_ref_sink(UnsafeMutableRawPointer(bin))
        element = Element(owning: bin)
    }

    /// The bin's name.
    public var name: String { element.name }

    /// Adds an element; its name must be unique in the bin.
    public func add(_ member: Element) {
        gst_bin_add(element.pointer.cast(to: GstBin.self), member.pointer.raw)
        members.withLock { $0[member.name] = member }
    }

    /// Takes a member to NULL and removes it (a part added to a running bin and done with).
    public func remove(_ member: Element) {
        member.setState(.null)
        gst_bin_remove(element.pointer.cast(to: GstBin.self), member.pointer.raw)
        members.withLock { _ = $0.removeValue(forKey: member.name) }
    }

    /// The element of that name in this bin.
    public func element(named name: String) throws(GStreamerError) -> Element {
        guard let member = members.withLock({ $0[name] }) else { throw .noSuchElement(name: name) }
        return member
    }

    /// Exposes `target` (a pad of an element in the bin) as the bin's own pad `name`.
    ///
    /// The ghost pad is made without a target, activated and added first, and only then given
    /// its target: a target that already carries data (a running tee's request pad) pushes its
    /// sticky events through it at once, and an inactive ghost pad answers them with FLUSHING,
    /// which a tee hands back to its live source, which then stops for good.
    @discardableResult
    public func addGhostPad(name: String, target: Pad) throws(GStreamerError) -> Pad {
        guard let ghost = gst_ghost_pad_new_no_target(name, gst_pad_get_direction(target.pointer.raw)) else {
            throw .noSuchPad(element: self.name, pad: name)
        }
        // The bin takes the floating reference; keep one of our own for the wrapper.
        gst_object_ref(UnsafeMutableRawPointer(ghost))
        let pad = Pad(owning: ghost)
        if element.currentState != .null { gst_pad_set_active(ghost, 1) }
        guard gst_element_add_pad(element.pointer.raw, ghost) != 0,
              gst_ghost_pad_set_target(UnsafeMutableRawPointer(ghost).assumingMemoryBound(to: GstGhostPad.self), target.pointer.raw) != 0 else {
            throw .noSuchPad(element: self.name, pad: name)
        }
        return pad
    }

    /// Removes a ghost pad made with `addGhostPad` (deactivated, unlinked from its target).
    public func removeGhostPad(_ pad: Pad) {
        gst_pad_set_active(pad.pointer.raw, 0)
        gst_element_remove_pad(element.pointer.raw, pad.pointer.raw)
    }
}
