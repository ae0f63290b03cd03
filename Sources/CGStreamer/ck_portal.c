#include "ck_portal.h"

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <string.h>

#define PORTAL_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define CAMERA_INTERFACE "org.freedesktop.portal.Camera"

static GDBusConnection *connect_bus(const char *address, GError **error) {
    if (!address || !*address) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no session bus address");
        return NULL;
    }
    return g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
        NULL, NULL, error);
}

static void take_error(GError *source, char **error) {
    if (error) *error = g_strdup(source ? source->message : "unknown error");
    g_clear_error(&source);
}

int ck_portal_running(const char *address) {
    GError *error = NULL;
    GDBusConnection *bus = connect_bus(address, &error);
    if (!bus) { g_clear_error(&error); return -1; }
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "NameHasOwner", g_variant_new("(s)", PORTAL_NAME), G_VARIANT_TYPE("(b)"),
                                                  G_DBUS_CALL_FLAGS_NONE, 2000, NULL, &error);
    int running = -1;
    if (reply) {
        gboolean owned = FALSE;
        g_variant_get(reply, "(b)", &owned);
        running = owned ? 1 : 0;
        g_variant_unref(reply);
    }
    g_clear_error(&error);
    g_object_unref(bus);
    return running;
}

struct response { GMainLoop *loop; int code; };

static void on_response(GDBusConnection *bus, const char *sender, const char *path, const char *interface,
                        const char *signal, GVariant *parameters, gpointer data) {
    (void)bus; (void)sender; (void)path; (void)interface; (void)signal;
    struct response *response = data;
    guint32 code = 2;
    g_variant_get(parameters, "(u@a{sv})", &code, NULL);
    response->code = (int)code;
    g_main_loop_quit(response->loop);
}

static gboolean on_timeout(gpointer data) {
    struct response *response = data;
    response->code = -2;
    g_main_loop_quit(response->loop);
    return G_SOURCE_REMOVE;
}

int ck_portal_access_camera(const char *address, int timeout_ms, char **error) {
    GError *failure = NULL;
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    GDBusConnection *bus = connect_bus(address, &failure);
    if (!bus) {
        g_main_context_pop_thread_default(context);
        g_main_context_unref(context);
        take_error(failure, error);
        return -1;
    }
    // The Request object's path is known before the call (the portal documents it): subscribe
    // first, so that a Response sent at once is not missed.
    char *sender = g_strdup(g_dbus_connection_get_unique_name(bus) + 1);
    for (char *c = sender; *c; c++) if (*c == '.') *c = '_';
    char token[32];
    g_snprintf(token, sizeof token, "capturekit%u", g_random_int());
    char *request = g_strdup_printf(PORTAL_PATH "/request/%s/%s", sender, token);
    struct response response = { g_main_loop_new(context, FALSE), -1 };
    guint subscription = g_dbus_connection_signal_subscribe(bus, PORTAL_NAME, "org.freedesktop.portal.Request", "Response", request,
                                                            NULL, G_DBUS_SIGNAL_FLAGS_NO_MATCH_RULE, on_response, &response, NULL);
    // The match rule is added by hand: NO_MATCH_RULE above keeps GDBus from adding one that a
    // sender filter by unique name would make miss the portal's well-known-name signals.
    char *rule = g_strdup_printf("type='signal',interface='org.freedesktop.portal.Request',member='Response',path='%s'", request);
    GVariant *added = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "AddMatch", g_variant_new("(s)", rule), NULL, G_DBUS_CALL_FLAGS_NONE, 2000, NULL, NULL);
    if (added) g_variant_unref(added);
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(token));
    GVariant *reply = g_dbus_connection_call_sync(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE, "AccessCamera",
                                                  g_variant_new("(a{sv})", &options), G_VARIANT_TYPE("(o)"),
                                                  G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &failure);
    int code;
    if (!reply) {
        take_error(failure, error);
        code = -1;
    } else {
        g_variant_unref(reply);
        GSource *timer = g_timeout_source_new((guint)timeout_ms);
        g_source_set_callback(timer, on_timeout, &response, NULL);
        g_source_attach(timer, context);
        g_main_loop_run(response.loop);
        g_source_destroy(timer);
        g_source_unref(timer);
        code = response.code;
        if (code == -2 && error) *error = g_strdup("no answer from the camera portal in time");
    }
    g_dbus_connection_signal_unsubscribe(bus, subscription);
    g_main_loop_unref(response.loop);
    g_free(rule);
    g_free(request);
    g_free(sender);
    g_object_unref(bus);
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    return code;
}

int ck_portal_open_pipewire_remote(const char *address, char **error) {
    GError *failure = NULL;
    GDBusConnection *bus = connect_bus(address, &failure);
    if (!bus) { take_error(failure, error); return -1; }
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    GUnixFDList *fds = NULL;
    GVariant *reply = g_dbus_connection_call_with_unix_fd_list_sync(bus, PORTAL_NAME, PORTAL_PATH, CAMERA_INTERFACE, "OpenPipeWireRemote",
                                                                    g_variant_new("(a{sv})", &options), G_VARIANT_TYPE("(h)"),
                                                                    G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &fds, NULL, &failure);
    int fd = -1;
    if (reply) {
        gint32 index = -1;
        g_variant_get(reply, "(h)", &index);
        if (fds) fd = g_unix_fd_list_get(fds, index, &failure);
        if (fd < 0) take_error(failure, error);
        g_variant_unref(reply);
    } else {
        take_error(failure, error);
    }
    if (fds) g_object_unref(fds);
    g_object_unref(bus);
    return fd;
}
