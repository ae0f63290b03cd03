/*
 * ck_faces_impl.h - the entry points of libCaptureKitFaces.so, the OpenCV face shim built as a
 * dynamic library of its own by Plugins/FacesLibraryPlugin (not by SwiftPM's C++ rules: this
 * folder is excluded from the CFacesLoader target). Nothing links it: CFacesLoader opens it on
 * the first face detection (dlopen), so that processes that never look for faces do not pay for
 * loading OpenCV (about 10 ms per process start on this machine). The API is ck_faces.h's, renamed.
 */
#ifndef CK_FACES_IMPL_H
#define CK_FACES_IMPL_H

#include "ck_faces.h"

#ifdef __cplusplus
extern "C" {
#endif

int ck_faces_impl_open(const char* cascade_dir, ck_face_detector** out);
uint32_t ck_faces_impl_passes(const ck_face_detector* detector);
int ck_faces_impl_detect(ck_face_detector* detector, const uint8_t* gray, int32_t width, int32_t height,
                         int32_t row_stride, int32_t min_size, uint32_t passes, ck_face_results** out);
void ck_faces_impl_results_free(ck_face_results* results);
void ck_faces_impl_close(ck_face_detector* detector);
const char* ck_faces_impl_opencv_version(void);

#ifdef __cplusplus
}
#endif

#endif
