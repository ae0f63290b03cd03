// An RTSP server (gst-rtsp-server) fed by an appsink: every client shares one media, whose
// appsrc receives the appsink's encoded buffers (references, not copies).
#ifndef CK_RTSP_H
#define CK_RTSP_H

#include <gst/gst.h>

typedef struct CKRtspServer CKRtspServer;

/// Told the number of connected clients when it changes, in order, on the thread of the client
/// that came or went.
typedef void (*CKRtspClientsChanged)(int clients, void *user_data);

/// Serves `path` on `host`:`port` from `appsink` (an appsink taking H.264, byte-stream, AU
/// aligned; its callbacks are taken over). `user`, when not NULL, is asked for with
/// `password` (digest or basic). The server runs on a thread of its own. NULL with `error`
/// set when it cannot listen (the port is in use, the host is not an address here).
CKRtspServer *ck_rtsp_server_start(const char *host, int port, const char *path,
                                   const char *user, const char *password,
                                   GstElement *appsink,
                                   CKRtspClientsChanged clients_changed, void *user_data,
                                   GDestroyNotify destroy_user_data, GError **error);

/// The port listened on.
int ck_rtsp_server_port(CKRtspServer *server);

/// Closes every client, stops the media and the listening socket, ends the thread and
/// releases the caller's reference (the appsink's callbacks hold another until they are
/// replaced or the appsink is freed). Call once.
void ck_rtsp_server_stop(CKRtspServer *server);

#endif
