// The few GStreamer/GLib operations Swift cannot call directly (macros). The shim's other
// headers: ck_exif.h (EXIF), ck_v4l2.h (V4L2 controls), ck_rtsp.h (the RTSP server),
// ck_libcamera.h (libcamera's camera manager kept alive).
#ifndef CK_GST_H
#define CK_GST_H

#include <gst/gst.h>

/// G_OBJECT_GET_CLASS + g_object_class_find_property.
GParamSpec *ck_object_find_property(gpointer object, const char *name);

/// G_VALUE_TYPE_NAME for a GParamSpec's value type.
const char *ck_param_spec_type_name(GParamSpec *spec);

/// GST_IS_BIN.
gboolean ck_is_bin(gpointer element);

/// GST_IS_TAG_SETTER.
gboolean ck_is_tag_setter(gpointer element);

#endif
