/* ck_v4l2.c - V4L2 control discovery (VIDIOC_QUERY_EXT_CTRL, VIDIOC_QUERYMENU, VIDIOC_G_EXT_CTRLS).
 * Allocation-free: every result goes into caller-provided storage. */
#include "ck_v4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/videodev2.h>

/* The header's constants are the kernel's. */
_Static_assert(CK_V4L2_TYPE_INTEGER == V4L2_CTRL_TYPE_INTEGER, "type");
_Static_assert(CK_V4L2_TYPE_BOOLEAN == V4L2_CTRL_TYPE_BOOLEAN, "type");
_Static_assert(CK_V4L2_TYPE_MENU == V4L2_CTRL_TYPE_MENU, "type");
_Static_assert(CK_V4L2_TYPE_BUTTON == V4L2_CTRL_TYPE_BUTTON, "type");
_Static_assert(CK_V4L2_TYPE_INTEGER64 == V4L2_CTRL_TYPE_INTEGER64, "type");
_Static_assert(CK_V4L2_TYPE_CTRL_CLASS == V4L2_CTRL_TYPE_CTRL_CLASS, "type");
_Static_assert(CK_V4L2_TYPE_STRING == V4L2_CTRL_TYPE_STRING, "type");
_Static_assert(CK_V4L2_TYPE_BITMASK == V4L2_CTRL_TYPE_BITMASK, "type");
_Static_assert(CK_V4L2_TYPE_INTEGER_MENU == V4L2_CTRL_TYPE_INTEGER_MENU, "type");
_Static_assert(CK_V4L2_FLAG_DISABLED == V4L2_CTRL_FLAG_DISABLED, "flag");
_Static_assert(CK_V4L2_FLAG_GRABBED == V4L2_CTRL_FLAG_GRABBED, "flag");
_Static_assert(CK_V4L2_FLAG_READ_ONLY == V4L2_CTRL_FLAG_READ_ONLY, "flag");
_Static_assert(CK_V4L2_FLAG_UPDATE == V4L2_CTRL_FLAG_UPDATE, "flag");
_Static_assert(CK_V4L2_FLAG_INACTIVE == V4L2_CTRL_FLAG_INACTIVE, "flag");
_Static_assert(CK_V4L2_FLAG_SLIDER == V4L2_CTRL_FLAG_SLIDER, "flag");
_Static_assert(CK_V4L2_FLAG_WRITE_ONLY == V4L2_CTRL_FLAG_WRITE_ONLY, "flag");
_Static_assert(CK_V4L2_FLAG_VOLATILE == V4L2_CTRL_FLAG_VOLATILE, "flag");
_Static_assert(CK_V4L2_FLAG_HAS_PAYLOAD == V4L2_CTRL_FLAG_HAS_PAYLOAD, "flag");
_Static_assert(CK_V4L2_FLAG_EXECUTE_ON_WRITE == V4L2_CTRL_FLAG_EXECUTE_ON_WRITE, "flag");
_Static_assert(CK_V4L2_FLAG_MODIFY_LAYOUT == V4L2_CTRL_FLAG_MODIFY_LAYOUT, "flag");
#ifdef V4L2_CTRL_FLAG_DYNAMIC_ARRAY
_Static_assert(CK_V4L2_FLAG_DYNAMIC_ARRAY == V4L2_CTRL_FLAG_DYNAMIC_ARRAY, "flag");
#endif
_Static_assert(CK_V4L2_MAX_DIMS == V4L2_CTRL_MAX_DIMS, "dims");

/* ioctl, retried on EINTR; 0 or -errno. */
static int xioctl(int fd, unsigned long request, void *arg)
{
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : 0;
}

int ck_v4l2_open(const char *path)
{
    int fd;
    if (path == NULL)
        return -EINVAL;
    do {
        fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd < 0 ? -errno : fd;
}

int ck_v4l2_query_capability(int fd, struct ck_v4l2_capability *out)
{
    struct v4l2_capability cap;
    int r;
    memset(&cap, 0, sizeof cap);
    r = xioctl(fd, VIDIOC_QUERYCAP, &cap);
    if (r < 0)
        return r;
    memset(out, 0, sizeof *out);
    memcpy(out->driver, cap.driver, sizeof out->driver - 1);
    memcpy(out->card, cap.card, sizeof out->card - 1);
    memcpy(out->bus_info, cap.bus_info, sizeof out->bus_info - 1);
    out->device_caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    return 0;
}

void ck_v4l2_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

static void copy_name(char dst[32], const __u8 *src, size_t len)
{
    size_t n = strnlen((const char *)src, len);
    if (n > 31)
        n = 31;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* VIDIOC_QUERYCTRL, for drivers that predate VIDIOC_QUERY_EXT_CTRL (as v4l2-ctl does). */
static int query_legacy(int fd, unsigned previous_id, struct ck_v4l2_control *out)
{
    struct v4l2_queryctrl qc;
    int r;

    memset(&qc, 0, sizeof qc);
    qc.id = previous_id | V4L2_CTRL_FLAG_NEXT_CTRL;
    r = xioctl(fd, VIDIOC_QUERYCTRL, &qc);
    if (r < 0)
        return r;
    out->id = qc.id;
    out->type = qc.type;
    copy_name(out->name, qc.name, sizeof qc.name);
    out->minimum = qc.minimum;
    if (qc.type == V4L2_CTRL_TYPE_BITMASK) {
        out->maximum = (uint32_t)qc.maximum;
        out->default_value = (uint32_t)qc.default_value;
    } else {
        out->maximum = qc.maximum;
        out->default_value = qc.default_value;
    }
    out->step = qc.step;
    out->flags = qc.flags;
    out->elems = 1;
    out->elem_size = qc.type == V4L2_CTRL_TYPE_INTEGER64 ? 8 : 4;
    if (qc.type == V4L2_CTRL_TYPE_STRING) {
        out->elem_size = (uint32_t)qc.maximum + 1;
        out->flags |= V4L2_CTRL_FLAG_HAS_PAYLOAD;
    }
    return 0;
}

static int query(int fd, unsigned previous_id, struct ck_v4l2_control *out)
{
    struct v4l2_query_ext_ctrl qc;
    unsigned i;
    int r;

    memset(&qc, 0, sizeof qc);
    qc.id = previous_id | V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
    r = xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &qc);
    if (r == -ENOTTY)
        return query_legacy(fd, previous_id, out);
    if (r < 0)
        return r;
    out->id = qc.id;
    out->type = qc.type;
    copy_name(out->name, (const __u8 *)qc.name, sizeof qc.name);
    out->minimum = qc.minimum;
    out->maximum = qc.maximum;
    out->step = (int64_t)qc.step;
    out->default_value = qc.default_value;
    out->flags = qc.flags;
    out->elem_size = qc.elem_size;
    out->elems = qc.elems;
    out->nr_of_dims = qc.nr_of_dims > V4L2_CTRL_MAX_DIMS ? V4L2_CTRL_MAX_DIMS : qc.nr_of_dims;
    for (i = 0; i < out->nr_of_dims; i++)
        out->dims[i] = qc.dims[i];
    return 0;
}

/* Whether the control has a single integer value that can be read. */
static int readable(const struct ck_v4l2_control *c)
{
    switch (c->type) {
    case V4L2_CTRL_TYPE_INTEGER:
    case V4L2_CTRL_TYPE_BOOLEAN:
    case V4L2_CTRL_TYPE_MENU:
    case V4L2_CTRL_TYPE_INTEGER_MENU:
    case V4L2_CTRL_TYPE_INTEGER64:
    case V4L2_CTRL_TYPE_BITMASK:
        break;
    default:
        return 0;
    }
    if (c->flags & (V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_DISABLED | V4L2_CTRL_FLAG_HAS_PAYLOAD))
        return 0;
    return c->nr_of_dims == 0;
}

static int read_value(int fd, struct ck_v4l2_control *c)
{
    struct v4l2_ext_control ctrl;
    struct v4l2_ext_controls ctrls;
    int r;

    if (c->id >= V4L2_CID_PRIVATE_BASE) {
        /* Old-style private controls have no class: VIDIOC_G_CTRL. */
        struct v4l2_control old;
        memset(&old, 0, sizeof old);
        old.id = c->id;
        r = xioctl(fd, VIDIOC_G_CTRL, &old);
        if (r < 0)
            return r;
        c->value = c->type == V4L2_CTRL_TYPE_BITMASK ? (int64_t)(uint32_t)old.value : old.value;
        return 0;
    }
    memset(&ctrl, 0, sizeof ctrl);
    memset(&ctrls, 0, sizeof ctrls);
    ctrl.id = c->id;
    ctrls.which = V4L2_CTRL_ID2WHICH(c->id);
    ctrls.count = 1;
    ctrls.controls = &ctrl;
    r = xioctl(fd, VIDIOC_G_EXT_CTRLS, &ctrls);
    if (r < 0)
        return r;
    if (c->type == V4L2_CTRL_TYPE_INTEGER64)
        c->value = ctrl.value64;
    else if (c->type == V4L2_CTRL_TYPE_BITMASK)
        c->value = (int64_t)(uint32_t)ctrl.value;
    else
        c->value = ctrl.value;
    return 0;
}

int ck_v4l2_read_control(int fd, struct ck_v4l2_control *control)
{
    if (control == NULL)
        return -EINVAL;
    return read_value(fd, control);
}

int ck_v4l2_next_control(int fd, unsigned previous_id, struct ck_v4l2_control *out)
{
    int r;

    if (out == NULL)
        return -EINVAL;
    memset(out, 0, sizeof *out);
    /* Only the id bits: the caller passes back an id it was given. */
    previous_id &= ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    r = query(fd, previous_id, out);
    if (r == -EINVAL)
        return 0; /* past the last control */
    if (r < 0)
        return r;
    if (readable(out)) {
        r = read_value(fd, out);
        if (r == 0)
            out->has_value = 1;
        else
            out->value_error = -r;
    }
    return 1;
}

int ck_v4l2_menu_item(int fd, unsigned id, unsigned index, char name[32], long long *int_value)
{
    struct v4l2_querymenu qm;
    int r;

    memset(&qm, 0, sizeof qm);
    qm.id = id;
    qm.index = index;
    r = xioctl(fd, VIDIOC_QUERYMENU, &qm);
    if (r < 0)
        return r;
    /* The kernel returns the name (menus) and the value (integer menus) in one union: both are
     * passed back and the caller, which knows the control's type, reads the one that applies. */
    if (name != NULL)
        copy_name(name, qm.name, sizeof qm.name);
    if (int_value != NULL)
        *int_value = qm.value;
    return 0;
}
