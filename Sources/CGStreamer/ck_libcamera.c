/* ck_libcamera.c - one lasting reference to libcamera's CameraManager (see ck_libcamera.h). */
#include "ck_libcamera.h"

#include <dlfcn.h>
#include <pthread.h>

/* The plugin's `std::shared_ptr<CameraManager> gst_libcamera_get_camera_manager(int &ret)`.
 * A shared_ptr is not trivially copyable, so the C++ ABI returns it through a caller-provided
 * buffer: the hidden first argument on x86-64, x8 on AArch64. A C struct larger than 16 bytes is
 * returned the same way on both, so this declaration matches the call; the callee fills the
 * first two words (object and control block). */
typedef struct { void *words[3]; } ck_shared_ptr_slot;
typedef ck_shared_ptr_slot (*ck_get_camera_manager_fn)(int *ret);

static pthread_mutex_t ck_libcamera_lock = PTHREAD_MUTEX_INITIALIZER;
static ck_shared_ptr_slot ck_libcamera_manager; /* held until exit, never released */
static int ck_libcamera_held;

int ck_libcamera_keep_camera_manager(GstElement *libcamerasrc) {
	int result = -1;
	pthread_mutex_lock(&ck_libcamera_lock);
	if (ck_libcamera_held) {
		result = 0;
		goto out;
	}
	GstElementFactory *factory = libcamerasrc ? gst_element_get_factory(libcamerasrc) : NULL;
	GstPlugin *plugin = factory ? gst_plugin_feature_get_plugin(GST_PLUGIN_FEATURE(factory)) : NULL;
	const gchar *path = plugin ? gst_plugin_get_filename(plugin) : NULL;
	void *library = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	ck_get_camera_manager_fn get = library ? (ck_get_camera_manager_fn)dlsym(library, "_Z32gst_libcamera_get_camera_managerRi") : NULL;
	if (get) {
		int status = 0;
		ck_libcamera_manager = get(&status);
		ck_libcamera_held = 1;
		result = status == 0 ? 0 : -1;
	}
	/* The plugin stays loaded (GStreamer never unloads one): the handle's count is dropped. */
	if (library) dlclose(library);
	if (plugin) gst_object_unref(plugin);
out:
	pthread_mutex_unlock(&ck_libcamera_lock);
	return result;
}
