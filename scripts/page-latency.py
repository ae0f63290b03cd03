#!/usr/bin/python3
"""Capture-to-decoded-frame latency of `capture serve`'s page in headless Chromium, over WHEP
(WebRTC) and over MJPEG, at 1280x720 and 30 fps on loopback.

The server runs with CAPTUREKIT_FRAME_STAMP=clock: the virtual camera paints the wall clock's
milliseconds (low 24 bits) into each frame as it captures it (FrameStamp, 24 blocks of 16x16
pixels along the top left edge). The page's picture is drawn into a canvas and the stamp read
back; latency = the browser's wall clock at the decoded frame - the stamp. Both clocks are this
machine's, so no synchronisation is needed.

- WHEP: on each decoded frame (requestVideoFrameCallback), at the frame's presentationTime.
- MJPEG: the <img> polled on every animation frame; a new stamp counts when first seen, so the
  figure includes up to one display frame (16.7 ms at 60 Hz) of polling, half that on average.

Usage: /usr/bin/python3 scripts/page-latency.py [--capture .build/release/capture] [--seconds 8]
           [--url http://127.0.0.1:PORT/ (a server already started with CAPTUREKIT_FRAME_STAMP=clock)]
Prints JSON: {"whep": {"p50_ms", "p99_ms", "frames", …}, "mjpeg": {…}}.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "CaptureServerTests", "Browser"))
from browserlib import start_chromium, wait_until  # noqa: E402

# Reads the 24-bit stamp from the top left 384x16 pixels of the decoded picture.
COLLECTOR = r"""
window.__stamps = [];
(function () {
  var canvas = document.createElement("canvas"); canvas.width = 384; canvas.height = 16;
  var g = canvas.getContext("2d", { willReadFrequently: true });
  function read(element) {
    g.drawImage(element, 0, 0, 384, 16, 0, 0, 384, 16);
    var d = g.getImageData(0, 0, 384, 16).data, n = 0;
    for (var bit = 0; bit < 24; bit++) {
      var i = (8 * 384 + bit * 16 + 8) * 4;
      if (0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2] > 128) n += Math.pow(2, bit);
    }
    return n;
  }
  function latency(stamp, wallMs) {
    var modulus = 16777216, whole = Math.floor(wallMs);
    return ((whole % modulus) - stamp + modulus) % modulus + (wallMs - whole);
  }
  window.__collect = function (transport) {
    window.__stamps = [];
    if (transport === "WebRTC") {
      var video = document.getElementById("video");
      var frame = function (now, metadata) {
        var at = performance.timeOrigin + (metadata.presentationTime || now);
        var stamp = read(video);
        window.__stamps.push({ stamp: stamp, ms: latency(stamp, at),
          receive: metadata.receiveTime ? latency(stamp, performance.timeOrigin + metadata.receiveTime) : null });
        video.requestVideoFrameCallback(frame);
      };
      video.requestVideoFrameCallback(frame);
    } else {
      var img = document.getElementById("mjpeg"), last = -1;
      var poll = function (now) {
        if (img.naturalWidth > 0) {
          var stamp = read(img);
          if (stamp !== last) { last = stamp; window.__stamps.push({ stamp: stamp, ms: latency(stamp, performance.timeOrigin + now) }); }
        }
        requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    }
  };
})();
"""


def percentile(values, fraction):
    values = sorted(values)
    if not values:
        return None
    index = min(len(values) - 1, max(0, int(round(fraction * (len(values) - 1)))))
    return values[index]


def measure(driver, url, transport, seconds):
    driver.get(url)
    if not wait_until(lambda: driver.execute_script("return window.captureApp && captureApp.transport") == transport, 20):
        raise SystemExit("%s: the page shows %s" % (transport, driver.execute_script("return window.captureApp && captureApp.transport")))
    time.sleep(1.0)  # joining, the first key frame
    driver.execute_script(COLLECTOR)
    driver.execute_script("__collect(arguments[0])", transport)
    time.sleep(seconds)
    stamps = driver.execute_script("return window.__stamps")
    # A misread stamp (a block blurred across the threshold) gives an absurd figure: left out.
    good = [s["ms"] for s in stamps if 0 <= s["ms"] < 5000]
    result = {"p50_ms": round(percentile(good, 0.5), 1), "p99_ms": round(percentile(good, 0.99), 1),
              "min_ms": round(min(good), 1), "frames": len(good), "discarded": len(stamps) - len(good),
              "fps": round(len(stamps) / seconds, 1)}
    receive = [s["receive"] for s in stamps if s.get("receive") is not None and 0 <= s["receive"] < 5000]
    if receive:
        result["received_p50_ms"] = round(percentile(receive, 0.5), 1)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--capture", default=os.path.join(ROOT, ".build", "release", "capture"))
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--url", help="a server already running with CAPTUREKIT_FRAME_STAMP=clock")
    parser.add_argument("--out", default="/tmp/capture-page-latency")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    server = None
    url = arguments.url
    if not url:
        environment = dict(os.environ, CAPTUREKIT_FRAME_STAMP="clock")
        log = open(os.path.join(arguments.out, "serve.log"), "w")
        server = subprocess.Popen([arguments.capture, "serve", "-d", "virtual", "--preset", "hd1280x720", "--listen", "127.0.0.1:0",
                                   "--recordings", os.path.join(arguments.out, "recordings")],
                                  env=environment, stdout=subprocess.PIPE, stderr=log, text=True)
        # "serving virtual at http://127.0.0.1:PORT/"
        for line in server.stdout:
            if line.startswith("serving "):
                url = line.split()[-1]
                break
        if not url:
            server.wait(10)
            raise SystemExit("capture serve printed no URL: see %s" % log.name)
        if not url.endswith("/"):
            url = url.split("?")[0]
    driver = start_chromium(1280, 720, arguments.out)
    try:
        figures = {
            "whep": measure(driver, url + "?gravity=resizeAspect", "WebRTC", arguments.seconds),
            "mjpeg": measure(driver, url + "?gravity=resizeAspect&webrtc=0", "MJPEG", arguments.seconds),
        }
    finally:
        driver.quit()
        if server:
            server.terminate()
            server.wait(10)
    figures["load_average"] = os.getloadavg()
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
