#ifndef CK_LIBCAMERA_H
#define CK_LIBCAMERA_H

#include <gst/gst.h>

/* Keeps libcamera's CameraManager alive for the rest of the process, once a libcamerasrc exists.
 * libcamera's GStreamer element before 0.3 (Debian 12 ships 0.0.3) releases the manager when the
 * element closes, while buffers it gave out may still be held (a frame an app kept); freeing those
 * afterwards uses the destroyed manager and crashes (libcamera bug 211, fixed by 0c9862d6 in 0.3).
 * Holding one reference to the plugin's own singleton (one manager per process is all libcamera
 * allows) closes that window for every version. Returns 0, or -1 when the plugin or its
 * gst_libcamera_get_camera_manager is not found (then nothing is held). */
int ck_libcamera_keep_camera_manager(GstElement *libcamerasrc);

#endif
