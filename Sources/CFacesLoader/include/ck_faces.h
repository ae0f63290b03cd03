/*
 * ck_faces.h - plain C interface over Debian's OpenCV 4.6 cascade classifiers
 * (libopencv-objdetect-dev; the cascades come from opencv-data).
 *
 * Only C types appear here, so a Swift target can import it directly. The functions forward to
 * libCaptureKitFaces.so (../shim, linked with opencv_objdetect, opencv_imgproc and opencv_core),
 * opened on first use so that OpenCV is loaded only by processes that look for faces.
 *
 * Thread safety: a detector handle is for ONE THREAD AT A TIME. OpenCV's
 * cv::CascadeClassifier::detectMultiScale keeps per-call scratch data in the
 * classifier, so two concurrent ck_faces_detect() calls on the same handle are
 * a data race. Serialize the calls (the Swift wrapper holds the handle in a
 * Mutex) or open one handle per thread. Different handles share nothing.
 * OpenCV itself may spread one call over its own worker threads.
 */
#ifndef CK_FACES_H
#define CK_FACES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck_face_detector ck_face_detector; /* opaque */

/* ---- passes (bitmask for ck_faces_detect) ---- */
#define CK_FACES_PASS_FRONTAL  0x1u /* frontal cascade on the upright image: yaw 0, roll 0 (+-15) */
#define CK_FACES_PASS_PROFILE  0x2u /* profile cascade on the image and its mirror: yaw -90 / +90 */
#define CK_FACES_PASS_ROLL     0x4u /* the passes above also on the image turned +-30 degrees: roll +-30 */
#define CK_FACES_PASS_DEFAULT  CK_FACES_PASS_FRONTAL
#define CK_FACES_PASS_ALL      0x7u

typedef struct ck_face {
	double x, y, width, height; /* axis-aligned box in pixels of the full input buffer */
	bool has_roll;
	double roll;   /* degrees, positive = face turned clockwise on screen (y down);
	                  0 from upright passes, +-30 from CK_FACES_PASS_ROLL (each +-15) */
	bool has_yaw;
	double yaw;    /* degrees: 0 frontal, +90 face looks toward the image's right
	                  (left cheek to the camera), -90 toward the image's left */
	int32_t score; /* neighbouring raw detections OpenCV merged into this one (>= min neighbours) */
} ck_face;

typedef struct ck_face_results {
	int32_t count;
	ck_face* items; /* count entries; everything lives in one allocation */
} ck_face_results;

/* Status codes */
#define CK_FACES_OK            0
#define CK_FACES_E_ARGUMENT  (-1)
#define CK_FACES_E_NOMEM     (-2)
#define CK_FACES_E_INTERNAL  (-3) /* a C++ exception escaped from OpenCV (caught here) */
#define CK_FACES_E_CASCADE   (-4) /* the frontal cascade is missing or unreadable */
#define CK_FACES_E_LIBRARY   (-5) /* libCaptureKitFaces.so (OpenCV) could not be loaded */

/*
 * Load the cascades from cascade_dir: Debian's "/usr/share/opencv4" (opencv-data), i.e. a
 * folder holding haarcascades/, or a folder holding the XML files themselves.
 *   frontal: haarcascade_frontalface_alt2.xml (required)
 *   profile: haarcascade_profileface.xml      (optional; without it CK_FACES_PASS_PROFILE does nothing)
 *   out:     receives the handle to release with ck_faces_close(); NULL on error.
 * Returns CK_FACES_OK or a negative CK_FACES_E_* code.
 */
int ck_faces_open(const char* cascade_dir, ck_face_detector** out);

/* The CK_FACES_PASS_* bits this detector can run (PROFILE only if its cascade loaded). */
uint32_t ck_faces_passes(const ck_face_detector* detector);

/*
 * Find faces in an 8-bit grayscale buffer.
 *   gray:        first pixel of the first row
 *   width/height: in pixels (> 0)
 *   row_stride:  bytes between rows (>= width; 0 means width)
 *   min_size:    smallest face side in input pixels; <= 0 means 1/12 of the shorter side
 *   passes:      CK_FACES_PASS_* bits; 0 means CK_FACES_PASS_DEFAULT
 *   out:         receives a block to release with ck_face_results_free() (also on 0 faces);
 *                set to NULL on error.
 * The image is downscaled (area averaging) so that its longer side is <= 640 before detection;
 * boxes are mapped back. Results are ordered by score, overlapping hits of several passes merged.
 * Returns CK_FACES_OK or a negative CK_FACES_E_* code.
 */
int ck_faces_detect(ck_face_detector* detector, const uint8_t* gray, int32_t width, int32_t height,
                    int32_t row_stride, int32_t min_size, uint32_t passes, ck_face_results** out);

/* Release a block returned by ck_faces_detect (NULL is fine). */
void ck_face_results_free(ck_face_results* results);

/* Release a detector (NULL is fine). */
void ck_faces_close(ck_face_detector* detector);

/* Version of the OpenCV library this shim was built against, e.g. "4.6.0"; "" when the face
 * library cannot be loaded. */
const char* ck_faces_opencv_version(void);

/* Whether libCaptureKitFaces.so is loaded, loading it on first use: from where
 * CAPTUREKIT_FACES_LIBRARY says, else from CaptureKit_CFacesLoader.resources/ beside the running
 * executable or test bundle (where SwiftPM puts it in this package's build and in any package
 * depending on CaptureKit), else beside the binary, else from the dynamic linker's path. */
bool ck_faces_library_loaded(void);

#ifdef __cplusplus
}
#endif

#endif /* CK_FACES_H */
