#include "ck_gst.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

GParamSpec *ck_object_find_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

const char *ck_param_spec_type_name(GParamSpec *spec) {
    return g_type_name(G_PARAM_SPEC_VALUE_TYPE(spec));
}

CKPropertyKind ck_property_kind(GParamSpec *spec) {
    GType type = G_PARAM_SPEC_VALUE_TYPE(spec);
    if (type == GST_TYPE_CAPS) return CK_PROPERTY_CAPS;
    if (type == GST_TYPE_FRACTION) return CK_PROPERTY_FRACTION;
    switch (G_TYPE_FUNDAMENTAL(type)) {
    case G_TYPE_INT: case G_TYPE_UINT: case G_TYPE_LONG: case G_TYPE_ULONG: case G_TYPE_INT64: case G_TYPE_UINT64:
        return CK_PROPERTY_INTEGER;
    case G_TYPE_BOOLEAN: return CK_PROPERTY_BOOLEAN;
    case G_TYPE_FLOAT: case G_TYPE_DOUBLE: return CK_PROPERTY_FLOAT;
    case G_TYPE_STRING: return CK_PROPERTY_STRING;
    case G_TYPE_ENUM: return CK_PROPERTY_ENUM;
    case G_TYPE_FLAGS: return CK_PROPERTY_FLAGS;
    default: return CK_PROPERTY_OTHER;
    }
}

gboolean ck_value_set_integer(GValue *value, gint64 integer) {
    switch (G_TYPE_FUNDAMENTAL(G_VALUE_TYPE(value))) {
    case G_TYPE_INT:
        if (integer < G_MININT || integer > G_MAXINT) return FALSE;
        g_value_set_int(value, (gint)integer);
        return TRUE;
    case G_TYPE_UINT:
        if (integer < 0 || integer > G_MAXUINT) return FALSE;
        g_value_set_uint(value, (guint)integer);
        return TRUE;
    case G_TYPE_LONG:
        if (integer < G_MINLONG || integer > G_MAXLONG) return FALSE;
        g_value_set_long(value, (glong)integer);
        return TRUE;
    case G_TYPE_ULONG:
        if (integer < 0) return FALSE;
        g_value_set_ulong(value, (gulong)integer);
        return TRUE;
    case G_TYPE_INT64:
        g_value_set_int64(value, integer);
        return TRUE;
    case G_TYPE_UINT64:
        if (integer < 0) return FALSE;
        g_value_set_uint64(value, (guint64)integer);
        return TRUE;
    default:
        return FALSE;
    }
}

void ck_value_set_floating(GValue *value, double number) {
    if (G_VALUE_HOLDS_FLOAT(value)) g_value_set_float(value, (float)number);
    else g_value_set_double(value, number);
}

gboolean ck_is_tag_setter(gpointer element) {
    return GST_IS_TAG_SETTER(element);
}

gboolean ck_is_bin(gpointer element) {
    return GST_IS_BIN(element);
}

/* The criticals device plugins log for devices they cannot describe (see ck_gst.h). */
static int ck_is_provider_critical(const gchar *message) {
    if (!message) return 0;
    /* GStreamer 1.22's v4l2 provider, on each V4L2 sub-device: it posts the error on itself. */
    if (strstr(message, "gst_element_message_full_with_details") && strstr(message, "GST_IS_ELEMENT (element)")) return 1;
    /* PipeWire 0.3's provider, on each format of a node GStreamer has no name for. */
    if (strstr(message, "gst_video_format_to_string") && strstr(message, "GST_VIDEO_FORMAT_UNKNOWN")) return 1;
    return 0;
}

static void ck_drop_provider_critical(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)data;
    if (ck_is_provider_critical(message)) return;
    g_log_default_handler(domain, level, message, NULL);
}

void ck_filter_provider_criticals(void) {
    g_log_set_handler("GStreamer", G_LOG_LEVEL_CRITICAL, ck_drop_provider_critical, NULL);
    g_log_set_handler("GStreamer-Video", G_LOG_LEVEL_CRITICAL, ck_drop_provider_critical, NULL);
}

static GstPadProbeReturn ck_copy_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad; (void)data;
    GstBuffer *original = GST_PAD_PROBE_INFO_BUFFER(info);
    GstBuffer *copy = gst_buffer_copy_deep(original);
    if (!copy) return GST_PAD_PROBE_OK;
    GST_PAD_PROBE_INFO_DATA(info) = copy;
    gst_buffer_unref(original);
    return GST_PAD_PROBE_OK;
}

gulong ck_pad_add_copy_probe(GstPad *pad) {
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, ck_copy_buffer, NULL, NULL);
}

const gchar *ck_element_plugin_version(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    GstPlugin *plugin = factory ? gst_plugin_feature_get_plugin(GST_PLUGIN_FEATURE(factory)) : NULL;
    if (!plugin) return NULL;
    /* The plugin outlives the process's use of it (GStreamer never unloads one). */
    const gchar *version = gst_plugin_get_version(plugin);
    gst_object_unref(plugin);
    return version;
}

/* The comm of thread `tid` of this process into `name` (size 32); 0 on success. */
static int ck_thread_name(const char *tid, char *name) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", tid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t length = fread(name, 1, 31, file);
    fclose(file);
    name[length] = 0;
    return 0;
}

typedef struct {
    GHashTable *earlier; /* thread ids (as strings) present when data first reached `before` */
    int niceness;
} ck_worker_priority;

static void ck_worker_priority_free(gpointer data) {
    ck_worker_priority *state = data;
    if (state->earlier) g_hash_table_unref(state->earlier);
    g_free(state);
}

static GstPadProbeReturn ck_note_threads(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad; (void)info;
    ck_worker_priority *state = data;
    GHashTable *earlier = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    DIR *tasks = opendir("/proc/self/task");
    struct dirent *entry;
    while (tasks && (entry = readdir(tasks))) {
        if (entry->d_name[0] != '.') g_hash_table_add(earlier, g_strdup(entry->d_name));
    }
    if (tasks) closedir(tasks);
    GHashTable *old = g_atomic_pointer_exchange(&state->earlier, earlier);
    if (old) g_hash_table_unref(old);
    return GST_PAD_PROBE_REMOVE;
}

static GstPadProbeReturn ck_lower_workers(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad; (void)info;
    ck_worker_priority *state = data;
    GHashTable *earlier = g_atomic_pointer_get(&state->earlier);
    char self[16], own[32], other[32];
    snprintf(self, sizeof self, "%ld", (long)syscall(SYS_gettid));
    DIR *tasks = earlier && ck_thread_name(self, own) == 0 ? opendir("/proc/self/task") : NULL;
    struct dirent *entry;
    while (tasks && (entry = readdir(tasks))) {
        if (entry->d_name[0] == '.' || strcmp(entry->d_name, self) == 0 || g_hash_table_contains(earlier, entry->d_name)) continue;
        if (ck_thread_name(entry->d_name, other) != 0 || strcmp(own, other) != 0) continue;
        id_t thread = (id_t)strtol(entry->d_name, NULL, 10);
        errno = 0;
        int current = getpriority(PRIO_PROCESS, thread);
        if (errno == 0 && current < state->niceness) setpriority(PRIO_PROCESS, thread, state->niceness);
    }
    if (tasks) closedir(tasks);
    return GST_PAD_PROBE_REMOVE;
}

void ck_pads_lower_worker_priority(GstPad *before, GstPad *after, int niceness) {
    ck_worker_priority *state = g_new0(ck_worker_priority, 1);
    state->niceness = niceness;
    /* The state lives until the later probe goes; the earlier one only fills it. */
    gst_pad_add_probe(before, GST_PAD_PROBE_TYPE_DATA_DOWNSTREAM, ck_note_threads, state, NULL);
    gst_pad_add_probe(after, GST_PAD_PROBE_TYPE_BUFFER, ck_lower_workers, state, ck_worker_priority_free);
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int ck_release_free_memory(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
