/* ck_v4l2.h - V4L2 control discovery: a small, allocation-free wrapper over the control ioctls.
 *
 * Every function returns a negative errno on failure, so callers never read the global errno.
 * The header deliberately does not include <linux/videodev2.h>: the constants below mirror the
 * kernel's (ck_v4l2.c checks each one against it at compile time), so the Swift side sees a
 * handful of plain names instead of the whole V4L2 API. */
#ifndef CK_V4L2_H
#define CK_V4L2_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* enum v4l2_ctrl_type */
#define CK_V4L2_TYPE_INTEGER      1u
#define CK_V4L2_TYPE_BOOLEAN      2u
#define CK_V4L2_TYPE_MENU         3u
#define CK_V4L2_TYPE_BUTTON       4u
#define CK_V4L2_TYPE_INTEGER64    5u
#define CK_V4L2_TYPE_CTRL_CLASS   6u
#define CK_V4L2_TYPE_STRING       7u
#define CK_V4L2_TYPE_BITMASK      8u
#define CK_V4L2_TYPE_INTEGER_MENU 9u

/* V4L2_CTRL_FLAG_* */
#define CK_V4L2_FLAG_DISABLED         0x0001u
#define CK_V4L2_FLAG_GRABBED          0x0002u
#define CK_V4L2_FLAG_READ_ONLY        0x0004u
#define CK_V4L2_FLAG_UPDATE           0x0008u
#define CK_V4L2_FLAG_INACTIVE         0x0010u
#define CK_V4L2_FLAG_SLIDER           0x0020u
#define CK_V4L2_FLAG_WRITE_ONLY       0x0040u
#define CK_V4L2_FLAG_VOLATILE         0x0080u
#define CK_V4L2_FLAG_HAS_PAYLOAD      0x0100u
#define CK_V4L2_FLAG_EXECUTE_ON_WRITE 0x0200u
#define CK_V4L2_FLAG_MODIFY_LAYOUT    0x0400u
#define CK_V4L2_FLAG_DYNAMIC_ARRAY    0x0800u

/* V4L2_CTRL_MAX_DIMS */
#define CK_V4L2_MAX_DIMS 4

/* One control as VIDIOC_QUERY_EXT_CTRL describes it, plus its current value. */
struct ck_v4l2_control {
    uint32_t id;
    uint32_t type;              /* CK_V4L2_TYPE_*, or a compound type (>= 0x100) */
    char name[32];              /* the kernel's name, e.g. "Exposure Time, Absolute" (NUL-terminated) */
    int64_t minimum;
    int64_t maximum;
    int64_t step;
    int64_t default_value;
    int64_t value;              /* the current value; meaningful only when has_value is 1 */
    int32_t has_value;          /* 1 when value was read; 0 for buttons, classes, write-only,
                                   disabled, string and compound controls, or a failed read */
    int32_t value_error;        /* the errno of a failed read, else 0 */
    uint32_t flags;             /* CK_V4L2_FLAG_* */
    uint32_t elem_size;
    uint32_t elems;
    uint32_t nr_of_dims;
    uint32_t dims[CK_V4L2_MAX_DIMS];
};

/* Opens a device node for control queries (O_RDWR | O_NONBLOCK | O_CLOEXEC).
 * Returns the file descriptor, or -errno. */
int ck_v4l2_open(const char *path);

/* Fills *out with the control that follows previous_id (0 for the first), including compound
 * controls and control classes, with VIDIOC_QUERY_EXT_CTRL (falling back to VIDIOC_QUERYCTRL on
 * drivers without it), and reads its current value with VIDIOC_G_EXT_CTRLS.
 * Returns 1 when *out was filled, 0 when there are no more controls, or -errno
 * (-ENOTTY: not a V4L2 device). */
int ck_v4l2_next_control(int fd, unsigned previous_id, struct ck_v4l2_control *out);

/* Reads the current value of control->id (of control->type) into control->value, with
 * VIDIOC_G_EXT_CTRLS (VIDIOC_G_CTRL for old private controls). Returns 0, or -errno. */
int ck_v4l2_read_control(int fd, struct ck_v4l2_control *control);

/* The menu item `index` of menu or integer-menu control `id` (VIDIOC_QUERYMENU). The kernel
 * returns the name and the value in one union, so both are filled: read `name` (NUL-terminated)
 * for a menu control and `*int_value` for an integer-menu control; the other is meaningless.
 * Returns 0, or -errno (-EINVAL: the index is not a valid item, which menus may skip). */
int ck_v4l2_menu_item(int fd, unsigned id, unsigned index, char name[32], long long *int_value);

/* VIDIOC_QUERYCAP's answer: names NUL-terminated; device_caps is the node's own capabilities
 * (the device-wide ones where the driver gives no device_caps). */
struct ck_v4l2_capability {
    char driver[16];
    char card[32];
    char bus_info[32];
    uint32_t device_caps;
};

/* Fills *out with VIDIOC_QUERYCAP. Returns 0, or -errno (-ENOTTY: not a V4L2 device). */
int ck_v4l2_query_capability(int fd, struct ck_v4l2_capability *out);

/* Closes a descriptor from ck_v4l2_open. */
void ck_v4l2_close(int fd);

#ifdef __cplusplus
}
#endif

#endif /* CK_V4L2_H */
