import CGStreamer
import CGStreamerSys

/// A GStreamer tag list (image-orientation, datetime, device-model, capturing-* …).
public final class TagList: Sendable {
    let pointer: CPointer<GstTagList>

    /// Parses the serialized form, e.g. `taglist, image-orientation=(string)rotate-90`.
    public init(serialized: String) throws(GStreamerError) {
        GStreamer.initialize()
        guard let list = gst_tag_list_new_from_string(serialized) else { throw .invalidTags(serialized) }
        self.pointer = CPointer(list)
    }

    deinit {
        gst_mini_object_unref(pointer.cast(to: GstMiniObject.self))
    }

    /// The serialized form.
    public var serialized: String {
        guard let text = gst_tag_list_to_string(pointer.raw) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
