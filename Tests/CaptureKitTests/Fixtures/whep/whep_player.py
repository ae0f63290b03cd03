#!/usr/bin/python3
"""Plays a WHEP endpoint in headless Chromium for StreamOutputWHEPTests.

Serves player.html from its own HTTP server on another port (another origin than the
endpoint's: the endpoint's CORS is exercised), opens VIEWERS peer connections, waits until each
has decoded FRAMES frames, prints `PLAYING <json>`, holds HOLD seconds, DELETEs every session
from the page, prints `DELETED <json>` and exits 0. With --vanish it kills the browser instead (SIGKILL, no DELETE, no goodbye:
what a crash or a pulled cable looks like to the endpoint) and prints `VANISHED`. On any failure it prints the page's state
and the browser console log and exits 1.

usage: whep_player.py WHEP_URL [--viewers N] [--frames N] [--timeout S] [--hold S] [--vanish] [--audio]
"""
import argparse
import functools
import http.server
import json
import os
import signal
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--viewers", type=int, default=1)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--hold", type=float, default=2)
    parser.add_argument("--vanish", action="store_true")
    parser.add_argument("--audio", action="store_true", help="offer to receive audio too; wait for 20 Opus packets")
    parser.add_argument("--page-port", type=int, default=0, help="the player page's port (its origin); 0: any free one")
    args = parser.parse_args()

    handler = functools.partial(QuietHandler, directory=os.path.dirname(os.path.abspath(__file__)))
    page_server = http.server.ThreadingHTTPServer(("127.0.0.1", args.page_port), handler)
    threading.Thread(target=page_server.serve_forever, daemon=True).start()
    page = f"http://127.0.0.1:{page_server.server_address[1]}/player.html"

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--autoplay-policy=no-user-gesture-required", "--use-fake-ui-for-media-stream",
                 "--disable-features=WebRtcHideLocalIpsWithMdns"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    state = None
    try:
        driver.get(page)
        driver.execute_script("play(arguments[0], arguments[1], arguments[2])", args.url, args.viewers, args.audio)
        deadline = time.monotonic() + args.timeout
        while True:
            state = driver.execute_script("return summary()")
            if state["errors"]:
                fail(driver, state, "the page failed")
            viewers = state["viewers"]
            if len(viewers) == args.viewers and all(v["frames"] >= args.frames and (not args.audio or v["audioPackets"] >= 20) for v in viewers):
                break
            if time.monotonic() > deadline:
                fail(driver, state, f"fewer than {args.frames} frames decoded by each of {args.viewers} viewers in {args.timeout} s")
            time.sleep(0.2)
        print("PLAYING " + json.dumps(state), flush=True)
        time.sleep(args.hold)
        if args.vanish:
            kill_browser(driver)
            print("VANISHED", flush=True)
            page_server.shutdown()
            os._exit(0)
        driver.execute_async_script("const done = arguments[arguments.length - 1]; end().then(() => done())")
        state = driver.execute_script("return summary()")
        if state["errors"]:
            fail(driver, state, "DELETE failed")
        print("DELETED " + json.dumps(state), flush=True)
    except SystemExit:
        raise
    except Exception as error:  # noqa: BLE001 - any failure is reported with the console log
        fail(driver, state, f"{type(error).__name__}: {error}")
    finally:
        driver.quit()
        page_server.shutdown()


def fail(driver, state, why):
    print(f"FAILED {why}", flush=True)
    print("page state: " + json.dumps(state), flush=True)
    try:
        for entry in driver.get_log("browser"):
            print(f"console {entry.get('level')}: {entry.get('message')}", flush=True)
    except Exception as error:  # noqa: BLE001
        print(f"(no console log: {error})", flush=True)
    driver.quit()
    sys.exit(1)


def kill_browser(driver):
    """SIGKILLs chromedriver's descendants (the browser and its renderers), then chromedriver."""
    root = driver.service.process.pid
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    doomed, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        doomed += children
        frontier += children
    for pid in doomed + [root]:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    main()
