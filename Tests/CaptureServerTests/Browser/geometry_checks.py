"""geometry.js in headless Chromium, without a server: hand-computed view <-> device points for
each gravity, orientation and mirroring, and the picture the page's CSS transform shows agrees
with those conversions (pixels read back from a screenshot).

Usage: /usr/bin/python3 geometry_checks.py PAGE_DIR OUT_DIR
Prints one JSON object: {"checks": {name: {"ok": …}}, "passed": N, "failed": N, "screenshots": […]}.
"""
import io
import json
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browserlib import Results, start_chromium  # noqa: E402

PICTURE = {"width": 1280, "height": 720}

# Hand-computed: a 1280x720 (16:9) sensor picture in the view bounds given.
# resizeAspect 800x600 landscapeRight: shown 800x450 at y 75.
# resizeAspect 800x600 portrait: shown 337.5x600 at x 231.25; shown (u, v) is device (v, 1 - u).
# resizeAspectFill 600x600 landscapeRight: shown 1066.67x600 at x -233.33.
# resizeAspectFill 600x600 portrait: shown 600x1066.67 at y -233.33.
# resize 400x300: u = x / 400, v = y / 300; landscapeLeft: device (1 - u, 1 - v);
#   portraitUpsideDown: device (1 - v, u).
TO_DEVICE = [
    # bounds, gravity, orientation, mirrored, view point, expected device point (None: off the picture)
    ((800, 600), "resizeAspect", "landscapeRight", False, (400, 300), (0.5, 0.5)),
    ((800, 600), "resizeAspect", "landscapeRight", False, (200, 187.5), (0.25, 0.25)),
    ((800, 600), "resizeAspect", "landscapeRight", True, (200, 187.5), (0.75, 0.25)),
    ((800, 600), "resizeAspect", "landscapeRight", False, (100, 50), None),
    ((800, 600), "resizeAspect", "landscapeRight", False, (100, 560), None),
    ((800, 600), "resizeAspect", "portrait", False, (315.625, 450), (0.75, 0.75)),
    ((800, 600), "resizeAspect", "portrait", True, (315.625, 450), (0.75, 0.25)),
    ((800, 600), "resizeAspect", "portrait", False, (100, 300), None),
    ((800, 600), "resizeAspect", "landscapeLeft", False, (200, 187.5), (0.75, 0.75)),
    ((800, 600), "resizeAspect", "portraitUpsideDown", False, (315.625, 450), (0.25, 0.25)),
    ((600, 600), "resizeAspectFill", "landscapeRight", False, (300, 300), (0.5, 0.5)),
    ((600, 600), "resizeAspectFill", "landscapeRight", False, (0, 0), (0.21875, 0.0)),
    ((600, 600), "resizeAspectFill", "portrait", False, (0, 0), (0.21875, 1.0)),
    ((600, 600), "resizeAspectFill", "portrait", False, (150, 300), (0.5, 0.75)),
    ((600, 600), "resizeAspectFill", "portrait", True, (150, 300), (0.5, 0.25)),
    ((400, 300), "resize", "landscapeLeft", False, (100, 75), (0.75, 0.75)),
    ((400, 300), "resize", "portraitUpsideDown", False, (100, 75), (0.75, 0.25)),
    ((400, 300), "resize", "portrait", True, (100, 75), (0.25, 0.25)),
]

TO_VIEW = [
    # the sensor's top left corner: top right of the view in portrait, bottom right in landscapeLeft
    ((800, 600), "resizeAspect", "portrait", False, (0, 0), (568.75, 0)),
    ((800, 600), "resizeAspect", "landscapeLeft", False, (0, 0), (800, 525)),
    ((800, 600), "resizeAspect", "landscapeRight", True, (0, 0), (800, 75)),
    ((600, 600), "resizeAspectFill", "landscapeRight", False, (0.5, 0.25), (300, 150)),
    ((400, 300), "resize", "portraitUpsideDown", False, (0.75, 0.25), (100, 75)),
]

HTML = """<!doctype html><html><head><meta charset="utf-8">
<style>html,body{margin:0;background:#000;overflow:hidden}
#box{position:absolute;left:0;top:0;overflow:hidden;background:#000}
#pic{position:absolute;object-fit:fill;transform-origin:50%% 50%%;image-rendering:pixelated}</style>
</head><body><div id="box"><img id="pic"></div>
<script src="%s"></script>
<script>
// A test picture whose colour encodes the device point: red = x, green = y, blue 255.
var c = document.createElement('canvas'); c.width = 128; c.height = 72;
var g = c.getContext('2d'), d = g.createImageData(128, 72);
for (var y = 0; y < 72; y++) for (var x = 0; x < 128; x++) {
  var i = (y * 128 + x) * 4;
  d.data[i] = Math.round((x + 0.5) / 128 * 255); d.data[i + 1] = Math.round((y + 0.5) / 72 * 255);
  d.data[i + 2] = 255; d.data[i + 3] = 255;
}
g.putImageData(d, 0, 0);
document.getElementById('pic').src = c.toDataURL();
</script></body></html>"""


def main():
    page_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    geometry = os.path.join(os.path.abspath(page_dir), "geometry.js")
    html = os.path.join(out_dir, "geometry.html")
    with open(html, "w") as f:
        f.write(HTML % ("file://" + geometry))
    results = Results()
    screenshots = []
    driver = start_chromium(800, 600, out_dir)
    try:
        driver.get("file://" + html)
        driver.execute_async_script("var done = arguments[0]; var p = document.getElementById('pic');"
                                    "if (p.complete && p.naturalWidth) done(); else p.onload = done;")

        def to_device():
            failures = []
            for bounds, gravity, orientation, mirrored, view, expected in TO_DEVICE:
                got = driver.execute_script(
                    "return CaptureGeometry.captureDevicePointOfInterest({x: arguments[0], y: arguments[1]},"
                    "{bounds: {width: arguments[2], height: arguments[3]}, picture: arguments[4],"
                    " gravity: arguments[5], orientation: arguments[6], mirrored: arguments[7]})",
                    view[0], view[1], bounds[0], bounds[1], PICTURE, gravity, orientation, mirrored)
                ok = (got is None) if expected is None else (
                    got is not None and abs(got["x"] - expected[0]) < 1e-6 and abs(got["y"] - expected[1]) < 1e-6)
                if not ok:
                    failures.append({"case": [bounds, gravity, orientation, mirrored, view], "expected": expected, "got": got})
            return not failures, {"cases": len(TO_DEVICE), "failures": failures}

        def to_view():
            failures = []
            for bounds, gravity, orientation, mirrored, device, expected in TO_VIEW:
                got = driver.execute_script(
                    "return CaptureGeometry.layerPoint({x: arguments[0], y: arguments[1]},"
                    "{bounds: {width: arguments[2], height: arguments[3]}, picture: arguments[4],"
                    " gravity: arguments[5], orientation: arguments[6], mirrored: arguments[7]})",
                    device[0], device[1], bounds[0], bounds[1], PICTURE, gravity, orientation, mirrored)
                if not (abs(got["x"] - expected[0]) < 1e-6 and abs(got["y"] - expected[1]) < 1e-6):
                    failures.append({"case": [bounds, gravity, orientation, mirrored, device], "expected": expected, "got": got})
            return not failures, {"cases": len(TO_VIEW), "failures": failures}

        def round_trip():
            # view -> device -> view for a grid of points, every gravity, orientation and mirroring.
            worst = driver.execute_script("""
                var G = CaptureGeometry, worst = 0, count = 0;
                G.gravities.forEach(function (gravity) { G.orientations.forEach(function (orientation) {
                  [false, true].forEach(function (mirrored) {
                    var o = {bounds: {width: 390, height: 844}, picture: {width: 1280, height: 720},
                             gravity: gravity, orientation: orientation, mirrored: mirrored};
                    for (var x = 5; x < 390; x += 37) for (var y = 5; y < 844; y += 53) {
                      var d = G.captureDevicePointOfInterest({x: x, y: y}, o);
                      if (!d) continue;
                      var v = G.layerPoint(d, o); count++;
                      worst = Math.max(worst, Math.abs(v.x - x), Math.abs(v.y - y));
                    }
                  }); }); });
                return [worst, count];""")
            return worst[0] < 1e-9 and worst[1] > 500, {"worst_px": worst[0], "points": worst[1]}

        def css_matches_geometry():
            # The picture placed with elementBox: at sample view points the colour read from a
            # screenshot names the device point, which must match captureDevicePointOfInterest.
            failures, checked = [], 0
            for gravity, bounds in [("resizeAspect", (800, 600)), ("resizeAspectFill", (600, 600)), ("resize", (400, 300))]:
                for orientation in ["landscapeRight", "portrait", "landscapeLeft", "portraitUpsideDown"]:
                    for mirrored in [False, True]:
                        driver.execute_script("""
                            var o = {bounds: {width: arguments[0], height: arguments[1]}, picture: {width: 1280, height: 720},
                                     gravity: arguments[2], orientation: arguments[3], mirrored: arguments[4]};
                            var b = CaptureGeometry.elementBox(o), box = document.getElementById('box').style,
                                pic = document.getElementById('pic').style;
                            box.width = arguments[0] + 'px'; box.height = arguments[1] + 'px';
                            pic.left = b.left + 'px'; pic.top = b.top + 'px'; pic.width = b.width + 'px';
                            pic.height = b.height + 'px'; pic.transform = b.transform;""",
                                              bounds[0], bounds[1], gravity, orientation, mirrored)
                        shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
                        name = "geometry-%s-%s-%s.png" % (gravity, orientation, "mirrored" if mirrored else "plain")
                        if gravity == "resizeAspect" and not mirrored and orientation in ("landscapeRight", "portrait") or \
                                (gravity == "resizeAspectFill" and orientation == "portrait" and mirrored):
                            path = os.path.join(out_dir, name)
                            shot.save(path)
                            screenshots.append(path)
                        for fx in (0.13, 0.31, 0.5, 0.69, 0.87):
                            for fy in (0.17, 0.5, 0.83):
                                x, y = fx * bounds[0], fy * bounds[1]
                                expected = driver.execute_script(
                                    "return CaptureGeometry.captureDevicePointOfInterest({x: arguments[0], y: arguments[1]},"
                                    "{bounds: {width: arguments[2], height: arguments[3]}, picture: {width: 1280, height: 720},"
                                    " gravity: arguments[4], orientation: arguments[5], mirrored: arguments[6]})",
                                    x, y, bounds[0], bounds[1], gravity, orientation, mirrored)
                                r, g, b = shot.getpixel((int(x), int(y)))
                                checked += 1
                                if expected is None:
                                    if b > 60:  # a bar must be black
                                        failures.append({"case": [gravity, orientation, mirrored, (x, y)], "expected": "bar", "rgb": (r, g, b)})
                                    continue
                                seen = (r / 255.0, g / 255.0)
                                if b < 200 or abs(seen[0] - expected["x"]) > 0.03 or abs(seen[1] - expected["y"]) > 0.04:
                                    failures.append({"case": [gravity, orientation, mirrored, (x, y)], "expected": expected, "seen": seen})
            return not failures, {"points": checked, "failures": failures[:10]}

        results.run("geometry_to_device_hand_cases", to_device)
        results.run("geometry_to_view_hand_cases", to_view)
        results.run("geometry_round_trip", round_trip)
        results.run("geometry_css_picture_matches_conversion", css_matches_geometry)
    finally:
        driver.quit()
    results.dump(screenshots=screenshots, out_dir=out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
