/*
 * ck_faces_loader.c - ck_faces.h's API, forwarded to libCaptureKitFaces.so (shim/, built by
 * FacesLibraryPlugin), which is opened on first use (dlopen). Linking OpenCV into every CaptureKit
 * process costs about 10 ms at start (its libraries and their static constructors); only
 * processes that look for faces pay it.
 */
#define _GNU_SOURCE
#include "ck_faces.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
	int (*open)(const char*, ck_face_detector**);
	uint32_t (*passes)(const ck_face_detector*);
	int (*detect)(ck_face_detector*, const uint8_t*, int32_t, int32_t, int32_t, int32_t, uint32_t, ck_face_results**);
	void (*results_free)(ck_face_results*);
	void (*close)(ck_face_detector*);
	const char* (*version)(void);
} impl;

/* SwiftPM's resource folder for this target: "<package name>_<target name>.resources". */
#define RESOURCE_FOLDER "CaptureKit_CFacesLoader.resources"
#define LIBRARY_NAME "libCaptureKitFaces.so"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded = false;

/* The folder of the file holding this code (the executable, a test bundle or a shared library
 * CaptureKit was linked into), with its trailing slash; the main program's through /proc/self/exe,
 * since dladdr names it as it was started (argv[0], possibly found on PATH). */
static bool binary_folder(char *folder, size_t size)
{
	Dl_info info;
	struct link_map *map = NULL;
	if (!dladdr1((void *)&ck_faces_library_loaded, &info, (void **)&map, RTLD_DL_LINKMAP)) return false;
	char path[PATH_MAX];
	if (map && map->l_name && map->l_name[0] == '/') {
		if (strlen(map->l_name) >= sizeof(path)) return false;
		strcpy(path, map->l_name);
	} else {
		ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
		if (length <= 0) return false;
		path[length] = '\0';
	}
	char *slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) + 2 > size) return false;
	slash[1] = '\0';
	strcpy(folder, path);
	return true;
}

/* dlopen of `name` in the binary's folder. */
static void *open_in_binary_folder(const char *name)
{
	char path[PATH_MAX];
	if (!binary_folder(path, sizeof(path)) || strlen(path) + strlen(name) + 1 > sizeof(path)) return NULL;
	strcat(path, name);
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* Where the library is looked for, in order:
 * 1. $CAPTUREKIT_FACES_LIBRARY;
 * 2. CaptureKit_CFacesLoader.resources/ beside the binary: where SwiftPM copies it in every build
 *    that includes CaptureKit (FacesLibraryPlugin builds it as this target's resource); an
 *    installed executable takes that folder along, as any SwiftPM resource bundle;
 * 3. beside the binary;
 * 4. the dynamic linker's search path (an installed library). */
static void load(void)
{
	const char *explicit_path = getenv("CAPTUREKIT_FACES_LIBRARY");
	void *library = explicit_path && *explicit_path ? dlopen(explicit_path, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!library) library = open_in_binary_folder(RESOURCE_FOLDER "/" LIBRARY_NAME);
	if (!library) library = open_in_binary_folder(LIBRARY_NAME);
	if (!library) library = dlopen(LIBRARY_NAME, RTLD_NOW | RTLD_LOCAL);
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
