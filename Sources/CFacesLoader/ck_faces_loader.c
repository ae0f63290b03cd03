/*
 * ck_faces_loader.c - ck_faces.h's API, forwarded to libCaptureKitFaces.so, which is opened on
 * first use (dlopen). Linking OpenCV into every CaptureKit process costs about 10 ms at start
 * (its libraries and their static constructors); only processes that look for faces pay it.
 */
#define _GNU_SOURCE
#include "ck_faces.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int (*open)(const char*, ck_face_detector**);
	uint32_t (*passes)(const ck_face_detector*);
	int (*detect)(ck_face_detector*, const uint8_t*, int32_t, int32_t, int32_t, int32_t, uint32_t, ck_face_results**);
	void (*results_free)(ck_face_results*);
	void (*close)(ck_face_detector*);
	const char* (*version)(void);
} impl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded = false;

/* The library beside the file holding this code (the executable or test bundle). */
static void *open_beside_binary(void)
{
	Dl_info info;
	if (!dladdr((void *)&ck_faces_library_loaded, &info) || !info.dli_fname) return NULL;
	const char *slash = strrchr(info.dli_fname, '/');
	if (!slash) return NULL;
	char path[PATH_MAX];
	size_t dir = (size_t)(slash - info.dli_fname) + 1;
	const char *name = "libCaptureKitFaces.so";
	if (dir + strlen(name) + 1 > sizeof(path)) return NULL;
	memcpy(path, info.dli_fname, dir);
	strcpy(path + dir, name);
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static void load(void)
{
	const char *explicit_path = getenv("CAPTUREKIT_FACES_LIBRARY");
	void *library = explicit_path ? dlopen(explicit_path, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!library) library = open_beside_binary();
	if (!library) library = dlopen("libCaptureKitFaces.so", RTLD_NOW | RTLD_LOCAL);
	if (!library) return;
	impl.open = (int (*)(const char*, ck_face_detector**))dlsym(library, "ck_faces_impl_open");
	impl.passes = (uint32_t (*)(const ck_face_detector*))dlsym(library, "ck_faces_impl_passes");
	impl.detect = (int (*)(ck_face_detector*, const uint8_t*, int32_t, int32_t, int32_t, int32_t, uint32_t, ck_face_results**))
		dlsym(library, "ck_faces_impl_detect");
	impl.results_free = (void (*)(ck_face_results*))dlsym(library, "ck_faces_impl_results_free");
	impl.close = (void (*)(ck_face_detector*))dlsym(library, "ck_faces_impl_close");
	impl.version = (const char* (*)(void))dlsym(library, "ck_faces_impl_opencv_version");
	loaded = impl.open && impl.passes && impl.detect && impl.results_free && impl.close && impl.version;
}

bool ck_faces_library_loaded(void)
{
	pthread_once(&once, load);
	return loaded;
}

int ck_faces_open(const char *cascade_dir, ck_face_detector **out)
{
	if (out) *out = NULL;
	if (!ck_faces_library_loaded()) return CK_FACES_E_LIBRARY;
	return impl.open(cascade_dir, out);
}

uint32_t ck_faces_passes(const ck_face_detector *detector)
{
	return ck_faces_library_loaded() ? impl.passes(detector) : 0;
}

int ck_faces_detect(ck_face_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                    int32_t row_stride, int32_t min_size, uint32_t passes, ck_face_results **out)
{
	if (out) *out = NULL;
	if (!ck_faces_library_loaded()) return CK_FACES_E_LIBRARY;
	return impl.detect(detector, gray, width, height, row_stride, min_size, passes, out);
}

void ck_face_results_free(ck_face_results *results)
{
	if (results && ck_faces_library_loaded()) impl.results_free(results);
}

void ck_faces_close(ck_face_detector *detector)
{
	if (detector && ck_faces_library_loaded()) impl.close(detector);
}

const char *ck_faces_opencv_version(void)
{
	return ck_faces_library_loaded() ? impl.version() : "";
}
