// ck_portal.h - xdg-desktop-portal's Camera portal over GDBus (org.freedesktop.portal.Camera):
// whether a portal runs, AccessCamera and its Response, and OpenPipeWireRemote. Each call opens
// its own connection to the bus at `address` (the session bus's address), so that nothing is
// cached from one call, or one bus, to the next.
#ifndef CK_PORTAL_H
#define CK_PORTAL_H

/// 1 when the bus at `address` has an owner for org.freedesktop.portal.Desktop, 0 when it has
/// none, -1 when the bus cannot be reached.
int ck_portal_running(const char *address);

/// Calls AccessCamera and waits up to `timeout_ms` for its Request's Response. Returns the
/// response: 0 granted, 1 cancelled by the user, 2 otherwise ended; -1 when the call failed,
/// -2 on timeout. `error` (may be NULL) receives a message to free with g_free.
int ck_portal_access_camera(const char *address, int timeout_ms, char **error);

/// Calls OpenPipeWireRemote: a file descriptor for pipewiresrc's `fd` (the caller closes it),
/// or -1. `error` as above.
int ck_portal_open_pipewire_remote(const char *address, char **error);

#endif
