#!/usr/bin/python3
"""Reading quality on photo-like images (scripts/photo_corpus.py: perspective, curved labels,
defocus and motion blur, uneven light and glare, noise, JPEG at quality 15-50), per family, for
`capture scan` (the product, thorough), the same reader's single fast pass (`--effort fast`:
zxing-cpp's default hints) and zbarimg, on the same JPEG files:

    swift build --product capture && /usr/bin/python3 scripts/scan-photos.py [--subset] [--keep DIR]

(CAPTURE=path/to/capture compares another build.)

Per family: decoded correctly, wrong (any other code or text, or anything on an image without a
code), nothing; and wall time per image (capture: one process over all files, divided by their
number; zbarimg: one process per file).
"""
import json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAPTURE = os.environ.get("CAPTURE", os.path.join(ROOT, ".build", "debug", "capture"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import photo_corpus  # noqa: E402

ZBAR = {"ean13": "EAN-13", "ean8": "EAN-8", "upce": "UPC-E", "code128": "CODE-128", "qr": "QR-Code"}


def capture_scan(files, effort):
    start = time.time()
    p = subprocess.run([CAPTURE, "scan", "--json", "--effort", effort, "--file", *files], capture_output=True, text=True)
    elapsed = time.time() - start
    found = {f: [] for f in files}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        found[o["source"]].append((o["type"], o["value"]))
    return found, elapsed / len(files)


def zbar_scan(files):
    found, start = {}, time.time()
    for f in files:
        p = subprocess.run(["zbarimg", "-q", "-Supce.enable", f], capture_output=True, text=True)
        found[f] = [tuple(l.split(":", 1)) for l in p.stdout.splitlines() if ":" in l]
    return found, (time.time() - start) / len(files)


def main():
    subset = "--subset" in sys.argv
    out = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else tempfile.mkdtemp(prefix="scan-photos-")
    if not os.path.exists(os.path.join(out, "manifest.json")):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "photo_corpus.py"), out] + (["--subset"] if subset else []), check=True)
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    files = [os.path.join(out, m["jpeg"]) for m in manifest]
    results = {
        "capture scan (thorough)": capture_scan(files, "thorough"),
        "fast pass (zxing default hints)": capture_scan(files, "fast"),
        "zbarimg": zbar_scan(files),
    }
    families = []
    for m in manifest:
        if m["family"] not in families: families.append(m["family"])
    print(f"{len(files)} images in {out}; per family: correct / wrong / nothing")
    print(f"{'family':<12}{'n':>4}" + "".join(f"{k:>34}" for k in results))
    totals = {k: [0, 0, 0] for k in results}
    wrong_list = []
    for fam in families:
        items = [(os.path.join(out, m["jpeg"]), m) for m in manifest if m["family"] == fam]
        row = f"{fam:<12}{len(items):>4}"
        for name, (found, _) in results.items():
            c = w = n = 0
            for f, m in items:
                got = found[f]
                if name == "zbarimg":
                    expected = [(ZBAR[m["type"]], m["text"])] if m["type"] in ZBAR else None
                    if m["type"] is not None and expected is None:  # zbar cannot read it: right if silent
                        w += bool(got); n += not got
                        continue
                else:
                    expected = [(m["type"], m["text"])] if m["type"] else []
                expected = expected or []
                if got and got == expected: c += 1
                elif got: w += 1; wrong_list.append((name, os.path.basename(f), got, expected))
                else: n += 1
            totals[name][0] += c; totals[name][1] += w; totals[name][2] += n
            cell = f"{c}/{w}/{n}" + (" (unsupported)" if name == "zbarimg" and fam in ("Aztec", "DataMatrix") else "")
            row += f"{cell:>34}"
        print(row)
    row = f"{'all':<12}{len(files):>4}"
    for name in results: row += f"{'%d/%d/%d' % tuple(totals[name]):>34}"
    print(row)
    row = f"{'s / image':<16}"
    for name, (_, per) in results.items(): row += f"{per:>34.3f}"
    print(row)
    for name, f, got, exp in wrong_list:
        print(f"  wrong: {name}: {f}: {got} (expected {exp})")


if __name__ == "__main__":
    main()
