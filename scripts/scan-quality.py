#!/usr/bin/env python3
"""How many of a varied set of generated code images `capture scan --file` decodes, against the
same reader's single fast pass (zxing-cpp's default hints) and zbarimg, with false positives
over code-free images. Not part of `make test` (needs ImageMagick and python3-numpy):

    apt-get install -y imagemagick python3-numpy && swift build && python3 scripts/scan-quality.py

14 samples (13 symbologies, UPC-A as EAN-13) drawn by zint at 2 px per module, each plain and
degraded 10 ways (half and double size, turned 90/180/270/15 degrees, blurred, Gaussian noise
sigma 40, contrast squeezed to 110-150, inverted), written as PGM."""
import os, subprocess, sys, time, statistics
import numpy as np

import json, tempfile
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAPTURE = os.path.join(ROOT, ".build", "debug", "capture")
OUT = tempfile.mkdtemp(prefix="scan-quality-")

def gs1check(d):
    s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(d)))
    return str((10 - s % 10) % 10)

def upce_expand(ns, six):
    d = six
    last = d[5]
    if last in "012": body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3": body = d[0:3] + "00000" + d[3:5]
    elif last == "4": body = d[0:4] + "00000" + d[4]
    else: body = d[0:5] + "0000" + last
    return ns + body

C39 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%"
def mod43(s): return C39[sum(C39.index(c) for c in s) % 43]

# name, zint args, data, expected format name (ck_format_name), expected text
upce_exp = "0" + "123456"; upce_exp += gs1check(upce_expand("0", "123456"))
SYMS = [
    ("UPC-E",      ["--barcode=UPCE"], "0123456", "UPC-E", upce_exp),
    ("Code39",     ["--barcode=CODE39"], "CK-39 TEST", "Code39", "CK-39 TEST"),
    ("Code39Mod43",["--barcode=CODE39", "--vers=1"], "CK43 MOD", "Code39Mod43", "CK43 MOD"),
    ("EAN-13",     ["--barcode=EANX"], "590123412345", "EAN-13", "590123412345" + gs1check("590123412345")),
    ("UPC-A",      ["--barcode=UPCA"], "03600029145", "EAN-13", "0" + "03600029145" + gs1check("03600029145")),
    ("EAN-8",      ["--barcode=EANX"], "9638507", "EAN-8", "9638507" + gs1check("9638507")),
    ("Code93",     ["--barcode=CODE93"], "CODE93 TEST", "Code93", "CODE93 TEST"),
    ("Code128",    ["--barcode=CODE128"], "CaptureKit-128 ok", "Code128", "CaptureKit-128 ok"),
    ("PDF417",     ["--barcode=PDF417"], "CaptureKit PDF417 test 12345", "PDF417", "CaptureKit PDF417 test 12345"),
    ("QR",         ["--barcode=QRCODE"], "https://example.com/capturekit?q=1", "QR", "https://example.com/capturekit?q=1"),
    ("Aztec",      ["--barcode=AZTEC"], "CaptureKit Aztec 0042", "Aztec", "CaptureKit Aztec 0042"),
    ("DataMatrix", ["--barcode=DATAMATRIX"], "CaptureKit DM 0042", "DataMatrix", "CaptureKit DM 0042"),
    ("I2of5",      ["--barcode=C25INTER"], "12345678", "I2of5", "12345678"),
    ("ITF-14",     ["--barcode=ITF14"], "1234567890123", "ITF14", "1234567890123" + gs1check("1234567890123")),
]
assert mod43("CK-39 TEST") != "T"  # plain Code 39 sample must not verify as mod 43 by accident
# zbar names for the comparison (zbar has no Aztec / Data Matrix; reports UPC-A as EAN-13, ITF as I2/5)
ZBAR = {"UPC-E": "UPC-E", "Code39": "CODE-39", "Code39Mod43": "CODE-39", "EAN-13": "EAN-13", "UPC-A": "EAN-13",
        "EAN-8": "EAN-8", "Code93": "CODE-93", "Code128": "CODE-128", "PDF417": "PDF417", "QR": "QR-Code",
        "Aztec": None, "DataMatrix": None, "I2of5": "I2/5", "ITF-14": "I2/5"}
ZBAR_TEXT = {"Code39Mod43": "CK43 MOD" + mod43("CK43 MOD")}

def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)

def im(*args):  # ImageMagick 6
    run(["convert", *args])

def read_pgm(p):
    with open(p, "rb") as f:
        data = f.read()
    parts, pos = [], 0
    while len(parts) < 4:
        while data[pos:pos+1].isspace(): pos += 1
        if data[pos:pos+1] == b"#":
            pos = data.index(b"\n", pos); continue
        end = pos
        while not data[end:end+1].isspace(): end += 1
        parts.append(data[pos:end]); pos = end
    pos += 1
    w, h = int(parts[1]), int(parts[2])
    return np.frombuffer(data[pos:pos + w*h], dtype=np.uint8).reshape(h, w).copy()

def write_pgm(p, a):
    a = np.clip(a, 0, 255).astype(np.uint8)
    with open(p, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (a.shape[1], a.shape[0]))
        f.write(a.tobytes())

rng = np.random.default_rng(1234)
DEGR = ["orig", "s0.5", "s2", "r90", "r180", "r270", "r15", "blur", "noise", "lowcon", "invert"]

def degrade(base_pgm, d, dst):
    if d == "orig": im(base_pgm, dst)
    elif d == "s0.5": im(base_pgm, "-resize", "50%", dst)
    elif d == "s2": im(base_pgm, "-resize", "200%", dst)
    elif d in ("r90", "r180", "r270"): im(base_pgm, "-rotate", d[1:], dst)
    elif d == "r15": im(base_pgm, "-background", "white", "-rotate", "15", dst)
    elif d == "blur": im(base_pgm, "-blur", "0x1.5", dst)
    elif d == "noise":
        a = read_pgm(base_pgm).astype(np.float64); write_pgm(dst, a + rng.normal(0, 40, a.shape))
    elif d == "lowcon":
        a = read_pgm(base_pgm).astype(np.float64); write_pgm(dst, 110 + a * (40 / 255.0))
    elif d == "invert":
        a = read_pgm(base_pgm); write_pgm(dst, 255 - a.astype(np.int32))
    # make sure every file is a plain 8-bit binary PGM
    a = read_pgm(dst) if d in ("noise", "lowcon", "invert") else None
    if a is None: im(dst, "-depth", "8", dst)


# CaptureKit's type names for the samples' expected formats.
NAMES = {"UPC-E": "upce", "Code39": "code39", "Code39Mod43": "code39mod43", "EAN-13": "ean13", "EAN-8": "ean8",
         "Code93": "code93", "Code128": "code128", "PDF417": "pdf417", "QR": "qr", "Aztec": "aztec",
         "DataMatrix": "datamatrix", "I2of5": "interleaved2of5", "ITF14": "itf14"}

def capture_scan(files, effort):
    start = time.time()
    p = subprocess.run([CAPTURE, "scan", "--json", "--effort", effort, "--file", *files], capture_output=True, text=True)
    found = {f: [] for f in files}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        found[o["source"]].append((o["type"], o["value"]))
    return found, time.time() - start

def zbar_decode(f):
    p = subprocess.run(["zbarimg", "-q", "-Supce.enable", f], capture_output=True, text=True)
    return [tuple(l.split(":", 1)) for l in p.stdout.splitlines() if ":" in l]

def main():
    files = {}
    for name, zargs, data, _, _ in SYMS:
        png = os.path.join(OUT, f"{name}.png")
        run(["zint", *zargs, "--scale=2", "-d", data, "-o", png])
        base = os.path.join(OUT, f"{name}_base.pgm")
        im(png, "-bordercolor", "white", "-border", "40", "-colorspace", "Gray", "-depth", "8", base)
        for d in DEGR:
            dst = os.path.join(OUT, f"{name}_{d}.pgm")
            degrade(base, d, dst)
            files[(name, d)] = dst
    paths = list(files.values())
    thorough, t_thorough = capture_scan(paths, "thorough")
    fast, t_fast = capture_scan(paths, "fast")
    start = time.time(); zb = {f: zbar_decode(f) for f in paths}; t_zb = time.time() - start
    print("cell = capture scan (thorough) / fast pass / zbarimg: '+' exact, '.' nothing, 'x' wrong or extra, '-' unsupported")
    print(f"{'sample':<12}" + "".join(f"{d:>9}" for d in DEGR))
    totals = {"thorough": 0, "fast": 0, "zbar": 0}
    wrong = {"thorough": 0, "fast": 0, "zbar": 0}
    zb_total = 0
    for name, _, _, efmt, etext in SYMS:
        row = f"{name:<12}"
        expected = [(NAMES[efmt], etext)]
        for d in DEGR:
            f = files[(name, d)]
            cells = ""
            for key, result in (("thorough", thorough[f]), ("fast", fast[f])):
                ok = result == expected
                totals[key] += ok
                wrong[key] += bool(result) and not ok
                cells += "+" if ok else ("." if not result else "x")
            zexp = ZBAR[name]
            if zexp is None:
                cells += "-"
            else:
                zr = zb[f]; zt = ZBAR_TEXT.get(name, etext)
                ok = (zexp, zt) in zr and len(zr) == 1
                totals["zbar"] += ok; wrong["zbar"] += bool(zr) and not ok; zb_total += 1
                cells += "+" if ok else ("." if not zr else "x")
            row += f"{cells:>9}"
        print(row)
    n = len(paths)
    print(f"capture scan (thorough): {totals['thorough']}/{n} exact, {wrong['thorough']} wrong, {t_thorough:.1f} s")
    print(f"fast pass (zxing default hints): {totals['fast']}/{n} exact, {wrong['fast']} wrong, {t_fast:.1f} s")
    print(f"zbarimg: {totals['zbar']}/{zb_total} exact of the {zb_total} it supports ({totals['zbar']}/{n} of all), {wrong['zbar']} wrong, {t_zb:.1f} s")

    fp_dir = os.path.join(OUT, "fp"); os.makedirs(fp_dir, exist_ok=True)
    fps = []
    def add(name, arr=None, im_args=None):
        p = os.path.join(fp_dir, name + ".pgm")
        if arr is not None: write_pgm(p, arr)
        else: im(*im_args, "-colorspace", "Gray", "-depth", "8", p)
        fps.append(p)
    for i in range(6):
        add(f"noise{i}", rng.integers(0, 256, (480, 640)))
        add(f"gnoise{i}", 128 + rng.normal(0, 50, (720, 1280)))
    add("hgrad", np.tile(np.linspace(0, 255, 1280), (720, 1)))
    add("rgrad", 255 * np.hypot(*np.meshgrid(np.linspace(-1, 1, 800), np.linspace(-1, 1, 600))) / 1.5)
    stripes = np.zeros((400, 800))
    for x in range(0, 800, 7): stripes[:, x:x+3] = 255
    add("stripes", stripes)
    add("randbars", np.repeat(rng.integers(0, 2, 800)[None, :] * 255, 300, axis=0))
    add("checker", np.kron(rng.integers(0, 2, (60, 80)), np.ones((8, 8))) * 255)
    for b in ["logo:", "rose:", "wizard:", "granite:", "netscape:"]:
        add(b.strip(":"), im_args=[b])
    found, _ = capture_scan(fps, "thorough")
    n_fp = sum(len(v) for v in found.values()); z_fp = sum(len(zbar_decode(p)) for p in fps)
    print(f"false positives over {len(fps)} code-free images: capture scan {n_fp}, zbarimg {z_fp}")
    for k, v in found.items():
        if v: print("  FP:", os.path.basename(k), v)

if __name__ == "__main__":
    main()
