// The few GStreamer/GLib operations Swift cannot call directly (macros). The shim's other
// headers: ck_exif.h (EXIF), ck_v4l2.h (V4L2 controls), ck_rtsp.h (the RTSP server), ck_portal.h
// (the camera portal).
#ifndef CK_GST_H
#define CK_GST_H

#include <gst/gst.h>

/// G_OBJECT_GET_CLASS + g_object_class_find_property.
GParamSpec *ck_object_find_property(gpointer object, const char *name);

/// G_VALUE_TYPE_NAME for a GParamSpec's value type.
const char *ck_param_spec_type_name(GParamSpec *spec);

/// What kind of value a property takes (its value type's fundamental, or caps and fraction).
typedef enum {
    CK_PROPERTY_OTHER,
    CK_PROPERTY_INTEGER,
    CK_PROPERTY_BOOLEAN,
    CK_PROPERTY_FLOAT,
    CK_PROPERTY_STRING,
    CK_PROPERTY_ENUM,
    CK_PROPERTY_FLAGS,
    CK_PROPERTY_CAPS,
    CK_PROPERTY_FRACTION,
} CKPropertyKind;

/// The kind of value `spec` takes.
CKPropertyKind ck_property_kind(GParamSpec *spec);

/// Sets `integer` into `value`, initialised with any integer type (int, uint, long, ulong,
/// int64, uint64); FALSE when the type cannot hold it.
gboolean ck_value_set_integer(GValue *value, gint64 integer);

/// Sets `number` into `value`, initialised as a double or a float.
void ck_value_set_floating(GValue *value, double number);

/// GST_IS_BIN.
gboolean ck_is_bin(gpointer element);

/// GST_IS_TAG_SETTER.
gboolean ck_is_tag_setter(gpointer element);

/// Drops two criticals that device plugins log, harmlessly, for devices they cannot describe, and
/// passes every other message of those domains to GLib's handler: GStreamer 1.22's v4l2 provider,
/// for each V4L2 sub-device it probes (it posts the node's error on itself, which is not an
/// element: "gst_element_message_full_with_details: assertion 'GST_IS_ELEMENT (element)' failed",
/// 8 lines per command on vimc, as many on a Raspberry Pi's unicam), and PipeWire 0.3's provider
/// and source, for each node format GStreamer has no name for ("gst_video_format_to_string:
/// assertion 'format != GST_VIDEO_FORMAT_UNKNOWN' failed", 336 lines per recording of vivid).
/// Installed once, at initialisation; an app's own handler set later for those domains wins.
void ck_filter_provider_criticals(void);

/// A buffer probe on `pad` that sends a deep copy of each buffer on and releases the original at
/// once, so the element upstream gets its buffer back before anything downstream holds it.
/// Returns the probe's id.
gulong ck_pad_add_copy_probe(GstPad *pad);

/// The version of the plugin that provides `element`'s factory ("0.0.3"), or NULL.
const gchar *ck_element_plugin_version(GstElement *element);

/// Lowers the priority of an encoder's worker threads (x264's slice and lookahead threads): the
/// threads of the process present when data first passes `before` (upstream of the encoder) are
/// noted; at the first buffer through `after` (downstream of it, same streaming thread), the
/// threads started since under the streaming thread's name take the nice value `niceness` if
/// that is lower in priority than theirs. The streaming thread itself is left alone: it comes
/// from GStreamer's thread pool and goes back to it, and an unprivileged process can never raise
/// a thread's priority again.
void ck_pads_lower_worker_priority(GstPad *before, GstPad *after, int niceness);

/* Gives memory the allocator holds free back to the system (glibc's malloc_trim): the arenas
   that threads of removed elements (an encoder's workers) used keep their freed memory
   otherwise. Returns whether any was given back; 0 where the C library has no such call. */
int ck_release_free_memory(void);

#endif
