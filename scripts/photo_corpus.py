#!/usr/bin/python3
"""A deterministic corpus of photo-like barcode images: codes drawn by zint, printed on labels
(paper tint, ink density, sometimes wrapped round a cylinder), laid on packaging-like
backgrounds (colour fields, stripes, print-like strokes) in perspective, then photographed badly:
uneven light and glare that saturates, defocus or motion blur, sensor noise, and JPEG at low
quality. Every image comes from its own seed, so the same command writes the same files.

    /usr/bin/python3 scripts/photo_corpus.py OUT_DIR [--subset] [--pgm]

writes OUT_DIR/<family>-<n>.jpg (and, with --pgm, the JPEG decoded to 8-bit gray as .pgm) and
OUT_DIR/manifest.json: [{"file", "jpeg", "family", "type", "text", "label"}], type and text being what
`capture scan` must report (type null: an image without a code, where nothing must be read).
A quarter of the linear codes have one end under saturating glare: nothing is right there but
the whole code or nothing.
label: the corners of the code's label (quiet zone included) in the image.
--subset writes the smaller set the test suite reads (the first images of each family: the
same files as the full set's). Needs Debian's zint, python3-numpy,
python3-pil and python3-scipy (scripts/apt-packages.txt).
"""
import json, os, subprocess, sys, tempfile

import numpy as np
from PIL import Image
from scipy import ndimage

W, H = 1024, 768


def gs1check(d):
    s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(d)))
    return str((10 - s % 10) % 10)


def upce_to_upca(ns, six):
    d = six
    if d[5] in "012": body = d[0:2] + d[5] + "0000" + d[2:5]
    elif d[5] == "3": body = d[0:3] + "00000" + d[3:5]
    elif d[5] == "4": body = d[0:4] + "00000" + d[4]
    else: body = d[0:5] + "0000" + d[5]
    return ns + body


def digits(rng, n):
    return "".join(str(int(x)) for x in rng.integers(0, 10, n))


ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def words(rng, n):
    return "".join(ALNUM[int(i)] for i in rng.integers(0, len(ALNUM), n))


# family: (zint barcode, data maker -> (zint data, expected type, expected text), module px range, full, subset)
def ean13(rng):
    d = digits(rng, 12)
    return d, "ean13", d + gs1check(d)


def upca(rng):
    d = "0" + digits(rng, 10)  # number system 0: a common product code
    return d, "ean13", "0" + d + gs1check(d)


def ean8(rng):
    d = digits(rng, 7)
    return d, "ean8", d + gs1check(d)


def upce(rng):
    # last digit 5-9 (product 5-9), the fifth non-zero: a valid UPC-E whatever the rest
    six = digits(rng, 4) + str(int(rng.integers(1, 10))) + str(int(rng.integers(5, 10)))
    return "0" + six, "upce", "0" + six + gs1check(upce_to_upca("0", six))


def code128(rng):
    t = words(rng, int(rng.integers(6, 13)))
    return t, "code128", t


def qr(rng):
    t = "https://example.com/p/" + words(rng, int(rng.integers(4, 20)))
    return t, "qr", t


def aztec(rng):
    t = words(rng, int(rng.integers(8, 40)))
    return t, "aztec", t


def datamatrix(rng):
    t = words(rng, int(rng.integers(6, 30)))
    return t, "datamatrix", t


FAMILIES = [
    # name, zint, maker, module px (min, max), count, subset count
    ("EAN-13", "EANX", ean13, (1.4, 3.2), 30, 6),
    ("UPC-A", "UPCA", upca, (1.4, 3.2), 20, 4),
    ("EAN-8", "EANX", ean8, (1.4, 3.2), 10, 2),
    ("UPC-E", "UPCE", upce, (1.4, 3.2), 10, 3),
    ("Code128", "CODE128", code128, (1.3, 3.0), 10, 2),
    ("QR", "QRCODE", qr, (2.0, 5.0), 10, 2),
    ("Aztec", "AZTEC", aztec, (2.0, 5.0), 30, 6),
    ("DataMatrix", "DATAMATRIX", datamatrix, (2.0, 5.0), 10, 2),
    ("none", None, None, None, 10, 3),
]


def zint_modules(barcode, data):
    """The symbol at 1 px per module (zint's --scale=0.5), 0 = ink, 1 = paper, with its
    human-readable text for EAN/UPC."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "s.png")
        subprocess.run(["zint", "-b", barcode, "-d", data, "--scale=0.5", "-o", p], check=True, capture_output=True)
        return (np.asarray(Image.open(p).convert("L"), dtype=np.float64) > 127).astype(np.float64)


def smooth_field(rng, shape, scale, lo, hi):
    f = ndimage.zoom(rng.random((max(2, shape[0] // scale), max(2, shape[1] // scale))), (shape[0] / max(2, shape[0] // scale), shape[1] / max(2, shape[1] // scale)), order=3)
    f = f[: shape[0], : shape[1]]
    f = np.pad(f, ((0, shape[0] - f.shape[0]), (0, shape[1] - f.shape[1])), mode="edge")
    return lo + (hi - lo) * (f - f.min()) / max(1e-9, f.max() - f.min())


def background(rng):
    """Packaging: a colour field, bands, and print-like strokes (gray)."""
    bg = smooth_field(rng, (H, W), 128, 60, 220)
    for _ in range(int(rng.integers(2, 7))):  # printed panels
        x0, y0 = int(rng.integers(0, W)), int(rng.integers(0, H))
        bg[y0 : y0 + int(rng.integers(40, 400)), x0 : x0 + int(rng.integers(40, 500))] = rng.uniform(20, 240)
    for _ in range(int(rng.integers(10, 60))):  # text-like strokes
        x0, y0 = int(rng.integers(0, W - 60)), int(rng.integers(0, H - 20))
        h = int(rng.integers(4, 14))
        for k in range(int(rng.integers(3, 12))):
            w = int(rng.integers(1, 4))
            bg[y0 : y0 + h, x0 + k * 5 : x0 + k * 5 + w] = rng.uniform(0, 60)
    if rng.random() < 0.3:  # a stripe pattern (a barcode-like distractor)
        y0 = int(rng.integers(0, H - 100))
        x = int(rng.integers(0, W - 300))
        for _ in range(int(rng.integers(15, 40))):
            w = int(rng.integers(1, 6))
            bg[y0 : y0 + int(rng.integers(30, 100)), x : x + w] = 20
            x += w + int(rng.integers(1, 8))
    return bg


def label(rng, modules, linear):
    """The printed label: quiet zone, paper tint, ink density, print spread."""
    q = 10 if linear else 4
    sym = np.pad(modules, q, constant_values=1.0)
    up = 8  # print resolution: 8 px per module
    sym = np.kron(sym, np.ones((up, up)))
    spread = rng.uniform(-1.5, 1.5)  # ink spread / thin print, in print px
    if abs(spread) > 0.3:
        sym = ndimage.grey_erosion(sym, size=int(round(abs(spread))) + 1) if spread > 0 else ndimage.grey_dilation(sym, size=int(round(abs(spread))) + 1)
    paper, ink = rng.uniform(170, 250), rng.uniform(10, 90)
    return ink + (paper - ink) * sym, up


def cylinder(img, rng):
    """Wraps a label round a cylinder seen side on: compressed and darker towards its edges."""
    h, w = img.shape
    angle = rng.uniform(0.5, 1.2)  # half the arc the label covers, radians
    xs = np.linspace(-np.sin(angle), np.sin(angle), w)
    src = (np.arcsin(xs) / angle + 1) / 2 * (w - 1)
    out = ndimage.map_coordinates(img, [np.repeat(np.arange(h)[:, None], w, 1), np.repeat(src[None, :], h, 0)], order=1)
    shade = 0.55 + 0.45 * np.cos(np.arcsin(xs))
    return out * shade[None, :]


def warp_into(canvas, lab, rng, module_px, up):
    """Lays the label on the canvas in perspective; module_px: mean module size in the photo."""
    h, w = lab.shape
    s = module_px / up
    cx, cy = rng.uniform(0.3, 0.7) * W, rng.uniform(0.3, 0.7) * H
    rot = np.deg2rad(rng.uniform(-25, 25) + (90 if rng.random() < 0.15 else 0))
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    corners = (src - [w / 2, h / 2]) * s
    corners = corners @ np.array([[np.cos(rot), np.sin(rot)], [-np.sin(rot), np.cos(rot)]])
    size = max(w, h) * s
    corners += rng.uniform(-0.12, 0.12, (4, 2)) * size  # perspective
    corners += [cx, cy]
    # homography dst -> src
    A = []
    for (x, y), (u, v) in zip(corners, src):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    Hm = np.linalg.svd(np.array(A))[2][-1].reshape(3, 3)
    # antialias: blur the print to the photo's resolution first
    lab = ndimage.gaussian_filter(lab, sigma=0.45 / s)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    den = Hm[2, 0] * xx + Hm[2, 1] * yy + Hm[2, 2]
    u = (Hm[0, 0] * xx + Hm[0, 1] * yy + Hm[0, 2]) / den
    v = (Hm[1, 0] * xx + Hm[1, 1] * yy + Hm[1, 2]) / den
    inside = (u >= 0) & (u <= w - 1) & (v >= 0) & (v <= h - 1)
    vals = ndimage.map_coordinates(lab, [v, u], order=1, mode="nearest")
    canvas[inside] = vals[inside]
    return canvas, corners


def photograph(img, rng):
    """Light, glare, blur, noise."""
    img = img * smooth_field(rng, (H, W), 256, rng.uniform(0.45, 0.9), rng.uniform(1.0, 1.3))
    for _ in range(int(rng.integers(0, 3))):  # glare: a bright spot that saturates
        gx, gy = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
        sigma, amp = rng.uniform(30, 140), rng.uniform(60, 220)
        yy, xx = np.mgrid[0:H, 0:W]
        img = img + amp * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma ** 2))
    kind = rng.random()
    if kind < 0.45:  # defocus: a disk
        r = rng.uniform(0.5, 2.2)
        n = int(np.ceil(r))
        y, x = np.mgrid[-n : n + 1, -n : n + 1]
        k = (x * x + y * y <= r * r).astype(np.float64)
        img = ndimage.convolve(img, k / k.sum(), mode="nearest")
    elif kind < 0.8:  # motion: a short line
        length, a = rng.uniform(2, 7), rng.uniform(0, np.pi)
        n = int(np.ceil(length))
        k = np.zeros((2 * n + 1, 2 * n + 1))
        for t in np.linspace(-length / 2, length / 2, 4 * n + 1):
            k[int(round(n + t * np.sin(a))), int(round(n + t * np.cos(a)))] = 1
        img = ndimage.convolve(img, k / k.sum(), mode="nearest")
    else:
        img = ndimage.gaussian_filter(img, rng.uniform(0.3, 0.9))
    img = img + rng.normal(0, rng.uniform(1.5, 7), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def make(family, index, zint, maker, module_range, out, pgm):
    rng = np.random.default_rng([sum(map(ord, family)), index, 2026])
    canvas = background(rng)
    kind, text, quad = None, None, None
    if zint:
        data, kind, text = maker(rng)
        modules = zint_modules(zint, data)
        linear = kind in ("ean13", "ean8", "upce", "code128")
        lab, up = label(rng, modules, linear)
        if linear and rng.random() < 0.25:
            # specular glare over one end of a glossy label: saturated whatever the light, so the
            # rest may read as a shorter code (the left half of an EAN-13 looks like a UPC-E)
            cut = int(lab.shape[1] * rng.uniform(0.45, 0.65))
            if rng.random() < 0.5: lab[:, cut:] = 1000
            else: lab[:, : lab.shape[1] - cut] = 1000
        if rng.random() < (0.5 if linear else 0.25):
            lab = cylinder(lab, rng)
        canvas, quad = warp_into(canvas, lab, rng, rng.uniform(*module_range), up)
    img = photograph(canvas, rng)
    name = f"{family}-{index:02d}"
    jpg = os.path.join(out, name + ".jpg")
    Image.fromarray(img).save(jpg, quality=int(rng.integers(15, 50)))
    if pgm:
        Image.open(jpg).convert("L").save(os.path.join(out, name + ".pgm"))
    return {"file": name + (".pgm" if pgm else ".jpg"), "jpeg": name + ".jpg", "family": family, "type": kind, "text": text,
            "label": None if quad is None else [[round(x, 1), round(y, 1)] for x, y in quad]}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    out, subset, pgm = args[0], "--subset" in sys.argv, "--pgm" in sys.argv
    os.makedirs(out, exist_ok=True)
    manifest = []
    for family, zint, maker, module_range, count, small in FAMILIES:
        for i in range(small if subset else count):
            manifest.append(make(family, i, zint, maker, module_range, out, pgm))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(manifest)} images in {out}")


if __name__ == "__main__":
    main()
