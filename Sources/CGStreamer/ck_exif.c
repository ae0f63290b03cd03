/* ck_exif.c - rewrite the Exif APP1 of a JPEG so it is complete and well-formed (libexif). */
#include "ck_exif.h"

#include <libexif/exif-content.h>
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-log.h>
#include <libexif/exif-mem.h>
#include <libexif/exif-utils.h>

#include <stdarg.h>
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

/* Raw view of the TIFF structure inside the Exif APP1 payload ("Exif\0\0" + TIFF). It is used
 * to reject unusable Exif (-2) and to notice entries that libexif dropped silently while loading
 * (exif_content_add_entry() ignores a failed realloc), so that out-of-memory is reported as -3
 * instead of producing a file with tags missing. */
typedef struct {
    const unsigned char *t; /* TIFF header */
    size_t size;            /* bytes libexif looks at (it caps the APP1 payload at 0xFFFE) */
    int le;
    long count[4];          /* entries per IFD: 0, Exif, GPS, Interop; -1 = not checked */
    unsigned long ifd0_n;   /* entry-count field of IFD0 */
} RawExif;

enum { RAW_IFD0, RAW_EXIF, RAW_GPS, RAW_IOP };

static unsigned long rd16(const RawExif *r, size_t o)
{
    return r->le ? (unsigned long)r->t[o] | (unsigned long)r->t[o + 1] << 8
                 : (unsigned long)r->t[o + 1] | (unsigned long)r->t[o] << 8;
}

static unsigned long rd32(const RawExif *r, size_t o)
{
    return r->le ? rd16(r, o) | rd16(r, o + 2) << 16 : rd16(r, o + 2) | rd16(r, o) << 16;
}

/* Counts the value entries (sub-IFD/thumbnail pointers excluded) that libexif is certain to load
 * from the IFD at `off`, and records sub-IFD offsets in ptr[] (0 = none). Returns -1 when the IFD
 * holds anything libexif may legitimately skip (bad format/count/offset, duplicates, ...). */
static long raw_ifd(const RawExif *r, size_t off, int ifd, size_t ptr[4])
{
    static const unsigned char fsize[13] = {0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8};
    unsigned long n, i, j;
    long cnt = 0;

    if (off < 8 || off + 2 > r->size)
        return -1;
    n = rd16(r, off);
    if (n > 1000 || off + 2 + 12 * n > r->size)
        return -1;
    for (i = 0; i < n; i++) {
        size_t e = off + 2 + 12 * i;
        unsigned long tag = rd16(r, e), fmt = rd16(r, e + 2), comp = rd32(r, e + 4), sz, doff;
        int sub = tag == 0x8769 ? RAW_EXIF : tag == 0x8825 ? RAW_GPS : tag == 0xA005 ? RAW_IOP : -1;

        for (j = 0; j < i; j++)
            if (rd16(r, off + 2 + 12 * j) == tag)
                return -1;
        if (sub >= 0) {
            if ((sub == RAW_IOP) != (ifd == RAW_EXIF) || (sub != RAW_IOP && ifd != RAW_IFD0) ||
                rd32(r, e + 8) >= r->size)
                return -1;
            ptr[sub] = rd32(r, e + 8);
            continue;
        }
        if (tag == 0x0201 || tag == 0x0202) /* thumbnail pointers: not entries */
            continue;
        if (fmt > 12 || !fsize[fmt] || comp == 0 || comp >= 0xFFFFFFFFUL / fsize[fmt])
            return -1;
        sz = fsize[fmt] * comp;
        doff = sz > 4 ? rd32(r, e + 8) : e + 8;
        if (doff >= r->size || sz > r->size - doff)
            return -1;
        cnt++;
    }
    return cnt;
}

/* Returns 0, or -1 if the TIFF header / IFD0 position is unusable. */
static int raw_exif_scan(const unsigned char *exif, size_t len, RawExif *r)
{
    size_t ptr[4] = {0, 0, 0, 0}, unused[4] = {0, 0, 0, 0};
    unsigned long off;
    int i;

    for (i = 0; i < 4; i++)
        r->count[i] = -1;
    if (len > 0xFFFE)
        len = 0xFFFE;
    if (len < 6 + 8)
        return -1;
    r->t = exif + 6;
    r->size = len - 6;
    if (r->t[0] == 'I' && r->t[1] == 'I')
        r->le = 1;
    else if (r->t[0] == 'M' && r->t[1] == 'M')
        r->le = 0;
    else
        return -1;
    if (rd16(r, 2) != 42)
        return -1;
    off = rd32(r, 4);
    if (off < 8 || off + 2 > r->size)
        return -1;
    r->ifd0_n = rd16(r, off);
    r->count[RAW_IFD0] = raw_ifd(r, off, RAW_IFD0, ptr);
    if (r->count[RAW_IFD0] < 0)
        return 0; /* header fine, but IFD0 content is not checkable */
    if (ptr[RAW_EXIF]) {
        r->count[RAW_EXIF] = raw_ifd(r, ptr[RAW_EXIF], RAW_EXIF, ptr);
        if (r->count[RAW_EXIF] >= 0 && ptr[RAW_IOP])
            r->count[RAW_IOP] = raw_ifd(r, ptr[RAW_IOP], RAW_IOP, unused);
    }
    if (ptr[RAW_GPS])
        r->count[RAW_GPS] = raw_ifd(r, ptr[RAW_GPS], RAW_GPS, unused);
    return 0;
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

/* exif_content_remove_entry() silently keeps the entry if its realloc fails. */
static int remove_entry(Ctx *c, ExifContent *ct, ExifEntry *e)
{
    unsigned int before = ct->count;
    exif_content_remove_entry(ct, e);
    if (ct->count == before) {
        c->nomem = 1;
        return 0;
    }
    return 1;
}

static void remove_tag(Ctx *c, ExifContent *ct, ExifTag tag)
{
    ExifEntry *e;
    while ((e = exif_content_get_entry(ct, tag)) != NULL && remove_entry(c, ct, e))
        ;
}

static void clear_ifd(Ctx *c, ExifContent *ct)
{
    while (ct->count && remove_entry(c, ct, ct->entries[ct->count - 1]))
        ;
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

    remove_tag(c, ct, tag);
    if (c->nomem)
        return NULL;
    e = exif_entry_new_mem(c->mem);
    if (!e)
        goto oom;
    e->data = exif_mem_alloc(c->mem, (ExifLong)size);
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
    RawExif raw;
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
    if (ji.exif && raw_exif_scan(ji.exif, ji.exif_len, &raw) < 0)
        return CK_EXIF_ERR_BAD_EXIF;
    if (!width)
        width = ji.sof_width;
    if (!height)
        height = ji.sof_height;

    memset(&c, 0, sizeof c);
    c.mem = exif_mem_new_default();
    if (!c.mem)
        return CK_EXIF_ERR_NO_MEMORY;
    c.ed = exif_data_new_mem(c.mem);
    if (!c.ed) {
        rc = CK_EXIF_ERR_NO_MEMORY;
        goto done;
    }
    log = exif_log_new_mem(c.mem); /* libexif reports most allocation failures only here */
    if (!log) {
        rc = CK_EXIF_ERR_NO_MEMORY;
        goto done;
    }
    exif_log_set_func(log, log_cb, &c);
    exif_data_log(c.ed, log);
    /* Load everything verbatim (unknown tags too); exif_data_fix() is run explicitly below. */
    exif_data_unset_option(c.ed, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_unset_option(c.ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_set_option(c.ed, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE);
    exif_data_set_data_type(c.ed, EXIF_DATA_TYPE_COMPRESSED);

    if (ji.exif) {
        static const ExifIfd map[4] = {EXIF_IFD_0, EXIF_IFD_EXIF, EXIF_IFD_GPS,
                                       EXIF_IFD_INTEROPERABILITY};
        int i;
        exif_data_load_data(c.ed, ji.exif, (unsigned int)ji.exif_len);
        for (i = 0; i < 4; i++) /* fewer entries than certainly loadable: silent alloc failure */
            if (raw.count[i] >= 0 && (long)c.ed->ifd[map[i]]->count < raw.count[i])
                c.nomem = 1;
        if (c.nomem) {
            rc = CK_EXIF_ERR_NO_MEMORY;
            goto done;
        }
        if (raw.ifd0_n && !c.ed->ifd[EXIF_IFD_0]->count && !c.ed->ifd[EXIF_IFD_EXIF]->count &&
            !c.ed->ifd[EXIF_IFD_GPS]->count) { /* nothing usable in a non-empty IFD0 */
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
    clear_ifd(&c, c.ed->ifd[EXIF_IFD_1]);

    gps_empty = c.ed->ifd[EXIF_IFD_GPS]->count == 0;
    interop_empty = c.ed->ifd[EXIF_IFD_INTEROPERABILITY]->count == 0;
    had_version = version_ok(&c, EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION);
    had_colorspace = get_uint(&c, EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, &v) && (v == 1 || v == 0xFFFF);

    /* Let libexif fix formats, drop tags that do not belong in a compressed image and add the
     * mandatory ones; then pin the values we want. */
    exif_data_fix(c.ed);
    if (gps_empty)
        clear_ifd(&c, c.ed->ifd[EXIF_IFD_GPS]);
    if (interop_empty)
        clear_ifd(&c, c.ed->ifd[EXIF_IFD_INTEROPERABILITY]);
    clear_ifd(&c, c.ed->ifd[EXIF_IFD_1]);

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
