"""Shared helpers for the page's headless-Chromium checks: one Chromium session through
Debian's chromium and chromium-driver, with results printed as one JSON object."""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def start_chromium(width=800, height=600, out_dir=None):
    """A headless Chromium whose viewport is exactly width x height CSS pixels (device scale 1)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--autoplay-policy=no-user-gesture-required",
        "--force-device-scale-factor=1",
        "--hide-scrollbars",
        "--mute-audio",
        "--no-first-run",
        "--disable-extensions",
        "--window-size=%d,%d" % (width, height),
    ]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    log = os.path.join(out_dir, "chromedriver.log") if out_dir else os.devnull
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER, log_path=log), options=options)
    set_viewport(driver, width, height)
    driver.set_script_timeout(30)
    return driver


def set_viewport(driver, width, height, mobile=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
    })


def wait_until(predicate, timeout, interval=0.1):
    """Polls predicate until it returns a truthy value (returned) or timeout seconds pass (None)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)


def close(a, b, tolerance):
    return abs(a - b) <= tolerance


class Results:
    """Named checks, each {ok, ...details}; printed as JSON on stdout at the end."""

    def __init__(self):
        self.checks = {}

    def add(self, name, ok, **details):
        entry = {"ok": bool(ok)}
        entry.update(details)
        self.checks[name] = entry
        status = "ok" if ok else "FAILED"
        print("%s: %s %s" % (name, status, json.dumps(details, default=str)[:400]), file=sys.stderr, flush=True)

    def run(self, name, function):
        """Runs a check function that returns (ok, details) and records any exception as a failure."""
        started = time.monotonic()
        try:
            ok, details = function()
        except Exception as error:  # noqa: BLE001 - every failure becomes a result
            ok, details = False, {"error": "%s: %s" % (type(error).__name__, error)}
        details["seconds"] = round(time.monotonic() - started, 2)
        self.add(name, ok, **details)
        return ok

    def dump(self, **extra):
        document = {"checks": self.checks, "passed": sum(1 for c in self.checks.values() if c["ok"]),
                    "failed": sum(1 for c in self.checks.values() if not c["ok"])}
        document.update(extra)
        print(json.dumps(document, indent=1, default=str))
