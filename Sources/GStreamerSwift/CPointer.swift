/// The one place where C pointers are declared sendable.
///
/// GStreamer objects are reference counted and thread-safe for the operations this layer uses
/// (properties, state, pads, bus); the wrappers that hold a `CPointer` own one reference and
/// release it in `deinit`.
@usableFromInline
struct CPointer<Pointee>: @unchecked Sendable {
    @usableFromInline let raw: UnsafeMutablePointer<Pointee>

    @inlinable init(_ raw: UnsafeMutablePointer<Pointee>) { self.raw = raw }

    /// Reinterprets the pointer as a pointer to another GObject struct (the C cast macros).
    @inlinable func cast<T>(to: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(raw).assumingMemoryBound(to: T.self)
    }
}

/// A `@Sendable` box for values handed to C callbacks as `user_data`.
final class CallbackBox<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }

    func retainedPointer() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackBox<Value> {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer!).takeUnretainedValue()
    }

    static func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer).release()
    }
}

/// The same, for GStreamer types Swift imports as opaque (GstSample, GstCaps).
@usableFromInline
struct COpaquePointer: @unchecked Sendable {
    @usableFromInline let raw: OpaquePointer
    @inlinable init(_ raw: OpaquePointer) { self.raw = raw }
}
