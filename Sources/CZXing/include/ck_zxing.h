/*
 * ck_zxing.h - plain C interface over Debian's zxing-cpp 1.4.0 (libzxing-dev).
 *
 * Only C types appear here, so a Swift target can import it
 * directly (Package.swift links "ZXing" and "stdc++").
 *
 * Thread safety: ck_decode_gray() keeps no global state; concurrent calls on
 * different buffers are fine.
 */
#ifndef CK_ZXING_H
#define CK_ZXING_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- symbology bitmask (names mirror AVFoundation's metadata object types) ---- */
#define CK_FORMAT_NONE          0x0000u
#define CK_FORMAT_UPCE          0x0001u
#define CK_FORMAT_CODE39        0x0002u /* any Code 39 (check char, if any, left in text) */
#define CK_FORMAT_CODE39_MOD43  0x0004u /* Code 39 whose last char is a valid mod-43 check; text without it */
#define CK_FORMAT_EAN13         0x0008u /* also UPC-A, reported as EAN-13 with a leading '0' */
#define CK_FORMAT_EAN8          0x0010u
#define CK_FORMAT_CODE93        0x0020u
#define CK_FORMAT_CODE128       0x0040u
#define CK_FORMAT_PDF417        0x0080u
#define CK_FORMAT_QR            0x0100u
#define CK_FORMAT_AZTEC         0x0200u
#define CK_FORMAT_DATAMATRIX    0x0400u
#define CK_FORMAT_I2OF5         0x0800u /* Interleaved 2 of 5 (any even length) */
#define CK_FORMAT_ITF14         0x1000u /* ITF with 14 digits and a valid GS1 check digit */
#define CK_FORMAT_ALL           0x1FFFu

/* ---- binarizer (same order as ZXing::Binarizer) ---- */
typedef enum ck_binarizer {
	CK_BINARIZER_LOCAL_AVERAGE   = 0, /* HybridBinarizer: default, best for camera frames */
	CK_BINARIZER_GLOBAL_HISTOGRAM = 1,
	CK_BINARIZER_FIXED_THRESHOLD = 2, /* T = 127 */
	CK_BINARIZER_BOOL_CAST       = 3  /* T = 0 (pre-binarized input only) */
} ck_binarizer;

typedef struct ck_rect {
	int32_t x, y, width, height;
} ck_rect;

typedef struct ck_options {
	uint32_t formats;       /* CK_FORMAT_* mask; 0 means CK_FORMAT_ALL */
	bool try_harder;        /* default true */
	bool try_rotate;        /* default true: also scan linear codes vertically */
	bool try_invert;        /* default false: second pass on an inverted copy (1.4 has no such hint) */
	bool try_downscale;     /* default true: also scan a 1/3-scaled layer when max(w,h) > 500 */
	ck_binarizer binarizer; /* default CK_BINARIZER_LOCAL_AVERAGE */
	int32_t max_symbols;    /* default 1; clamped to 1..255 */
	bool has_roi;           /* default false */
	ck_rect roi;            /* region of interest in pixels, clipped to the image */
} ck_options;

typedef struct ck_point {
	int32_t x, y;
} ck_point;

typedef struct ck_result {
	uint32_t format;        /* exactly one CK_FORMAT_* bit */
	const char* text;       /* UTF-8, NUL-terminated (may contain NULs: use text_length) */
	int32_t text_length;    /* bytes, without the terminating NUL */
	ck_point corners[4];    /* top-left, top-right, bottom-right, bottom-left of the symbol,
	                           in pixel coordinates of the full input buffer.
	                           Linear codes: the ends of the first and last scan line that decoded. */
	int32_t orientation;    /* degrees, direction of the symbol's reading axis (0 = left to right) */
} ck_result;

typedef struct ck_results {
	int32_t count;
	ck_result* items;       /* count entries; everything lives in one allocation */
} ck_results;

/* Status codes */
#define CK_OK              0
#define CK_E_ARGUMENT    (-1)
#define CK_E_NOMEM       (-2)
#define CK_E_INTERNAL    (-3)  /* a C++ exception escaped from zxing (caught here) */

/* Fill *opts with the defaults listed above. */
void ck_options_init(ck_options* opts);

/*
 * Decode barcodes from an 8-bit grayscale buffer.
 *   data:       first pixel of the first row
 *   width/height: in pixels (> 0)
 *   row_stride: bytes between rows (>= width; 0 means width)
 *   opts:       may be NULL for defaults
 *   out:        receives a block to release with ck_results_free() (also on 0 results);
 *               set to NULL on error.
 * Returns CK_OK or a negative CK_E_* code.
 */
int ck_decode_gray(const uint8_t* data, int32_t width, int32_t height, int32_t row_stride,
                   const ck_options* opts, ck_results** out);

/* Release a block returned by ck_decode_gray (NULL is fine). */
void ck_results_free(ck_results* results);

/* Human readable name of one CK_FORMAT_* bit ("EAN-13", ...); "" for unknown. */
const char* ck_format_name(uint32_t format);

/* Version of the zxing-cpp library this shim was built against, e.g. "1.4.0". */
const char* ck_zxing_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CK_ZXING_H */
