"""The camera page's timeline, in headless Chromium, against `capture serve --segment` with the
virtual camera.

Usage: /usr/bin/python3 timeline_checks.py URL TOKEN OUT_DIR
Prints one JSON object on stdout: {"checks": {name: {"ok": bool, ...}}, "passed": N,
"failed": N}; progress on stderr; screenshots and the downloaded range go to OUT_DIR.

The page is driven as a person would: the Timeline button, a click on the hour bar, a click on
an event's mark. What it shows is judged on the page's own elements (positions in per cent of
the bar, worked out here from the times), what the video element decodes, and ffprobe's view
of the downloaded range.
"""
import base64
import json
import os
import subprocess
import sys
import time
import urllib.request
from datetime import datetime, timezone

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browserlib import Results, start_chromium, wait_until  # noqa: E402


def parse(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def api(base, token, path, method="GET", body=None):
    request = urllib.request.Request(base.rstrip("/") + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def main():
    url, token, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    base = url.split("?")[0]
    os.makedirs(out_dir, exist_ok=True)
    results = Results()
    driver = start_chromium(1000, 900, out_dir)
    js = driver.execute_script

    def shot(name):
        path = os.path.join(out_dir, name + ".png")
        driver.save_screenshot(path)
        return path

    try:
        # Two segments closed first (--segment 2), then an event marked through the API.
        wait_until(lambda: len(api(base, token, "/api/recordings")["segments"]) >= 3, 30, 0.5)
        marked = api(base, token, "/api/events", "POST", {"kind": "doorbell"})
        trigger = parse(marked["trigger"])
        driver.get(url)

        def button_shows():
            shown = wait_until(lambda: js("return !document.getElementById('timeline-button').hidden"), 15)
            return bool(shown), {"available": js("return captureApp.timeline && captureApp.timeline.available")}
        results.run("timeline_button_shows_with_segment", button_shows)

        def day_and_hour_bars():
            driver.find_element(By.ID, "timeline-button").click()
            loaded = wait_until(lambda: js("return captureApp.timeline.loads > 0 && captureApp.timeline.events.length > 0"), 20)
            state = js("""var t = captureApp.timeline; return {day: t.day, hour: t.hour, spans: t.spans, events: t.events,
                          dayTicks: document.querySelectorAll('#timeline-daybar .tick').length,
                          hourTicks: document.querySelectorAll('#timeline-hourbar .tick').length,
                          daySpans: Array.from(document.querySelectorAll('#timeline-daybar .span')).map(function (e) { return parseFloat(e.style.left); }),
                          hourSpans: Array.from(document.querySelectorAll('#timeline-hourbar .span')).map(function (e) { return [parseFloat(e.style.left), parseFloat(e.style.width)]; }),
                          hourMarks: Array.from(document.querySelectorAll('#timeline-hourbar .mark')).map(function (e) { return parseFloat(e.style.left); }),
                          title: document.getElementById('timeline-day').textContent};""")
            listing = api(base, token, "/api/recordings")
            first = parse(listing["segments"][0]["start"])
            # Where the first segment and the event fall, as per cent of the day and of the hour
            # (the page's local day; the test runs in the machine's zone, as the browser).
            day_start, hour_start = state["day"] / 1000, state["hour"] / 1000
            want_day = (first - day_start) / 86400 * 100
            want_hour = (first - hour_start) / 3600 * 100
            want_mark = (trigger - hour_start) / 3600 * 100
            ok = (loaded and state["dayTicks"] == 24 and state["hourTicks"] == 6 and len(state["daySpans"]) >= 1
                  and abs(state["daySpans"][0] - want_day) < 0.01 and abs(state["hourSpans"][0][0] - want_hour) < 0.05
                  and any(abs(m - want_mark) < 0.05 for m in state["hourMarks"]))
            shot("timeline")
            return ok, {"state": state, "want_day_percent": want_day, "want_hour_percent": want_hour, "want_mark_percent": want_mark}
        results.run("day_and_hour_bars_place_spans_and_marks", day_and_hour_bars)

        def thumbnail():
            loaded = wait_until(lambda: js("""var i = document.querySelector('#timeline-events li img');
                                              return i && i.complete && i.naturalWidth > 0 ? [i.naturalWidth, i.naturalHeight] : null;"""), 20)
            # The thumbnail shows the scene: drawn to a canvas, it is not one flat colour.
            spread = js("""var i = document.querySelector('#timeline-events li img'); if (!i || !i.naturalWidth) return null;
                           var c = document.createElement('canvas'); c.width = 64; c.height = 36;
                           var g = c.getContext('2d'); g.drawImage(i, 0, 0, 64, 36);
                           var d = g.getImageData(0, 0, 64, 36).data, lo = 255, hi = 0;
                           for (var k = 0; k < d.length; k += 4) { var y = (d[k] + d[k + 1] + d[k + 2]) / 3; lo = Math.min(lo, y); hi = Math.max(hi, y); }
                           return hi - lo;""")
            return bool(loaded) and loaded[0] == 320 and loaded[1] == 180 and spread is not None and spread > 100, {
                "size": loaded, "luma_spread": spread}
        results.run("event_has_thumbnail", thumbnail)

        def click_mark_plays():
            mark = driver.find_element(By.CSS_SELECTOR, "#timeline-hourbar .mark")
            mark.click()
            playing = wait_until(lambda: js("""var v = document.getElementById('timeline-video');
                                               return v.readyState >= 2 && v.currentTime > 0.5 ? [v.videoWidth, v.videoHeight, v.currentTime] : null;"""), 20)
            state = js("return captureApp.timeline.playing")
            event = js("return captureApp.timeline.events[0]")
            shot("timeline-playing")
            ok = bool(playing) and playing[0] == 1280 and playing[1] == 720 and state["from"] == event["start"]
            return ok, {"video": playing, "playing": state, "event": event,
                        "error": js("var e = document.getElementById('timeline-video').error; return e && e.message")}
        results.run("clicking_a_mark_plays_the_event", click_mark_plays)

        def click_hour_plays():
            bar = driver.find_element(By.ID, "timeline-hourbar")
            spans = js("return captureApp.timeline.spans")
            hour = js("return captureApp.timeline.hour") / 1000
            width = bar.size["width"]
            # The recording is seconds long, a pixel of the hour bar 6 s: a click two minutes
            # before it, clear of the event marks, plays from where the recording starts.
            at = max(hour, spans[0]["start"] / 1000 - 120)
            x = (at - hour) / 3600 * width
            ActionChains(driver).move_to_element_with_offset(bar, x - width / 2, 0).click().perform()
            playing = wait_until(lambda: js("""var v = document.getElementById('timeline-video');
                                               return captureApp.timeline.playing && captureApp.timeline.playing.event === null
                                                      && v.readyState >= 2 && v.currentTime > 0.2 ? v.currentTime : null;"""), 20)
            chosen = js("return captureApp.timeline.playing")
            ok = bool(playing) and chosen["from"] == spans[0]["start"]
            return ok, {"clicked_at": at, "span_start": spans[0]["start"] / 1000, "playing": chosen, "current_time": playing}
        results.run("clicking_the_hour_bar_plays_from_there", click_hour_plays)

        def download_range():
            href = js("return document.getElementById('timeline-download').href")
            fetched = driver.execute_async_script("""
                var done = arguments[arguments.length - 1];
                fetch(arguments[0]).then(function (r) {
                  var start = r.headers.get('X-Capture-Start'), type = r.headers.get('Content-Type');
                  return r.arrayBuffer().then(function (b) {
                    var bytes = new Uint8Array(b), s = '';
                    for (var i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
                    done({status: r.status, start: start, type: type, data: btoa(s)});
                  });
                }).catch(function (e) { done({error: String(e)}); });""", href)
            if "error" in fetched:
                return False, fetched
            path = os.path.join(out_dir, "range.mp4")
            with open(path, "wb") as handle:
                handle.write(base64.b64decode(fetched["data"]))
            probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", path],
                                              capture_output=True, text=True).stdout or "{}")
            video = [s for s in probe.get("streams", []) if s.get("codec_type") == "video"]
            chosen = js("return captureApp.timeline.range")
            start = parse(fetched["start"]) if fetched["start"] else None
            ok = (fetched["status"] == 200 and fetched["type"] == "video/mp4" and len(video) == 1 and video[0]["codec_name"] == "h264"
                  and start is not None and start <= chosen["from"] / 1000 + 0.001 and chosen["from"] / 1000 - start < 2.5)
            return ok, {"href": href, "status": fetched["status"], "start": fetched["start"], "range": chosen,
                        "streams": [(s.get("codec_name"), s.get("width"), s.get("height")) for s in probe.get("streams", [])],
                        "duration": probe.get("format", {}).get("duration")}
        results.run("download_link_is_the_range_as_mp4", download_range)

        def live_event():
            # The first event ends its post-roll (10 s after its trigger) while the page is open:
            # /ws/events says so and the page shows its end.
            ended = wait_until(lambda: js("return captureApp.timeline.socketMessages > 0 && captureApp.timeline.events[0].end !== null"), 20)
            messages = js("return captureApp.timeline.socketMessages")
            posted = time.monotonic()
            api(base, token, "/api/events", "POST", {"kind": "parcel"})
            shown = wait_until(lambda: js("""return captureApp.timeline.socketMessages > arguments[0]
                                                   && document.querySelectorAll('#timeline-events li').length === 2
                                                   && captureApp.timeline.events.some(function (e) { return e.kinds.join() === 'parcel'; });""", messages), 8)
            seconds = time.monotonic() - posted
            shot("timeline-live")
            return bool(ended) and bool(shown), {"first_ended": bool(ended), "seconds_to_show": round(seconds, 2),
                                                 "kinds": js("return captureApp.timeline.events.map(function (e) { return e.kinds; })")}
        results.run("new_event_appears_without_reload", live_event)
    finally:
        logs = []
        try:
            logs = [entry["message"] for entry in driver.get_log("browser")][-20:]
        except Exception:  # noqa: BLE001
            pass
        driver.quit()
    results.dump(browser_log=logs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
