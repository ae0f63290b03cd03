/* ck_exif.c - rewrite the Exif APP1 of a JPEG so it is complete and well-formed (libexif). */
#include "ck_exif.h"

#include <libexif/exif-content.h>
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-log.h>
#include <libexif/exif-mem.h>
#include <libexif/exif-utils.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------- */
/* JPEG structure                                                            */
/* ------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *exif;  /* payload of the first Exif APP1, starting at "Exif\0\0" */
    size_t exif_len;
    size_t drop_bytes;          /* bytes of segments that will not be copied */
    size_t body;                /* offset of the first segment after SOI */
    unsigned sof_width, sof_height;
} JpegInfo;

static int is_exif_app1(const unsigned char *seg, size_t seglen)
{
    /* seg points at the 0xFF of the marker; seglen = 2 + length field */
    return seg[1] == 0xE1 && seglen >= 4 + 6 && memcmp(seg + 4, "Exif\0\0", 6) == 0;
}

static int is_jfif_app0(const unsigned char *seg, size_t seglen)
{
    return seg[1] == 0xE0 && seglen >= 4 + 5 &&
           (memcmp(seg + 4, "JFIF\0", 5) == 0 || memcmp(seg + 4, "JFXX\0", 5) == 0);
}

static int is_sof(unsigned char m)
{
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

/* Walks the header segments up to SOS. Returns 0 or CK_EXIF_ERR_NOT_JPEG. */
static int jpeg_scan(const unsigned char *p, size_t len, JpegInfo *ji)
{
    size_t pos = 2;

    memset(ji, 0, sizeof *ji);
    if (len < 4 || p[0] != 0xFF || p[1] != 0xD8)
        return CK_EXIF_ERR_NOT_JPEG;
    ji->body = 2;
    for (;;) {
        unsigned char m;
        size_t seglen, start = pos;

        if (pos + 2 > len || p[pos] != 0xFF)
            return CK_EXIF_ERR_NOT_JPEG;
        while (pos + 1 < len && p[pos + 1] == 0xFF) /* fill bytes */
            pos++;
        if (pos + 2 > len)
            return CK_EXIF_ERR_NOT_JPEG;
        m = p[pos + 1];
        if (m == 0xDA) /* SOS: the rest is entropy-coded data, copied verbatim */
            return 0;
        if (m == 0xD8 || m == 0xD9 || m == 0x00)
            return CK_EXIF_ERR_NOT_JPEG;
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) { /* stand-alone markers */
            pos += 2;
            continue;
        }
        if (pos + 4 > len)
            return CK_EXIF_ERR_NOT_JPEG;
        seglen = 2 + (((size_t)p[pos + 2] << 8) | p[pos + 3]);
        if (seglen < 4 || pos + seglen > len)
            return CK_EXIF_ERR_NOT_JPEG;
        if (is_exif_app1(p + pos, seglen)) {
            if (!ji->exif) {
                ji->exif = p + pos + 4;
                ji->exif_len = seglen - 4;
            }
            ji->drop_bytes += pos + seglen - start;
        } else if (is_jfif_app0(p + pos, seglen)) {
            ji->drop_bytes += pos + seglen - start;
        } else if (is_sof(m) && seglen >= 2 + 8 && !ji->sof_width) {
            ji->sof_height = ((unsigned)p[pos + 5] << 8) | p[pos + 6];
            ji->sof_width = ((unsigned)p[pos + 7] << 8) | p[pos + 8];
        }
        pos += seglen;
    }
}

/* Basic sanity check of the TIFF structure inside "Exif\0\0...". Returns the number of IFD0
 * entries (>= 0), or -1 if the header is unusable. */
static long tiff_ifd0_count(const unsigned char *exif, size_t len)
{
    const unsigned char *t = exif + 6;
    size_t tl, off;
    int le;

    if (len < 6 + 8)
        return -1;
    tl = len - 6;
    if (t[0] == 'I' && t[1] == 'I' && t[2] == 42 && t[3] == 0)
        le = 1;
    else if (t[0] == 'M' && t[1] == 'M' && t[2] == 0 && t[3] == 42)
        le = 0;
    else
        return -1;
    off = le ? ((size_t)t[4] | (size_t)t[5] << 8 | (size_t)t[6] << 16 | (size_t)t[7] << 24)
             : ((size_t)t[7] | (size_t)t[6] << 8 | (size_t)t[5] << 16 | (size_t)t[4] << 24);
    if (off < 8 || off > tl - 2)
        return -1;
    return le ? (long)(t[off] | t[off + 1] << 8) : (long)(t[off + 1] | t[off] << 8);
}

/* ------------------------------------------------------------------------- */
/* libexif helpers                                                           */
/* ------------------------------------------------------------------------- */

typedef struct {
    ExifData *ed;
    ExifMem *mem;
    ExifByteOrder bo;
    int nomem;
} Ctx;

static void log_cb(ExifLog *log, ExifLogCode code, const char *domain, const char *format,
                   va_list args, void *data)
{
    Ctx *c = data;
    (void)log;
    if (code == EXIF_LOG_CODE_NO_MEMORY)
        c->nomem = 1;
#ifdef CK_EXIF_DEBUG
    fprintf(stderr, "[libexif %s] ", domain);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
#else
    (void)domain;
    (void)format;
    (void)args;
#endif
}

static void remove_tag(ExifContent *ct, ExifTag tag)
{
    ExifEntry *e;
    while ((e = exif_content_get_entry(ct, tag)) != NULL)
        exif_content_remove_entry(ct, e);
}

static void clear_ifd(ExifContent *ct)
{
    while (ct->count)
        exif_content_remove_entry(ct, ct->entries[ct->count - 1]);
}

/* Replaces any existing entry `tag` in `ifd` by a zero-filled one of the given format/count.
 * Returns the new entry (owned by the content) or NULL on out-of-memory. */
static ExifEntry *put_entry(Ctx *c, ExifIfd ifd, ExifTag tag, ExifFormat fmt,
                            unsigned long components)
{
    ExifContent *ct = c->ed->ifd[ifd];
    size_t size = exif_format_get_size(fmt) * components;
    ExifEntry *e;
    unsigned int before;

    remove_tag(ct, tag);
    e = exif_entry_new_mem(c->mem);
    if (!e)
        goto oom;
    e->data = exif_mem_alloc(c->mem, size);
    if (!e->data) {
        exif_entry_unref(e);
        goto oom;
    }
    memset(e->data, 0, size);
    e->tag = tag;
    e->format = fmt;
    e->components = components;
    e->size = (unsigned int)size;
    before = ct->count;
    exif_content_add_entry(ct, e);
    exif_entry_unref(e);
    if (ct->count != before + 1)
        goto oom;
    return e;
oom:
    c->nomem = 1;
    return NULL;
}

static void put_short(Ctx *c, ExifIfd ifd, ExifTag tag, ExifShort v)
{
    ExifEntry *e = put_entry(c, ifd, tag, EXIF_FORMAT_SHORT, 1);
    if (e)
        exif_set_short(e->data, c->bo, v);
}

static void put_long(Ctx *c, ExifIfd ifd, ExifTag tag, ExifLong v)
{
    ExifEntry *e = put_entry(c, ifd, tag, EXIF_FORMAT_LONG, 1);
    if (e)
        exif_set_long(e->data, c->bo, v);
}

static void put_rational(Ctx *c, ExifIfd ifd, ExifTag tag, ExifRational v)
{
    ExifEntry *e = put_entry(c, ifd, tag, EXIF_FORMAT_RATIONAL, 1);
    if (e)
        exif_set_rational(e->data, c->bo, v);
}

static void put_undefined(Ctx *c, ExifIfd ifd, ExifTag tag, const void *bytes, size_t n)
{
    ExifEntry *e = put_entry(c, ifd, tag, EXIF_FORMAT_UNDEFINED, n);
    if (e)
        memcpy(e->data, bytes, n);
}

static void put_ascii(Ctx *c, ExifIfd ifd, ExifTag tag, const char *s)
{
    size_t n = strlen(s) + 1;
    ExifEntry *e = put_entry(c, ifd, tag, EXIF_FORMAT_ASCII, n);
    if (e)
        memcpy(e->data, s, n);
}

/* Reads a single unsigned integer value (SHORT or LONG); returns 0 if absent/other type. */
static int get_uint(Ctx *c, ExifIfd ifd, ExifTag tag, unsigned long *v)
{
    ExifEntry *e = exif_content_get_entry(c->ed->ifd[ifd], tag);
    if (!e || !e->data || e->components != 1)
        return 0;
    if (e->format == EXIF_FORMAT_SHORT && e->size >= 2)
        *v = exif_get_short(e->data, c->bo);
    else if (e->format == EXIF_FORMAT_LONG && e->size >= 4)
        *v = exif_get_long(e->data, c->bo);
    else
        return 0;
    return 1;
}

static int rational_ok(Ctx *c, ExifIfd ifd, ExifTag tag, ExifRational *r)
{
    ExifEntry *e = exif_content_get_entry(c->ed->ifd[ifd], tag);
    if (!e || !e->data || e->format != EXIF_FORMAT_RATIONAL || e->components != 1 || e->size < 8)
        return 0;
    *r = exif_get_rational(e->data, c->bo);
    return r->denominator != 0;
}

static int version_ok(Ctx *c, ExifIfd ifd, ExifTag tag)
{
    ExifEntry *e = exif_content_get_entry(c->ed->ifd[ifd], tag);
    int i;
    if (!e || !e->data || e->format != EXIF_FORMAT_UNDEFINED || e->components != 4 || e->size != 4)
        return 0;
    for (i = 0; i < 4; i++)
        if (e->data[i] < '0' || e->data[i] > '9')
            return 0;
    return 1;
}

/* Lowest ExifVersion that defines every tag present in the Exif IFD (exiftool -validate checks
 * this; e.g. OffsetTime* needs 0231). Only tags introduced after Exif 2.1 matter here. */
static int required_exif_version(Ctx *c)
{
    ExifContent *ct = c->ed->ifd[EXIF_IFD_EXIF];
    int need = 0, v;
    unsigned int i;
    for (i = 0; i < ct->count; i++) {
        unsigned t = ct->entries[i]->tag;
        if (t >= 0xA460 && t <= 0xA462)
            v = 232;
        else if ((t >= 0x9010 && t <= 0x9012) || (t >= 0x9400 && t <= 0x9405))
            v = 231;
        else if ((t >= 0x8830 && t <= 0x8835) || (t >= 0xA430 && t <= 0xA435))
            v = 230;
        else if (t == 0xA500)
            v = 221;
        else if (t == 0x9214 || (t >= 0xA401 && t <= 0xA40C) || t == 0xA420)
            v = 220;
        else
            v = 0;
        need = v > need ? v : need;
    }
    return need;
}

/* Reformats an Exif date/time string in place if needed. GStreamer writes the "datetime" tag
 * verbatim when it is a plain string (e.g. ISO 8601 "2026-11-22T10:00:00Z") and prints "-1" for
 * the missing fields of a partial GstDateTime ("2026:11:22 -1:-1:-1"). The result is
 * "YYYY:MM:DD HH:MM:SS"; missing or out-of-range fields become 01 (month/day) or 00 (time), the
 * same defaults GStreamer's own Exif reader uses (exiftool rejects partially blank values).
 * A time-zone suffix or fraction is dropped (OffsetTime* would need Exif 2.31).
 * Values that do not start with a 4-digit year are left alone. */
static void fix_date(Ctx *c, ExifIfd ifd, ExifTag tag)
{
    static const int lo[6] = {0, 1, 1, 0, 0, 0}, hi[6] = {9999, 12, 31, 23, 59, 59};
    static const int dflt[6] = {0, 1, 1, 0, 0, 0};
    ExifEntry *e = exif_content_get_entry(c->ed->ifd[ifd], tag);
    char src[64], dst[32];
    int f[6], i, n = 0;
    const char *s;
    size_t len;

    if (!e || !e->data || e->format != EXIF_FORMAT_ASCII || e->size == 0)
        return;
    len = e->size < sizeof src - 1 ? e->size : sizeof src - 1;
    memcpy(src, e->data, len);
    src[len] = '\0';
    s = src;
    for (i = 0; i < 6; i++)
        f[i] = -1;
    /* year */
    for (i = 0; i < 4; i++)
        if (s[i] < '0' || s[i] > '9')
            return;
    f[n++] = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    s += 4;
    while (n < 6) {
        char sep = *s;
        int sep_ok = n < 3 ? (sep == ':' || sep == '-') : n == 3 ? (sep == 'T' || sep == ' ')
                                                                 : sep == ':';
        if (!sep_ok)
            break;
        s++;
        if (s[0] == '-' && s[1] == '1') { /* GStreamer's "%02d" of an unset field */
            s += 2;
        } else if (s[0] == ' ' && s[1] == ' ') { /* blank field */
            s += 2;
        } else if (s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9') {
            f[n] = (s[0] - '0') * 10 + (s[1] - '0');
            s += 2;
        } else {
            break;
        }
        n++;
    }
    for (i = 1; i < 6; i++)
        if (f[i] < lo[i] || f[i] > hi[i])
            f[i] = dflt[i];
    snprintf(dst, sizeof dst, "%04d:%02d:%02d %02d:%02d:%02d", f[0], f[1], f[2], f[3], f[4], f[5]);
    if (e->size == 20 && memcmp(e->data, dst, 20) == 0)
        return; /* already canonical */
    put_ascii(c, ifd, tag, dst);
}

/* ------------------------------------------------------------------------- */
/* Public entry point                                                        */
/* ------------------------------------------------------------------------- */

int ck_exif_normalize(const unsigned char *jpeg, size_t len, unsigned width, unsigned height,
                      unsigned char **out, size_t *out_len)
{
    static const unsigned char comp_cfg[4] = {1, 2, 3, 0}; /* Y Cb Cr - */
    JpegInfo ji;
    Ctx c;
    ExifLog *log = NULL;
    unsigned char *exif_buf = NULL, *res = NULL;
    unsigned int exif_size = 0;
    int rc, gps_empty, interop_empty, had_version, had_colorspace;
    unsigned long v;
    ExifRational r, xres = {72, 1}, yres = {72, 1};

    if (out)
        *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!jpeg || !out || !out_len)
        return CK_EXIF_ERR_NOT_JPEG;

    rc = jpeg_scan(jpeg, len, &ji);
    if (rc)
        return rc;
    if (ji.exif && tiff_ifd0_count(ji.exif, ji.exif_len) < 0)
        return CK_EXIF_ERR_BAD_EXIF;
    if (!width && !height) {
        width = ji.sof_width;
        height = ji.sof_height;
    }

    memset(&c, 0, sizeof c);
    c.mem = exif_mem_new_default();
    if (!c.mem)
        return CK_EXIF_ERR_NO_MEMORY;
    c.ed = exif_data_new_mem(c.mem);
    if (!c.ed) {
        rc = CK_EXIF_ERR_NO_MEMORY;
        goto done;
    }
    log = exif_log_new_mem(c.mem);
    if (log) {
        exif_log_set_func(log, log_cb, &c);
        exif_data_log(c.ed, log);
    }
    /* Load everything verbatim (unknown tags too); exif_data_fix() is run explicitly below. */
    exif_data_unset_option(c.ed, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_unset_option(c.ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_set_option(c.ed, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE);
    exif_data_set_data_type(c.ed, EXIF_DATA_TYPE_COMPRESSED);

    if (ji.exif) {
        long n0 = tiff_ifd0_count(ji.exif, ji.exif_len);
        exif_data_load_data(c.ed, ji.exif, (unsigned int)ji.exif_len);
        if (c.nomem) {
            rc = CK_EXIF_ERR_NO_MEMORY;
            goto done;
        }
        if (n0 > 0 && c.ed->ifd[EXIF_IFD_0]->count == 0) {
            rc = CK_EXIF_ERR_BAD_EXIF;
            goto done;
        }
        c.bo = exif_data_get_byte_order(c.ed);
    } else {
        c.bo = EXIF_BYTE_ORDER_INTEL;
        exif_data_set_byte_order(c.ed, c.bo);
    }

    /* Keep the thumbnail out. */
    if (c.ed->data) {
        exif_mem_free(c.mem, c.ed->data);
        c.ed->data = NULL;
        c.ed->size = 0;
    }
    clear_ifd(c.ed->ifd[EXIF_IFD_1]);

    gps_empty = c.ed->ifd[EXIF_IFD_GPS]->count == 0;
    interop_empty = c.ed->ifd[EXIF_IFD_INTEROPERABILITY]->count == 0;
    had_version = version_ok(&c, EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION);
    had_colorspace = get_uint(&c, EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, &v) && (v == 1 || v == 0xFFFF);

    /* Let libexif fix formats, drop tags that do not belong in a compressed image and add the
     * mandatory ones; then pin the values we want. */
    exif_data_fix(c.ed);
    if (gps_empty)
        clear_ifd(c.ed->ifd[EXIF_IFD_GPS]);
    if (interop_empty)
        clear_ifd(c.ed->ifd[EXIF_IFD_INTEROPERABILITY]);
    clear_ifd(c.ed->ifd[EXIF_IFD_1]);

    /* IFD0 */
    if (rational_ok(&c, EXIF_IFD_0, EXIF_TAG_X_RESOLUTION, &r))
        xres = yres = r;
    if (rational_ok(&c, EXIF_IFD_0, EXIF_TAG_Y_RESOLUTION, &r)) {
        yres = r;
        if (!rational_ok(&c, EXIF_IFD_0, EXIF_TAG_X_RESOLUTION, &xres))
            xres = r;
    }
    put_rational(&c, EXIF_IFD_0, EXIF_TAG_X_RESOLUTION, xres);
    put_rational(&c, EXIF_IFD_0, EXIF_TAG_Y_RESOLUTION, yres);
    if (!get_uint(&c, EXIF_IFD_0, EXIF_TAG_RESOLUTION_UNIT, &v) || v < 1 || v > 3)
        put_short(&c, EXIF_IFD_0, EXIF_TAG_RESOLUTION_UNIT, 2); /* inch */
    if (!get_uint(&c, EXIF_IFD_0, EXIF_TAG_YCBCR_POSITIONING, &v) || v < 1 || v > 2)
        put_short(&c, EXIF_IFD_0, EXIF_TAG_YCBCR_POSITIONING, 1); /* centered */
    fix_date(&c, EXIF_IFD_0, EXIF_TAG_DATE_TIME);

    /* Exif IFD */
    {
        /* keep an existing version unless a tag present needs a newer one; default 0230 */
        int need = required_exif_version(&c), have = 0;
        ExifEntry *e = exif_content_get_entry(c.ed->ifd[EXIF_IFD_EXIF], EXIF_TAG_EXIF_VERSION);
        if (had_version && version_ok(&c, EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION))
            have = (e->data[0] - '0') * 1000 + (e->data[1] - '0') * 100 +
                   (e->data[2] - '0') * 10 + (e->data[3] - '0');
        else if (need < 230)
            need = 230;
        if (have < need) {
            char ver[4];
            ver[0] = (char)('0' + need / 1000 % 10);
            ver[1] = (char)('0' + need / 100 % 10);
            ver[2] = (char)('0' + need / 10 % 10);
            ver[3] = (char)('0' + need % 10);
            put_undefined(&c, EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION, ver, 4);
        }
    }
    if (!version_ok(&c, EXIF_IFD_EXIF, EXIF_TAG_FLASH_PIX_VERSION))
        put_undefined(&c, EXIF_IFD_EXIF, EXIF_TAG_FLASH_PIX_VERSION, "0100", 4);
    if (!had_colorspace) /* libexif's default would be "Uncalibrated" */
        put_short(&c, EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, 1); /* sRGB */
    {
        ExifEntry *e = exif_content_get_entry(c.ed->ifd[EXIF_IFD_EXIF],
                                              EXIF_TAG_COMPONENTS_CONFIGURATION);
        if (!e || !e->data || e->format != EXIF_FORMAT_UNDEFINED || e->size != 4)
            put_undefined(&c, EXIF_IFD_EXIF, EXIF_TAG_COMPONENTS_CONFIGURATION, comp_cfg, 4);
    }
    put_long(&c, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION, width);
    put_long(&c, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION, height);
    fix_date(&c, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL);
    fix_date(&c, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_DIGITIZED);

    /* GPS IFD (GStreamer writes the geo-location-* tags without GPSVersionID) */
    if (c.ed->ifd[EXIF_IFD_GPS]->count &&
        !exif_content_get_entry(c.ed->ifd[EXIF_IFD_GPS], (ExifTag)EXIF_TAG_GPS_VERSION_ID)) {
        static const unsigned char gps_ver[4] = {2, 3, 0, 0};
        ExifEntry *e = put_entry(&c, EXIF_IFD_GPS, (ExifTag)EXIF_TAG_GPS_VERSION_ID,
                                 EXIF_FORMAT_BYTE, 4);
        if (e)
            memcpy(e->data, gps_ver, 4);
    }
    if (c.nomem) {
        rc = CK_EXIF_ERR_NO_MEMORY;
        goto done;
    }

    exif_data_save_data(c.ed, &exif_buf, &exif_size);
    if (!exif_buf || exif_size == 0 || c.nomem) {
        rc = CK_EXIF_ERR_NO_MEMORY;
        goto done;
    }
    if ((size_t)exif_size + 2 > 0xFFFF) { /* does not fit into one APP1 segment */
        rc = CK_EXIF_ERR_BAD_EXIF;
        goto done;
    }

    {
        size_t total = len - ji.drop_bytes + 4 + exif_size, o = 0, pos = ji.body;
        res = malloc(total);
        if (!res) {
            rc = CK_EXIF_ERR_NO_MEMORY;
            goto done;
        }
        res[o++] = 0xFF;
        res[o++] = 0xD8;
        res[o++] = 0xFF;
        res[o++] = 0xE1;
        res[o++] = (unsigned char)((exif_size + 2) >> 8);
        res[o++] = (unsigned char)((exif_size + 2) & 0xFF);
        memcpy(res + o, exif_buf, exif_size);
        o += exif_size;
        /* copy the remaining header segments except old Exif APP1 / JFIF APP0, then the rest */
        for (;;) {
            size_t start = pos, seglen;
            unsigned char m;
            while (jpeg[pos + 1] == 0xFF)
                pos++;
            m = jpeg[pos + 1];
            if (m == 0xDA) {
                memcpy(res + o, jpeg + start, len - start);
                o += len - start;
                break;
            }
            if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {
                seglen = 2;
            } else {
                seglen = 2 + (((size_t)jpeg[pos + 2] << 8) | jpeg[pos + 3]);
                if (is_exif_app1(jpeg + pos, seglen) || is_jfif_app0(jpeg + pos, seglen)) {
                    pos += seglen;
                    continue;
                }
            }
            memcpy(res + o, jpeg + start, pos + seglen - start);
            o += pos + seglen - start;
            pos += seglen;
        }
        *out = res;
        *out_len = o;
        res = NULL;
        rc = CK_EXIF_OK;
    }

done:
    if (exif_buf)
        exif_mem_free(c.mem, exif_buf);
    if (c.ed)
        exif_data_unref(c.ed);
    if (log)
        exif_log_unref(log);
    exif_mem_unref(c.mem);
    free(res);
    return rc;
}
