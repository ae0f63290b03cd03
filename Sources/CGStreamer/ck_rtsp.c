#include "ck_rtsp.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <gst/video/video.h>

// The media every client shares: the appsrc takes the branch's Annex B access units as they
// are (no parse, no copy); the payloader repeats the parameter sets with every key frame.
#define CK_RTSP_LAUNCH                                                                          \
    "( appsrc name=src is-live=true format=time do-timestamp=false max-bytes=0 max-buffers=90 " \
    "leaky-type=downstream ! rtph264pay name=pay0 pt=96 config-interval=-1 "                  \
    "aggregate-mode=zero-latency )"

/// One prepared media's appsrc. Until `started` it waits for its media to play and for a key
/// frame; then its src pad's offset maps the session's running time onto the media's.
typedef struct {
    GstRTSPMedia *media;
    GstElement *src;
    GstPad *srcpad;
    GstCaps *caps;
    gboolean started;
    gboolean key_requested;
} Feed;

struct CKRtspServer {
    gint refs;
    GMutex lock;
    GPtrArray *feeds;   // Feed *, under lock
    gboolean stopped;   // under lock
    GstPad *sinkpad;    // the appsink's: key-frame requests go upstream from it
    GMainContext *context;
    GMainLoop *loop;
    GThread *thread;
    GstRTSPServer *server;
    GSource *server_source;
    GSource *pool_source;
    int port;
    int clients;        // under lock
    CKRtspClientsChanged clients_changed;
    void *user_data;
    GDestroyNotify destroy_user_data;
};

static CKRtspServer *ck_rtsp_ref(CKRtspServer *s) {
    g_atomic_int_inc(&s->refs);
    return s;
}

static void ck_rtsp_unref(gpointer data) {
    CKRtspServer *s = data;
    if (!g_atomic_int_dec_and_test(&s->refs)) return;
    if (s->destroy_user_data) s->destroy_user_data(s->user_data);
    g_ptr_array_unref(s->feeds);
    g_mutex_clear(&s->lock);
    g_free(s);
}

static void ck_rtsp_unref_closure(gpointer data, GClosure *closure) {
    (void)closure;
    ck_rtsp_unref(data);
}

static void feed_free(gpointer data) {
    Feed *feed = data;
    gst_caps_replace(&feed->caps, NULL);
    gst_object_unref(feed->srcpad);
    gst_object_unref(feed->src);
    g_object_unref(feed->media);
    g_free(feed);
}

/// The running time of the element's pipeline now; FALSE until it plays with a clock.
static gboolean running_time(GstElement *element, GstClockTime *now) {
    GST_OBJECT_LOCK(element);
    gboolean playing = GST_STATE(element) == GST_STATE_PLAYING;
    GST_OBJECT_UNLOCK(element);
    if (!playing) return FALSE;
    GstClock *clock = gst_element_get_clock(element);
    if (!clock) return FALSE;
    GstClockTime base = gst_element_get_base_time(element);
    GstClockTime time = gst_clock_get_time(clock);
    gst_object_unref(clock);
    *now = time > base ? time - base : 0;
    return TRUE;
}

// The appsink's streaming thread: each access unit goes, as a new reference, to every media
// that plays; a media that just started waits for a key frame (asked of the encoder once).
static GstFlowReturn on_new_sample(GstAppSink *sink, gpointer data) {
    CKRtspServer *s = data;
    GstSample *sample = gst_app_sink_pull_sample(sink);
    if (!sample) return GST_FLOW_OK;
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstCaps *caps = gst_sample_get_caps(sample);
    if (!buffer) {
        gst_sample_unref(sample);
        return GST_FLOW_OK;
    }
    gboolean key = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
    GstClockTime pts = GST_BUFFER_PTS(buffer), dts = GST_BUFFER_DTS(buffer);
    GstClockTime earliest = GST_CLOCK_TIME_IS_VALID(dts) && (!GST_CLOCK_TIME_IS_VALID(pts) || dts < pts) ? dts : pts;
    gboolean request_key = FALSE;
    g_mutex_lock(&s->lock);
    for (guint i = 0; i < s->feeds->len; i++) {
        Feed *feed = g_ptr_array_index(s->feeds, i);
        if (!feed->started) {
            GstClockTime now;
            if (!running_time(feed->src, &now) || !GST_CLOCK_TIME_IS_VALID(earliest)) continue;
            if (!key) {
                request_key |= !feed->key_requested;
                feed->key_requested = TRUE;
                continue;
            }
            gst_pad_set_offset(feed->srcpad, (gint64)now - (gint64)earliest);
            feed->started = TRUE;
        }
        if (caps && feed->caps != caps) {
            gst_app_src_set_caps(GST_APP_SRC(feed->src), caps);
            gst_caps_replace(&feed->caps, caps);
        }
        gst_app_src_push_buffer(GST_APP_SRC(feed->src), gst_buffer_ref(buffer));
    }
    g_mutex_unlock(&s->lock);
    gst_sample_unref(sample);
    if (request_key) gst_pad_push_event(s->sinkpad, gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0));
    return GST_FLOW_OK;
}

static void on_media_unprepared(GstRTSPMedia *media, gpointer data) {
    CKRtspServer *s = data;
    g_mutex_lock(&s->lock);
    for (guint i = 0; i < s->feeds->len; i++) {
        Feed *feed = g_ptr_array_index(s->feeds, i);
        if (feed->media == media) {
            g_ptr_array_remove_index_fast(s->feeds, i);
            break;
        }
    }
    g_mutex_unlock(&s->lock);
}

// A client's thread (the one handling its DESCRIBE or SETUP): a new (shared) media was built;
// its appsrc joins the feeds.
static void on_media_configure(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data) {
    (void)factory;
    CKRtspServer *s = data;
    GstElement *bin = gst_rtsp_media_get_element(media);
    GstElement *src = gst_bin_get_by_name_recurse_up(GST_BIN(bin), "src");
    gst_object_unref(bin);
    if (!src) return;
    Feed *feed = g_new0(Feed, 1);
    feed->media = g_object_ref(media);
    feed->src = src;
    feed->srcpad = gst_element_get_static_pad(src, "src");
    g_signal_connect_data(media, "unprepared", G_CALLBACK(on_media_unprepared), ck_rtsp_ref(s), ck_rtsp_unref_closure, 0);
    g_mutex_lock(&s->lock);
    if (s->stopped) {
        feed_free(feed);
    } else {
        g_ptr_array_add(s->feeds, feed);
    }
    g_mutex_unlock(&s->lock);
}

// Clients connect on the server's thread and close on a pool thread or the server's: the count
// and its report are changed under the lock, so reports arrive in order.
static void clients_add(CKRtspServer *s, int delta) {
    g_mutex_lock(&s->lock);
    s->clients = MAX(0, s->clients + delta);
    if (s->clients_changed) s->clients_changed(s->clients, s->user_data);
    g_mutex_unlock(&s->lock);
}

static void on_client_closed(GstRTSPClient *client, gpointer data) {
    (void)client;
    clients_add(data, -1);
}

// A client's PLAY (its thread): a client joining a media that already plays would otherwise
// wait for the next key frame; ask the encoder for one now.
static void on_play_request(GstRTSPClient *client, GstRTSPContext *context, gpointer data) {
    (void)client;
    (void)context;
    CKRtspServer *s = data;
    g_mutex_lock(&s->lock);
    GstPad *pad = s->stopped || !s->sinkpad ? NULL : gst_object_ref(s->sinkpad);
    g_mutex_unlock(&s->lock);
    if (!pad) return;
    gst_pad_push_event(pad, gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0));
    gst_object_unref(pad);
}

static void on_client_connected(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server;
    CKRtspServer *s = data;
    g_signal_connect_data(client, "closed", G_CALLBACK(on_client_closed), ck_rtsp_ref(s), ck_rtsp_unref_closure, 0);
    g_signal_connect_data(client, "play-request", G_CALLBACK(on_play_request), ck_rtsp_ref(s), ck_rtsp_unref_closure, 0);
    clients_add(s, 1);
}

static gboolean cleanup_sessions(GstRTSPSessionPool *pool, gpointer data) {
    (void)data;
    gst_rtsp_session_pool_cleanup(pool);
    return G_SOURCE_CONTINUE;
}

static GstRTSPFilterResult remove_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REMOVE;
}

static GstRTSPFilterResult remove_session(GstRTSPSessionPool *pool, GstRTSPSession *session, gpointer data) {
    (void)pool; (void)session; (void)data;
    return GST_RTSP_FILTER_REMOVE;
}

static gpointer run(gpointer data) {
    CKRtspServer *s = data;
    g_main_context_push_thread_default(s->context);
    g_main_loop_run(s->loop);
    g_main_context_pop_thread_default(s->context);
    return NULL;
}

// The server thread, when stopping: no new connections, every client and session gone.
static gboolean shut_down(gpointer data) {
    CKRtspServer *s = data;
    g_source_destroy(s->server_source);
    g_source_destroy(s->pool_source);
    gst_rtsp_server_client_filter(s->server, remove_client, NULL);
    GstRTSPSessionPool *pool = gst_rtsp_server_get_session_pool(s->server);
    gst_rtsp_session_pool_filter(pool, remove_session, NULL);
    g_object_unref(pool);
    g_main_loop_quit(s->loop);
    return G_SOURCE_REMOVE;
}

CKRtspServer *ck_rtsp_server_start(const char *host, int port, const char *path,
                                   const char *user, const char *password,
                                   GstElement *appsink,
                                   CKRtspClientsChanged clients_changed, void *user_data,
                                   GDestroyNotify destroy_user_data, GError **error) {
    CKRtspServer *s = g_new0(CKRtspServer, 1);
    s->refs = 1;
    g_mutex_init(&s->lock);
    s->feeds = g_ptr_array_new_with_free_func(feed_free);
    s->clients_changed = clients_changed;
    s->user_data = user_data;
    s->destroy_user_data = destroy_user_data;

    s->server = gst_rtsp_server_new();
    gst_rtsp_server_set_address(s->server, host);
    gchar *service = g_strdup_printf("%d", port);
    gst_rtsp_server_set_service(s->server, service);
    g_free(service);

    GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
    gst_rtsp_media_factory_set_launch(factory, CK_RTSP_LAUNCH);
    gst_rtsp_media_factory_set_shared(factory, TRUE);
    g_signal_connect_data(factory, "media-configure", G_CALLBACK(on_media_configure), ck_rtsp_ref(s), ck_rtsp_unref_closure, 0);
    if (user) {
        GstRTSPAuth *auth = gst_rtsp_auth_new();
        GstRTSPToken *token = gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, "user", NULL);
        gchar *basic = gst_rtsp_auth_make_basic(user, password ? password : "");
        gst_rtsp_auth_add_basic(auth, basic, token);
        g_free(basic);
        gst_rtsp_auth_add_digest(auth, user, password ? password : "", token);
        gst_rtsp_token_unref(token);
        gst_rtsp_auth_set_supported_methods(auth, GST_RTSP_AUTH_BASIC | GST_RTSP_AUTH_DIGEST);
        gst_rtsp_server_set_auth(s->server, auth);
        g_object_unref(auth);
        gst_rtsp_media_factory_add_role(factory, "user",
                                        GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, G_TYPE_BOOLEAN, TRUE,
                                        GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, G_TYPE_BOOLEAN, TRUE, NULL);
    }
    GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(s->server);
    gst_rtsp_mount_points_add_factory(mounts, path, factory);
    g_object_unref(mounts);
    g_signal_connect_data(s->server, "client-connected", G_CALLBACK(on_client_connected), ck_rtsp_ref(s), ck_rtsp_unref_closure, 0);

    s->server_source = gst_rtsp_server_create_source(s->server, NULL, error);
    if (!s->server_source) {
        // Nothing runs yet: the signal handlers' references go with the objects.
        g_object_unref(s->server);
        s->destroy_user_data = NULL;
        ck_rtsp_unref(s);
        return NULL;
    }
    s->port = gst_rtsp_server_get_bound_port(s->server);
    s->context = g_main_context_new();
    s->loop = g_main_loop_new(s->context, FALSE);
    g_source_attach(s->server_source, s->context);
    GstRTSPSessionPool *pool = gst_rtsp_server_get_session_pool(s->server);
    s->pool_source = gst_rtsp_session_pool_create_watch(pool);
    g_source_set_callback(s->pool_source, (GSourceFunc)cleanup_sessions, NULL, NULL);
    g_source_attach(s->pool_source, s->context);
    g_object_unref(pool);

    s->sinkpad = gst_element_get_static_pad(appsink, "sink");
    GstAppSinkCallbacks callbacks = {0};
    callbacks.new_sample = on_new_sample;
    gst_app_sink_set_callbacks(GST_APP_SINK(appsink), &callbacks, ck_rtsp_ref(s), ck_rtsp_unref);
    s->thread = g_thread_new("ck-rtsp-server", run, s);
    return s;
}

int ck_rtsp_server_port(CKRtspServer *server) {
    return server->port;
}

void ck_rtsp_server_stop(CKRtspServer *s) {
    g_mutex_lock(&s->lock);
    s->stopped = TRUE;
    GPtrArray *feeds = s->feeds;
    s->feeds = g_ptr_array_new_with_free_func(feed_free);
    g_mutex_unlock(&s->lock);

    GSource *idle = g_idle_source_new();
    g_source_set_callback(idle, shut_down, s, NULL);
    g_source_attach(idle, s->context);
    g_source_unref(idle);
    g_thread_join(s->thread);
    // The media stop here, whatever their sessions' state.
    for (guint i = 0; i < feeds->len; i++) {
        Feed *feed = g_ptr_array_index(feeds, i);
        gst_rtsp_media_unprepare(feed->media);
    }
    g_ptr_array_unref(feeds);
    g_source_unref(s->server_source);
    g_source_unref(s->pool_source);
    g_object_unref(s->server);
    g_main_loop_unref(s->loop);
    g_main_context_unref(s->context);
    gst_object_unref(s->sinkpad);
    ck_rtsp_unref(s);
}
