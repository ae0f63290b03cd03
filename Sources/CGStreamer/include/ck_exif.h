#ifndef CK_EXIF_H
#define CK_EXIF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of ck_exif_normalize().
#define CK_EXIF_OK 0
#define CK_EXIF_ERR_NOT_JPEG (-1)
#define CK_EXIF_ERR_BAD_EXIF (-2)
#define CK_EXIF_ERR_NO_MEMORY (-3)

/// Rewrites the APP1 EXIF segment of a baseline JPEG so it is complete and well-formed.
/// width/height are the image's pixel dimensions (for ExifImageWidth/Height);
/// pass 0 for either to take it from the JPEG's SOF marker.
/// On success returns 0 and sets *out/*out_len to a malloc'd new JPEG (caller frees with free()).
/// On failure returns a negative code and leaves *out NULL: -1 not a JPEG, -2 no EXIF/bad EXIF,
/// -3 out of memory.
///
/// Behaviour:
///  - every tag already present is kept with its value (date strings written by GStreamer as
///    ISO 8601 text, or with "-1" fields, are reformatted to "YYYY:MM:DD HH:MM:SS");
///  - missing required tags are added: XResolution/YResolution 72/1, ResolutionUnit inch,
///    YCbCrPositioning centered, ExifVersion 0230, FlashpixVersion 0100, ColorSpace sRGB,
///    ComponentsConfiguration "Y Cb Cr -", ExifImageWidth/Height = width/height;
///  - any thumbnail (IFD1) is dropped; all values are word-aligned;
///  - the new Exif APP1 is placed directly after SOI; the old Exif APP1 and the JFIF/JFXX
///    APP0 are removed; all other segments (XMP, tables, scan data) are copied unchanged.
///  - a JPEG without an Exif APP1 gets a new one (still returns 0).
int ck_exif_normalize(const unsigned char *jpeg, size_t len, unsigned width, unsigned height,
                      unsigned char **out, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif /* CK_EXIF_H */
