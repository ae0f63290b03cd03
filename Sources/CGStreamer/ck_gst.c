#include "ck_gst.h"

GParamSpec *ck_object_find_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

const char *ck_param_spec_type_name(GParamSpec *spec) {
    return g_type_name(G_PARAM_SPEC_VALUE_TYPE(spec));
}

gboolean ck_is_tag_setter(gpointer element) {
    return GST_IS_TAG_SETTER(element);
}

gboolean ck_is_bin(gpointer element) {
    return GST_IS_BIN(element);
}
