"""The camera page of `capture serve` in one headless-Chromium session, against a running server
with the virtual camera.

Usage: /usr/bin/python3 browser_checks.py URL OUT_DIR [--only NAME,NAME]
URL is the page (http://127.0.0.1:PORT/, with ?token=T when the server wants one). Prints one
JSON object on stdout: {"checks": {name: {"ok": bool, ...}}, "passed": N, "failed": N,
"screenshots": [paths]}; progress on stderr. Screenshots (PNG) go to OUT_DIR.

Every expected number below is computed by hand (or by this file's own arithmetic), never by
calling the page's geometry.js.
"""
import base64
import io
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from PIL import Image, ImageChops, ImageOps, ImageStat
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browserlib import Results, set_viewport, start_chromium, wait_until  # noqa: E402

QR_TEXT = "https://capturekit.dev/virtual-camera"
WIDTH, HEIGHT = 800, 600

# Wraps fetch and WebSocket before the page's scripts run, to read what the page sent.
RECORDER = r"""
(function () {
  window.__sent = []; window.__sockets = []; window.__pointers = [];
  var originalFetch = window.fetch;
  window.fetch = function (input, init) {
    try {
      var headers = (init && init.headers) || {};
      window.__sent.push({ url: typeof input === "string" ? input : input.url, method: (init && init.method) || "GET",
        body: init && typeof init.body === "string" ? init.body : null,
        auth: headers["Authorization"] || headers["authorization"] || null, t: performance.now() });
    } catch (e) {}
    return originalFetch.apply(this, arguments);
  };
  var OriginalSocket = window.WebSocket;
  function RecordingSocket(url, protocols) {
    window.__sockets.push(String(url));
    return protocols === undefined ? new OriginalSocket(url) : new OriginalSocket(url, protocols);
  }
  RecordingSocket.prototype = OriginalSocket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { RecordingSocket[k] = OriginalSocket[k]; });
  window.WebSocket = RecordingSocket;
  window.addEventListener("pointerup", function (e) { window.__pointers.push(e.pointerType); }, true);
})();
"""

# Makes WebRTC unable to connect: the answer's candidates are dropped (no trickle, so none come).
NO_CANDIDATES = r"""
(function () {
  var original = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description) {
    var sdp = description.sdp.split("\r\n").filter(function (l) { return l.indexOf("a=candidate") !== 0; }).join("\r\n");
    return original.call(this, { type: description.type, sdp: sdp });
  };
})();
"""

# Samples of the decoded picture (the stream's own frames, unturned): mean luma over the middle
# rows (the frame stamp's top rows and the moving square's band left out), a small gray copy for
# differences, and a frame counter with requestVideoFrameCallback.
SAMPLER = r"""
window.__pictureElement = function () {
  return captureApp.transport === "MJPEG" ? document.getElementById("mjpeg") : document.getElementById("video");
};
window.__gray = function (w, h) {
  var el = __pictureElement(), c = document.createElement("canvas");
  c.width = w; c.height = h;
  var g = c.getContext("2d", { willReadFrequently: true });
  g.drawImage(el, 0, 0, w, h);
  var d = g.getImageData(0, 0, w, h).data, out = new Array(w * h);
  for (var i = 0; i < w * h; i++) out[i] = Math.round(0.299 * d[4 * i] + 0.587 * d[4 * i + 1] + 0.114 * d[4 * i + 2]);
  return out;
};
window.__meanLuma = function () {
  var w = 160, h = 90, gray = __gray(w, h), sum = 0, n = 0;
  for (var y = Math.floor(h * 0.2); y < Math.floor(h * 0.85); y++) for (var x = 0; x < w; x++) { sum += gray[y * w + x]; n++; }
  return sum / n;
};
// Calls back with luma samples taken on each decoded frame (or every 40 ms for MJPEG) for ms.
window.__lumaFor = function (ms, done) {
  var samples = [], end = performance.now() + ms, video = document.getElementById("video");
  if (captureApp.transport === "WebRTC" && video.requestVideoFrameCallback) {
    var frame = function () {
      samples.push(__meanLuma());
      if (performance.now() < end) video.requestVideoFrameCallback(frame); else done(samples);
    };
    video.requestVideoFrameCallback(frame);
    setTimeout(function () { if (performance.now() > end + 2000) done(samples); }, ms + 2500);
  } else {
    var timer = setInterval(function () {
      samples.push(__meanLuma());
      if (performance.now() >= end) { clearInterval(timer); done(samples); }
    }, 40);
  }
};
// Counts frames the video decodes (requestVideoFrameCallback) for ms.
window.__countFrames = function (ms, done) {
  var video = document.getElementById("video"), count = 0, first = null, last = null, size = null;
  var end = performance.now() + ms;
  function frame(now, metadata) {
    count++; if (first === null) first = metadata.presentedFrames; last = metadata.presentedFrames;
    size = [metadata.width, metadata.height];
    if (performance.now() < end) video.requestVideoFrameCallback(frame);
  }
  video.requestVideoFrameCallback(frame);
  setTimeout(function () { done({ callbacks: count, presented: last === null ? 0 : last - first + 1, size: size }); }, ms + 100);
};
"""


class Page:
    def __init__(self, base_url, out_dir):
        parts = urllib.parse.urlsplit(base_url)
        self.origin = "%s://%s" % (parts.scheme, parts.netloc)
        self.token = dict(urllib.parse.parse_qsl(parts.query)).get("token")
        self.out_dir = out_dir
        self.screenshots = []
        self.driver = start_chromium(WIDTH, HEIGHT, out_dir)
        self.recorder = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})["identifier"]

    def url(self, **params):
        query = {}
        if self.token:
            query["token"] = self.token
        query.update({k: str(v) for k, v in params.items()})
        return self.origin + "/?" + urllib.parse.urlencode(query)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def js_async(self, script, *args):
        return self.driver.execute_async_script(script, *args)

    def open(self, **params):
        self.driver.get(self.url(**params))
        self.js(SAMPLER)
        loaded = wait_until(lambda: self.js("return !!(window.captureApp && captureApp.state)"), 15)
        if not loaded:
            raise AssertionError("the page never read /api/state: %s" % self.js("return window.captureApp && captureApp.errors"))

    def transport(self, timeout=15):
        return wait_until(lambda: self.js("return captureApp.transport === 'WebRTC' || captureApp.transport === 'MJPEG' ? captureApp.transport : null"), timeout)

    def shot(self, name):
        path = os.path.join(self.out_dir, name + ".png")
        self.driver.save_screenshot(path)
        self.screenshots.append(path)
        return path

    def image(self):
        return Image.open(io.BytesIO(self.driver.get_screenshot_as_png())).convert("RGB")

    def api(self, path, method="GET", body=None):
        """A request from the page's context, with the token the page uses."""
        return self.js_async("""
            var done = arguments[arguments.length - 1], headers = {};
            if (arguments[3]) headers["Authorization"] = "Bearer " + arguments[3];
            if (arguments[2] !== null) headers["Content-Type"] = "application/json";
            fetch(arguments[0], {method: arguments[1], headers: headers, body: arguments[2] === null ? undefined : arguments[2]})
              .then(function (r) { return r.text().then(function (t) { done({status: r.status, type: r.headers.get("Content-Type"), text: t}); }); })
              .catch(function (e) { done({status: 0, text: String(e)}); });""",
                             path, method, None if body is None else json.dumps(body), self.token)

    def state(self):
        response = self.api("/api/state")
        return json.loads(response["text"]) if response["status"] == 200 else None

    def click_id(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def click_at(self, x, y):
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(int(x), int(y))
        actions.pointer_action.click()
        actions.perform()

    def set_slider(self, element_id, value):
        self.js("""var i = document.getElementById(arguments[0]); i.value = String(arguments[1]);
                   i.dispatchEvent(new Event('input', {bubbles: true})); i.dispatchEvent(new Event('change', {bubbles: true}));""",
                element_id, value)

    def sent(self, path_prefix, since=0):
        return [entry for entry in self.js("return window.__sent") if urllib.parse.urlsplit(entry["url"]).path.startswith(path_prefix) and entry["t"] > since]

    def now(self):
        return self.js("return performance.now()")

    def gray(self, w=80, h=45):
        return self.js("return __gray(arguments[0], arguments[1])", w, h)

    def luma_for(self, ms):
        return self.js_async("__lumaFor(arguments[0], arguments[1])", ms)


def controls(state):
    return (state or {}).get("controls") or {}


def value(control):
    if isinstance(control, dict):
        return control.get("value")
    return control


def device_id(state):
    state = state or {}
    device = state.get("device")
    if isinstance(device, dict):
        return device.get("uniqueID")
    return device or controls(state).get("uniqueID") or state.get("uniqueID")


def mean_abs_diff(a, b, w=80, h=45, rows=(0.2, 0.85)):
    total, n = 0, 0
    for y in range(int(h * rows[0]), int(h * rows[1])):
        for x in range(w):
            total += abs(a[y * w + x] - b[y * w + x])
            n += 1
    return total / n


def qr_outline(page):
    """The QR code's outline on the page: its points, or None."""
    return page.js("""var text = arguments[0], p = Array.from(document.querySelectorAll('#overlay polygon.metadata')).filter(function (p) {
        return p.getAttribute('data-string') === text; })[0];
        return p ? Array.from(p.points).map(function (q) { return [q.x, q.y]; }) : null;""", QR_TEXT)


def contrast_inside(image, points):
    """The gray levels' standard deviation inside an outline's box (shrunk by a tenth): high on a
    code's black and white modules, low on the scene's plain gray."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    box = (int(min(xs) + w * 0.1), int(min(ys) + h * 0.1), int(max(xs) - w * 0.1), int(max(ys) - h * 0.1))
    return ImageStat.Stat(image.crop(box).convert("L")).stddev[0]


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else None


# Taps in an 800x600 view of a 16:9 picture, computed by hand (see geometry_checks.py for the
# rects): gravity, orientation, mirrored, view point, expected device point (None: a bar).
# resizeAspect: landscape rect (0, 75, 800, 450); portrait rect (231.25, 0, 337.5, 600).
# resizeAspectFill: landscape rect (-133.33, 0, 1066.67, 600); portrait rect (0, -411.11, 800, 1422.22).
# resize: the whole view.
TAPS = [
    ("resizeAspect", "landscapeRight", 0, (200, 300), (0.25, 0.5)),
    ("resizeAspect", "landscapeRight", 0, (600, 120), (0.75, 0.1)),
    ("resizeAspect", "landscapeRight", 0, (400, 70), None),
    ("resizeAspect", "landscapeRight", 1, (200, 300), (0.75, 0.5)),
    ("resizeAspect", "landscapeLeft", 0, (200, 300), (0.75, 0.5)),
    ("resizeAspect", "portrait", 0, (400, 150), (0.25, 0.5)),
    ("resizeAspect", "portrait", 0, (300, 450), (0.75, 0.7962963)),
    ("resizeAspect", "portrait", 0, (150, 300), None),
    ("resizeAspect", "portrait", 1, (300, 450), (0.75, 0.2037037)),
    ("resizeAspectFill", "landscapeRight", 0, (400, 300), (0.5, 0.5)),
    ("resizeAspectFill", "landscapeRight", 0, (600, 150), (0.6875, 0.25)),
    ("resizeAspectFill", "landscapeRight", 0, (100, 450), (0.21875, 0.75)),
    ("resizeAspectFill", "portrait", 0, (200, 300), (0.5, 0.75)),
    ("resizeAspectFill", "portrait", 0, (600, 100), (0.359375, 0.25)),
    ("resize", "landscapeLeft", 0, (200, 150), (0.75, 0.75)),
    ("resize", "portraitUpsideDown", 0, (200, 150), (0.75, 0.25)),
    ("resize", "portraitUpsideDown", 0, (600, 450), (0.25, 0.75)),
]

# The QR code's label in the virtual scene (VirtualScene.Code.defaults: x 0.05, y 0.08, the
# largest square in 0.5 x 0.5 of the frame): at 16:9 its centre is device (0.190625, 0.329).
QR_CENTRE = (0.190625, 0.329)
# Its centre in the 800x600 view: landscapeRight resizeAspect (x * 800, 75 + y * 450);
# portrait resizeAspect (231.25 + (1 - y) * 337.5, x * 600).
QR_VIEW = {"landscapeRight": (152.5, 223.05), "portrait": (457.64, 114.38)}


def main():
    base_url, out_dir = sys.argv[1], sys.argv[2]
    only = None
    if "--only" in sys.argv:
        only = set(sys.argv[sys.argv.index("--only") + 1].split(","))
    os.makedirs(out_dir, exist_ok=True)
    results = Results()
    page = Page(base_url, out_dir)
    info = {}

    def wanted(name):
        return only is None or name in only

    def check(name, function):
        if wanted(name):
            results.run(name, function)

    try:
        page.open(gravity="resizeAspect", orientation="landscapeRight", mirrored=0)

        def preview_plays():
            transport = page.transport(15)
            counted = page.js_async("__countFrames(2000, arguments[0])") if transport == "WebRTC" else None
            picture = page.js("return captureApp.geometryOptions().picture")
            info["picture"] = picture
            page.shot("preview-webrtc")
            ok = transport == "WebRTC" and counted["presented"] >= 10 and counted["callbacks"] >= 10
            return ok, {"transport": transport, "frames_in_2s": counted, "picture": picture,
                        "badge": page.js("return document.getElementById('transport').textContent"),
                        "fallback_reason": page.js("return captureApp.fallbackReason")}
        check("preview_webrtc_plays", preview_plays)
        if not page.transport(1):
            page.transport(10)

        def picture_is_16_9():
            picture = page.js("return captureApp.geometryOptions().picture")
            return abs(picture["width"] / picture["height"] - 16 / 9) < 0.01, {"picture": picture}
        check("picture_16_9", picture_is_16_9)

        def qr_outlined():
            found = {}
            for orientation in ["landscapeRight", "portrait"]:
                page.js("captureApp.setView({gravity: 'resizeAspect', orientation: arguments[0], mirrored: 0})", orientation)
                expected = QR_VIEW[orientation]

                def polygon():
                    shapes = page.js("""return Array.from(document.querySelectorAll('#overlay polygon.metadata')).map(function (p) {
                        return {string: p.getAttribute('data-string'), type: p.getAttribute('data-type'),
                                points: Array.from(p.points).map(function (q) { return [q.x, q.y]; })}; })""")
                    for shape in shapes:
                        if shape["string"] == QR_TEXT and shape["points"]:
                            xs = [p[0] for p in shape["points"]]
                            ys = [p[1] for p in shape["points"]]
                            centre = (sum(xs) / len(xs), sum(ys) / len(ys))
                            if abs(centre[0] - expected[0]) < 40 and abs(centre[1] - expected[1]) < 40:
                                return {"centre": centre, "points": shape["points"], "type": shape["type"]}
                    return None
                seen = wait_until(polygon, 10, 0.2)
                label = page.js("return Array.from(document.querySelectorAll('#overlay text')).map(function (t) { return t.textContent; })")
                page.shot("qr-outlined-" + orientation)
                if seen:
                    seen["contrast_inside"] = contrast_inside(page.image(), seen["points"])
                found[orientation] = {"polygon": seen, "expected_centre": expected, "labels": label,
                                      "last_batch": page.js("return captureApp.metadata.slice(0, 3)") if not seen else None}
            page.js("captureApp.setView({gravity: 'resizeAspect', orientation: 'landscapeRight', mirrored: 0})")
            ok = all(entry["polygon"] and entry["polygon"]["contrast_inside"] > 50 and QR_TEXT in entry["labels"] for entry in found.values())
            return ok, {"orientations": found, "sockets": page.js("return window.__sockets.slice(-2)")}
        check("qr_outlined_with_string", qr_outlined)

        def snap():
            before = page.js("return captureApp.snaps.length")
            page.click_id("snap")
            got = wait_until(lambda: page.js("return captureApp.snaps.length > arguments[0]", before), 15)
            if not got:
                return False, {"error": "no snap", "errors": page.js("return captureApp.errors")}
            data = page.js_async("""var done = arguments[0], blob = captureApp.lastSnap.blob, reader = new FileReader();
                reader.onload = function () { done(reader.result.split(',')[1]); }; reader.readAsDataURL(blob);""")
            jpeg = base64.b64decode(data)
            path = os.path.join(out_dir, "snap.jpg")
            with open(path, "wb") as f:
                f.write(jpeg)
            validate = subprocess.run(["/usr/bin/exiftool", "-validate", "-warning", "-error", "-a", "-s", "-s", path],
                                      capture_output=True, text=True)
            tags = subprocess.run(["/usr/bin/exiftool", "-j", "-n", "-ImageWidth", "-ImageHeight", "-Make", "-Model", "-Orientation", path],
                                  capture_output=True, text=True)
            meta = json.loads(tags.stdout)[0] if tags.stdout.strip().startswith("[") else {}
            validation = validate.stdout.strip()
            gallery = page.js("""return Array.from(document.querySelectorAll('#gallery li.photo')).map(function (li) {
                var a = li.querySelector('a.download'); return {name: li.dataset.name, download: a && a.getAttribute('download'), href: a && a.href}; })""")
            picture = info.get("picture") or {}
            full = meta.get("ImageWidth", 0) * meta.get("ImageHeight", 0) >= picture.get("width", 0) * picture.get("height", 0)
            ok = (jpeg[:2] == b"\xff\xd8" and "Validate" in validation and "OK" in validation.split("Validate", 1)[1].split("\n")[0]
                  and "Warning" not in validation and "Error" not in validation and len(gallery) > before and gallery[0]["download"] and full)
            return ok, {"bytes": len(jpeg), "file": path, "exiftool_validate": validation, "exif": meta, "gallery": gallery[:2],
                        "full_resolution": full}
        check("snap_jpeg_validates", snap)

        def torch():
            state = page.state()
            supported = (controls(state).get("torchMode") or {}).get("supported") if isinstance(controls(state).get("torchMode"), dict) else None
            if page.js("return document.getElementById('torch').disabled"):
                return False, {"error": "the torch button is disabled", "torchMode": controls(state).get("torchMode"), "device": device_id(state)}
            baseline = page.luma_for(1000)
            # Sampling starts before the click: auto exposure takes the torch's light back within a
            # few frames, and those frames would be gone by the time /api/state said "on".
            page.js("window.__torchLuma = null; __lumaFor(2500, function (samples) { window.__torchLuma = samples; })")
            page.click_id("torch")
            on_state = wait_until(lambda: value(controls(page.state()).get("torchMode")) == "on" or None, 5)
            pressed = page.js("return document.getElementById('torch').getAttribute('aria-pressed')")
            lit = wait_until(lambda: page.js("return window.__torchLuma"), 8, 0.1) or []
            page.shot("torch-on")
            page.click_id("torch")
            off_state = wait_until(lambda: value(controls(page.state()).get("torchMode")) == "off" or None, 5)
            base, peak = median(baseline), max(lit) if lit else None
            ok = bool(on_state) and pressed == "true" and bool(off_state) and peak is not None and base is not None and peak > base * 1.1 + 3
            return ok, {"supported": supported, "state_on": bool(on_state), "state_off_after": bool(off_state), "button_pressed": pressed,
                        "luma_before_median": base, "luma_with_torch_max": peak, "luma_with_torch_last": lit[-1] if lit else None,
                        "samples": [len(baseline), len(lit)]}
        check("torch_changes_state_and_picture", torch)

        def bias():
            state = controls(page.state()).get("exposureTargetBias") or {}
            slider = page.js("var i = document.getElementById('bias'); return {min: +i.min, max: +i.max, disabled: i.disabled}")
            before = median(page.luma_for(800))
            target = min(2.0, state.get("max", 2.0))
            page.set_slider("bias", target)
            applied = wait_until(lambda: abs((value(controls(page.state()).get("exposureTargetBias")) or 0) - target) < 0.05 or None, 5)
            time.sleep(1.0)  # auto exposure aims higher over a few frames
            after = median(page.luma_for(800))
            page.set_slider("bias", 0)
            wait_until(lambda: abs(value(controls(page.state()).get("exposureTargetBias")) or 0) < 0.05 or None, 5)
            clamped = slider["min"] == state.get("min") and slider["max"] == state.get("max")
            ok = bool(applied) and clamped and after is not None and after > before + 5
            return ok, {"range_state": [state.get("min"), state.get("max")], "slider": slider, "applied": bool(applied),
                        "luma_before": before, "luma_at_bias": after}
        check("exposure_bias_slider", bias)

        def zoom():
            state = controls(page.state()).get("videoZoomFactor") or {}
            slider = page.js("var i = document.getElementById('zoom'); return {min: +i.min, max: +i.max, disabled: i.disabled}")
            a, b = page.gray(), None
            time.sleep(0.3)
            b = page.gray()
            noise = mean_abs_diff(a, b)
            page.set_slider("zoom", 3)
            applied = wait_until(lambda: abs((value(controls(page.state()).get("videoZoomFactor")) or 0) - 3) < 0.05 or None, 5)
            time.sleep(0.8)
            zoomed = page.gray()
            page.shot("zoom-3x")
            change = mean_abs_diff(b, zoomed)
            # Past the device's maximum the slider stops at it.
            page.set_slider("zoom", 1000)
            top = page.js("return +document.getElementById('zoom').value")
            page.set_slider("zoom", 1)
            back = wait_until(lambda: abs((value(controls(page.state()).get("videoZoomFactor")) or 0) - 1) < 0.05 or None, 5)
            clamped = slider["min"] == state.get("min") and slider["max"] == state.get("max") and top == state.get("max")
            ok = bool(applied) and bool(back) and clamped and change > noise + 8
            return ok, {"range_state": [state.get("min"), state.get("max")], "slider": slider, "slider_at_1000": top,
                        "applied": bool(applied), "diff_between_frames": round(noise, 2), "diff_after_zoom": round(change, 2)}
        check("zoom_slider", zoom)

        def taps():
            failures, cases = [], []
            for gravity, orientation, mirrored, view, expected in TAPS:
                page.js("captureApp.setView({gravity: arguments[0], orientation: arguments[1], mirrored: arguments[2]})",
                        gravity, orientation, mirrored)
                since = page.now()
                page.click_at(*view)
                if expected is None:
                    time.sleep(0.4)
                    posts = page.sent("/api/controls", since)
                    sent = [json.loads(p["body"]) for p in posts if p["body"]]
                    ok = not any("focusPointOfInterest" in s for s in sent)
                    got = None
                else:
                    got = wait_until(lambda: next((json.loads(p["body"]) for p in reversed(page.sent("/api/controls", since))
                                                   if p["body"] and "focusPointOfInterest" in json.loads(p["body"])), None), 3)
                    ok = bool(got)
                    if got:
                        for key in ("focusPointOfInterest", "exposurePointOfInterest"):
                            point = got.get(key) or {}
                            if not (abs(point.get("x", -1) - expected[0]) < 1e-3 and abs(point.get("y", -1) - expected[1]) < 1e-3):
                                ok = False
                case = {"gravity": gravity, "orientation": orientation, "mirrored": mirrored, "view": view,
                        "expected": expected, "sent": got, "ok": ok}
                cases.append(case)
                if not ok:
                    failures.append(case)
                time.sleep(0.15)
            state = page.state() or {}
            in_state = {k: state.get(k) or controls(state).get(k) for k in ("focusPointOfInterest", "exposurePointOfInterest")}
            last = next(c for c in reversed(cases) if c["expected"])
            page.js("captureApp.setView({gravity: 'resizeAspect', orientation: 'landscapeRight', mirrored: 0})")
            return not failures, {"cases": len(cases), "failures": failures, "state_after_last_tap": in_state,
                                  "last_expected": last["expected"]}
        check("tap_sends_device_point", taps)

        def switch_camera():
            page.js("captureApp.setView({gravity: 'resizeAspect', orientation: 'landscapeRight', mirrored: 'auto'})")
            # The taps left the camera focused and exposed at their last point (one of them a plain
            # patch or a corner): point both back at the centre and let them settle, so that the
            # picture compared is the camera's own and not a focus or exposure change.
            page.api("/api/controls", "POST", {"focusPointOfInterest": {"x": 0.5, "y": 0.5},
                                               "exposurePointOfInterest": {"x": 0.5, "y": 0.5}})
            time.sleep(2.0)
            first = device_id(page.state())
            before = page.image()
            page.shot("switch-before")
            page.click_id("switch")
            changed = wait_until(lambda: (device_id(page.state()) != first and device_id(page.state())) or None, 10)
            ui = wait_until(lambda: page.js("return (captureApp.currentDevice() || {}).uniqueID") == changed or None, 6)
            time.sleep(1.5)
            transport = page.js("return captureApp.transport")
            frames = page.js_async("__countFrames(1500, arguments[0])") if transport == "WebRTC" else None
            after = page.image()
            page.shot("switch-after")
            position = page.js("return (captureApp.currentDevice() || {}).position || null")
            mirrored = page.js("return captureApp.geometryOptions().mirrored")
            # The picture region compared with the mirror image of what was shown before.
            region = (0, 90, WIDTH, 460)
            plain = ImageStat.Stat(ImageChops.difference(before.crop(region), after.crop(region)).convert("L")).mean[0]
            flipped = ImageStat.Stat(ImageChops.difference(ImageOps.mirror(before).crop(region), after.crop(region)).convert("L")).mean[0]
            def moved_outline():
                points = qr_outline(page)
                if not points:
                    return None
                centre = [sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)]
                expected = (WIDTH - QR_VIEW["landscapeRight"][0], QR_VIEW["landscapeRight"][1])
                return centre if abs(centre[0] - expected[0]) < 40 and abs(centre[1] - expected[1]) < 40 else None
            qr = wait_until(moved_outline, 8, 0.2)
            outline_moved = qr is not None
            page.click_id("switch")
            back = wait_until(lambda: device_id(page.state()) == first or None, 10)
            time.sleep(1.0)
            page.js("captureApp.setView({gravity: 'resizeAspect', orientation: 'landscapeRight', mirrored: 0})")
            playing = frames is None or frames["presented"] >= 5
            # The front camera's picture is shown mirrored (AVFoundation's automatic mirroring): the
            # page now looks like the mirror image of what it showed, and the QR code's outline has
            # moved to the right, its centre at (800 - 152.5, 223).
            shows_change = (position != "front") or (mirrored and flipped < plain * 0.6 and outline_moved)
            ok = bool(changed) and bool(ui) and bool(back) and playing and shows_change
            return ok, {"from": first, "to": changed, "position": position, "page_mirrors": mirrored, "frames_after": frames,
                        "qr_outline_centre_after": qr, "diff_plain": round(plain, 2), "diff_vs_mirrored_before": round(flipped, 2),
                        "back_to_first": bool(back)}
        check("switch_camera", switch_camera)

        def webrtc_after_switching():
            # A viewer who comes after the cameras were switched (and back) gets a picture too.
            page.open(gravity="resizeAspect", orientation="landscapeRight", mirrored=0)
            transport = page.transport(15)
            counted = page.js_async("__countFrames(1500, arguments[0])") if transport == "WebRTC" else None
            ok = transport == "WebRTC" and counted["presented"] >= 5
            return ok, {"transport": transport, "frames": counted, "fallback_reason": page.js("return captureApp.fallbackReason"),
                        "device": device_id(page.state())}
        check("webrtc_plays_after_switching_back", webrtc_after_switching)
        if page.js("return captureApp.transport") != "WebRTC" and wanted("record_shows_time_size_and_lists_file"):
            page.open(gravity="resizeAspect", orientation="landscapeRight", mirrored=0)
            page.transport(15)

        def record():
            page.click_id("record")
            started = wait_until(lambda: page.js("return !!captureApp.recording") or None, 8)
            time.sleep(2.5)
            shown = page.js("""return {time: document.getElementById('record-time').textContent, size: document.getElementById('record-size').textContent,
                visible: !document.getElementById('record-status').hidden, button: document.getElementById('record').textContent}""")
            state = page.state() or {}
            page.shot("recording")
            before = page.js("return document.querySelectorAll('#gallery li.movie').length")
            page.click_id("record")
            listed = wait_until(lambda: page.js("return document.querySelectorAll('#gallery li.movie').length > arguments[0]", before), 15)
            item = page.js("""var li = document.querySelector('#gallery li.movie'); if (!li) return null;
                var a = li.querySelector('a.download'); return {name: li.dataset.name, href: a.getAttribute('href'), download: a.getAttribute('download')};""")
            fetched = None
            if item:
                fetched = page.js_async("""var done = arguments[1]; fetch(arguments[0]).then(function (r) { return r.arrayBuffer().then(function (b) {
                    done({status: r.status, type: r.headers.get('Content-Type'), bytes: b.byteLength}); }); }).catch(function (e) { done({status: 0, error: String(e)}); });""",
                                            item["href"])
            page.js("document.getElementById('gallery-button').click()")
            page.shot("gallery")
            page.js("document.getElementById('gallery-button').click()")
            seconds = shown["time"].split(":")
            elapsed = int(seconds[0]) * 60 + int(seconds[1]) if len(seconds) == 2 and all(s.isdigit() for s in seconds) else -1
            token_ok = not page.token or (item and "token=" + page.token in item["href"])
            ok = (bool(started) and shown["visible"] and elapsed >= 1 and shown["size"] not in ("", "0 B") and bool(listed) and fetched
                  and fetched["status"] == 200 and fetched["bytes"] > 1000 and token_ok)
            return ok, {"shown_while_recording": shown, "state_recording": state.get("recording"), "gallery_item": item,
                        "download": fetched}
        check("record_shows_time_size_and_lists_file", record)

        def narrow_touch():
            set_viewport(page.driver, 390, 844, mobile=True)
            page.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
            time.sleep(0.5)
            rects = page.js("""var out = {}; ['switch', 'torch', 'snap', 'record', 'zoom', 'bias', 'preview', 'transport'].forEach(function (id) {
                var r = document.getElementById(id).getBoundingClientRect(); out[id] = [r.left, r.top, r.right, r.bottom]; }); return out;""")
            page.shot("phone-390x844")
            buttons = [rects[k] for k in ("switch", "torch", "snap", "record")]
            inside = all(r[0] >= 0 and r[2] <= 390 and r[3] <= 844 and r[1] > 844 * 0.75 for r in buttons)
            disjoint = all(a[2] <= b[0] + 0.5 for a, b in zip(buttons, buttons[1:]))
            full = rects["preview"] == [0, 0, 390, 844]
            # A touch tap in the picture's centre: resizeAspect landscape in 390x844 shows the picture
            # 390 x 219.375 at y 312.31, so (195, 422) is device (0.5, 0.5).
            since = page.now()
            for kind in ("touchStart", "touchEnd"):
                page.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
                    "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": 195, "y": 422}]})
            got = wait_until(lambda: next((json.loads(p["body"]) for p in reversed(page.sent("/api/controls", since))
                                           if p["body"] and "focusPointOfInterest" in json.loads(p["body"])), None), 3)
            pointer = page.js("return window.__pointers.slice(-1)[0]")
            point = (got or {}).get("focusPointOfInterest") or {}
            tapped = abs(point.get("x", -1) - 0.5) < 0.01 and abs(point.get("y", -1) - 0.5) < 0.01
            page.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
            set_viewport(page.driver, WIDTH, HEIGHT)
            ok = inside and disjoint and full and tapped and pointer == "touch"
            return ok, {"rects": rects, "buttons_inside_bottom": inside, "buttons_disjoint": disjoint, "preview_full_screen": full,
                        "touch_sent": got, "pointer_type": pointer}
        check("narrow_screen_and_touch", narrow_touch)

        def token_kept():
            if not page.token:
                return True, {"token": None}
            sent = page.js("return window.__sent")
            # (Download links carry ?token= instead, as an <a href> must.)
            missing = [s["url"] for s in sent if s["auth"] != "Bearer " + page.token and "token=" + page.token not in s["url"]]
            sockets = page.js("return window.__sockets")
            bad_sockets = [s for s in sockets if "token=" + page.token not in s]
            # Without the token the server refuses (so the checks above mean something).
            try:
                refused = urllib.request.urlopen(page.origin + "/api/state", timeout=5).status
            except urllib.error.HTTPError as error:
                refused = error.code
            resources = page.js("""return performance.getEntriesByType('resource').map(function (e) { return e.name; })
                .filter(function (n) { return /\\.(js|css)(\\?|$)/.test(n); })""")
            bad_resources = [r for r in resources if "token=" + page.token not in r]
            ok = not missing and sockets and not bad_sockets and refused == 401 and not bad_resources
            return ok, {"fetches": len(sent), "without_bearer": missing[:5], "sockets": len(sockets),
                        "sockets_without_token": bad_sockets[:3], "status_without_token": refused,
                        "page_files": resources, "page_files_without_token": bad_resources}
        check("token_on_fetches_and_socket", token_kept)

        def mjpeg_fallback():
            page.open(webrtc=0)
            transport = page.transport(10)
            src = page.js("return document.getElementById('mjpeg').getAttribute('src')")
            ready = wait_until(lambda: page.js("return document.getElementById('mjpeg').naturalWidth") or None, 10)
            a = page.gray()
            time.sleep(1.0)
            b = page.gray()
            # The moving square's band (rows 0.88-0.98) changes between frames.
            band = sum(abs(a[y * 80 + x] - b[y * 80 + x]) for y in range(40, 44) for x in range(80)) / 320
            badge = page.js("return document.getElementById('transport').textContent")
            page.shot("preview-mjpeg")
            token_ok = not page.token or ("token=" + page.token in (src or ""))
            ok = transport == "MJPEG" and badge == "MJPEG" and bool(ready) and band > 2 and token_ok
            return ok, {"transport": transport, "badge": badge, "src": src, "natural_width": ready, "band_change": round(band, 2)}
        check("mjpeg_fallback_with_webrtc_off", mjpeg_fallback)

        def mjpeg_front_camera():
            # Over MJPEG too, the front camera's picture is shown mirrored once: the QR code's
            # outline (the server's view coordinates, mirrored) lies on the code in the picture.
            if page.js("return captureApp.transport") != "MJPEG":
                page.open(webrtc=0)
                page.transport(10)
            page.js("captureApp.setView({gravity: 'resizeAspect', orientation: 'landscapeRight', mirrored: 'auto'})")
            first = device_id(page.state())
            time.sleep(0.5)
            before = page.image()
            page.click_id("switch")
            changed = wait_until(lambda: (device_id(page.state()) != first and device_id(page.state())) or None, 10)
            wait_until(lambda: page.js("return (captureApp.currentDevice() || {}).uniqueID") == changed or None, 6)
            time.sleep(2.0)
            outline = wait_until(lambda: qr_outline(page), 5)
            image = page.image()
            page.shot("mjpeg-front-camera")
            contrast = contrast_inside(image, outline) if outline else None
            centre = [sum(p[0] for p in outline) / len(outline), sum(p[1] for p in outline) / len(outline)] if outline else None
            # The picture shown is the mirror image of the back camera's (the same scene).
            region = (0, 90, WIDTH, 460)
            plain = ImageStat.Stat(ImageChops.difference(before.crop(region), image.crop(region)).convert("L")).mean[0]
            flipped = ImageStat.Stat(ImageChops.difference(ImageOps.mirror(before).crop(region), image.crop(region)).convert("L")).mean[0]
            page.click_id("switch")
            back = wait_until(lambda: device_id(page.state()) == first or None, 10)
            ok = bool(changed) and outline is not None and centre[0] > WIDTH / 2 and contrast > 50 and flipped < plain * 0.6 and bool(back)
            return ok, {"from": first, "to": changed, "outline_centre": centre, "contrast_inside_outline": contrast,
                        "diff_plain": round(plain, 2), "diff_vs_mirrored_back_camera": round(flipped, 2),
                        "mirrored": page.js("return captureApp.geometryOptions().mirrored"), "back": bool(back)}
        check("mjpeg_front_camera_mirrored_once", mjpeg_front_camera)

        def unreachable():
            script = page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_CANDIDATES})["identifier"]
            try:
                started = time.monotonic()
                page.open()
                transport = page.transport(20)
                seconds = time.monotonic() - started
                reason = page.js("return captureApp.fallbackReason")
                plays = wait_until(lambda: page.js("return document.getElementById('mjpeg').naturalWidth") or None, 10)
            finally:
                page.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
            return transport == "MJPEG" and bool(plays), {"transport": transport, "reason": reason, "seconds_to_fallback": round(seconds, 1)}
        check("mjpeg_fallback_when_webrtc_cannot_connect", unreachable)
    finally:
        try:
            errors = [e for e in page.driver.get_log("browser") if e.get("level") == "SEVERE"]
        except Exception:  # noqa: BLE001
            errors = []
        page.driver.quit()
    results.dump(screenshots=page.screenshots, out_dir=out_dir, browser_errors=[e["message"][:300] for e in errors][:20])
    return 0


if __name__ == "__main__":
    sys.exit(main())
