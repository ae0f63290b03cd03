// webrtcbin's offer/answer exchange through its action signals and promises, without the
// gstreamer-webrtc development headers (Debian ships them in libgstreamer-plugins-bad1.0-dev,
// which pulls OpenCV's): the one struct used, GstWebRTCSessionDescription, is declared in
// ck_webrtc.c with its stable layout.
#ifndef CK_WEBRTC_H
#define CK_WEBRTC_H

#include <gst/gst.h>

/// Makes the transceiver behind a webrtcbin sink pad (just requested) send-only, preferring
/// `caps` (the RTP caps the pad will carry: payload type, encoding, profile), so that a remote
/// offer's matching media section is answered with it. FALSE when the pad has no transceiver
/// or the caps do not parse.
gboolean ck_webrtc_prepare_sink(GstPad *pad, const char *caps);

/// Answers the SDP `offer` on `webrtc` (in PLAYING, its sink pads prepared): sets it as the
/// remote description, creates the answer, sets it as the local description, then waits up to
/// `timeout_ms` for ICE gathering to complete. Returns the local description's text (g_free)
/// with every candidate gathered, or NULL and `*error` (g_free) saying what failed. Blocks
/// the calling thread (webrtcbin works on its own); never call it on a streaming thread.
char *ck_webrtc_answer(GstElement *webrtc, const char *offer, guint timeout_ms, char **error);

/// Makes webrtcbin's ICE agent (libnice, reached through "ice-agent" then its "agent") send
/// its keepalives as connectivity checks that expect answers ("keepalive-conncheck"): a peer
/// that vanishes without a word (a killed browser) then fails ICE, and webrtcbin's
/// connection state says so; a check fails after 4 retransmissions (3 s) rather than 7 (25 s).
/// FALSE when the agent does not offer that.
gboolean ck_webrtc_check_keepalives(GstElement *webrtc);

#endif
