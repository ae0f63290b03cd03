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
	                           Linear codes: the ends of the bars, traced along them from the
	                           scan line that decoded. */
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

/* ---- writing (ck_zxing_writer.cpp) ---- */

/* One encoded symbol: a module matrix and the text a reader reports for it. */
typedef struct ck_symbol {
	uint32_t format;        /* the CK_FORMAT_* bit asked for */
	int32_t width, height;  /* modules, without quiet zone; linear codes: height 1. PDF417's
	                           rows are 4 matrix rows each (zxing's row height) */
	const uint8_t* modules; /* width * height bytes, row-major, 1 = dark, 0 = light */
	const char* text;       /* what a reader reports (check digits added where the input had
	                           none; Code 39 mod 43: without its check character), NUL-terminated */
	int32_t text_length;    /* bytes, without the terminating NUL */
} ck_symbol;

/*
 * Encode text (UTF-8, text_length bytes) as one symbol of `format` (exactly one CK_FORMAT_* bit)
 * with zxing-cpp's MultiFormatWriter. The text is prepared first where the symbology needs it:
 *   EAN-13 / EAN-8 / ITF-14: 12 / 7 / 13 digits get their GS1 check digit; 13 / 8 / 14 digits
 *                            must carry the right one.
 *   UPC-E:       6 digits (number system 0 implied), 7 (number system 0 or 1 first) or 8 (with the
 *                check digit of the expanded UPC-A, verified).
 *   Code 39:     0-9 A-Z - . space $ / + % only (the reader does not use full-ASCII mode).
 *   Code 39 mod 43: the same characters; the mod-43 check character is appended.
 *   Interleaved 2 of 5: an even number of digits.
 *   Code 93, Code 128, PDF417, QR, Aztec, Data Matrix: the text as given.
 * out receives a block to release with ck_symbol_free(); NULL on error, when a message of at
 * most message_size bytes (NUL included) is written to message if it is not NULL.
 * Returns CK_OK, CK_E_ARGUMENT (text the symbology cannot carry), CK_E_NOMEM or CK_E_INTERNAL.
 */
int ck_encode(uint32_t format, const char* text, int32_t text_length, ck_symbol** out,
              char* message, int32_t message_size);

/* Release a block returned by ck_encode (NULL is fine). */
void ck_symbol_free(ck_symbol* symbol);

/* Human readable name of one CK_FORMAT_* bit ("EAN-13", ...); "" for unknown. */
const char* ck_format_name(uint32_t format);

/* Version of the zxing-cpp library this shim was built against, e.g. "1.4.0". */
const char* ck_zxing_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CK_ZXING_H */
