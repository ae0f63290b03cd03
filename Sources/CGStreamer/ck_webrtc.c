#include "ck_webrtc.h"
#include <gst/sdp/sdp.h>
#include <string.h>

// GstWebRTCSessionDescription (gst/webrtc/rtcsessiondescription.h, stable since 1.14).
typedef struct {
    int type;  // GstWebRTCSDPType: 1 offer, 3 answer
    GstSDPMessage *sdp;
} CKSessionDescription;

enum { CK_SDP_OFFER = 1 };
enum { CK_DIRECTION_SENDONLY = 2 };      // GstWebRTCRTPTransceiverDirection
enum { CK_ICE_GATHERING_COMPLETE = 2 };  // GstWebRTCICEGatheringState

gboolean ck_webrtc_prepare_sink(GstPad *pad, const char *caps) {
    GObject *transceiver = NULL;
    g_object_get(pad, "transceiver", &transceiver, NULL);
    if (!transceiver) return FALSE;
    GstCaps *parsed = gst_caps_from_string(caps);
    if (!parsed) {
        g_object_unref(transceiver);
        return FALSE;
    }
    g_object_set(transceiver, "direction", CK_DIRECTION_SENDONLY, "codec-preferences", parsed, NULL);
    gst_caps_unref(parsed);
    g_object_unref(transceiver);
    return TRUE;
}

// Waits for a promise and checks its reply for an "error" field; returns the reply (owned by
// the promise) or NULL with *error set.
static const GstStructure *ck_wait(GstPromise *promise, const char *step, char **error) {
    GstPromiseResult result = gst_promise_wait(promise);
    // Only a replied promise has a reply to get (an interrupted one warns).
    if (result != GST_PROMISE_RESULT_REPLIED) {
        *error = g_strdup_printf("%s: no reply from webrtcbin (%d)", step, (int)result);
        return NULL;
    }
    const GstStructure *reply = gst_promise_get_reply(promise);
    if (reply && gst_structure_has_field(reply, "error")) {
        GError *gerror = NULL;
        gst_structure_get(reply, "error", G_TYPE_ERROR, &gerror, NULL);
        *error = g_strdup_printf("%s: %s", step, gerror ? gerror->message : "failed");
        if (gerror) g_error_free(gerror);
        return NULL;
    }
    return reply;
}

char *ck_webrtc_answer(GstElement *webrtc, const char *offer, guint timeout_ms, char **error) {
    *error = NULL;
    GstSDPMessage *sdp = NULL;
    if (gst_sdp_message_new_from_text(offer, &sdp) != GST_SDP_OK || !sdp) {
        *error = g_strdup("the offer is not SDP");
        return NULL;
    }
    CKSessionDescription remote = {CK_SDP_OFFER, sdp};
    // The signal takes a boxed GstWebRTCSessionDescription and copies it.
    GstPromise *promise = gst_promise_new();
    g_signal_emit_by_name(webrtc, "set-remote-description", &remote, promise);
    ck_wait(promise, "set-remote-description", error);
    gst_promise_unref(promise);
    gst_sdp_message_free(sdp);
    if (*error) return NULL;

    promise = gst_promise_new();
    g_signal_emit_by_name(webrtc, "create-answer", NULL, promise);
    const GstStructure *reply = ck_wait(promise, "create-answer", error);
    const GValue *answer = reply ? gst_structure_get_value(reply, "answer") : NULL;
    if (!*error && !answer) *error = g_strdup("create-answer: no answer");
    if (*error) {
        gst_promise_unref(promise);
        return NULL;
    }
    GstPromise *set = gst_promise_new();
    g_signal_emit_by_name(webrtc, "set-local-description", g_value_get_boxed(answer), set);
    gst_promise_unref(promise);
    ck_wait(set, "set-local-description", error);
    gst_promise_unref(set);
    if (*error) return NULL;

    // Every candidate in the answer: no trickle ICE. Gathering is quick on host candidates.
    gint64 deadline = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    for (;;) {
        int state = 0;
        g_object_get(webrtc, "ice-gathering-state", &state, NULL);
        if (state == CK_ICE_GATHERING_COMPLETE || g_get_monotonic_time() > deadline) break;
        g_usleep(10 * 1000);
    }
    gpointer local = NULL;
    g_object_get(webrtc, "local-description", &local, NULL);
    if (!local) {
        *error = g_strdup("no local description");
        return NULL;
    }
    CKSessionDescription *description = local;
    char *text = gst_sdp_message_as_text(description->sdp);
    GType type = g_type_from_name("GstWebRTCSessionDescription");
    g_boxed_free(type, local);
    return text;
}

gboolean ck_webrtc_check_keepalives(GstElement *webrtc) {
    GObject *ice = NULL, *agent = NULL;
    g_object_get(webrtc, "ice-agent", &ice, NULL);
    if (!ice) return FALSE;
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(ice), "agent")) g_object_get(ice, "agent", &agent, NULL);
    g_object_unref(ice);
    if (!agent) return FALSE;
    gboolean done = FALSE;
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(agent), "keepalive-conncheck")) {
        g_object_set(agent, "keepalive-conncheck", TRUE, NULL);
        // A keepalive check unanswered after 4 retransmissions (0.2 + 0.4 + 0.8 + 1.6 s) fails,
        // not after libnice's default 7 (25 s).
        if (g_object_class_find_property(G_OBJECT_GET_CLASS(agent), "stun-max-retransmissions"))
            g_object_set(agent, "stun-max-retransmissions", 4, NULL);
        done = TRUE;
    }
    g_object_unref(agent);
    return done;
}
