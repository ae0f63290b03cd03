#!/usr/bin/python3
"""WHEP viewers without a browser, for capture-bench serve: VIEWERS GStreamer webrtcbin peers
in this one process, each POSTing a receive-only H.264 offer to URL, taking the answer, and
counting the RTP video packets and depayloaded access units it receives (no decoding: what is
measured is the server). Runs SECONDS, then DELETEs each session and prints one JSON line:
{"viewers": [{"status": 201, "packets": N, "frames": N}, ...]}. Exits 1 when a viewer got no
answer or no frames.

usage: whep_viewers.py URL [--viewers N] [--seconds S] [--token TOKEN]
"""
import argparse
import json
import sys
import threading
import time
import urllib.parse
import urllib.request

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import GLib, Gst, GstSdp, GstWebRTC  # noqa: E402

CAPS = ("application/x-rtp,media=video,encoding-name=H264,payload=102,clock-rate=90000,"
        "packetization-mode=(string)1,profile-level-id=(string)42e01f,level-asymmetry-allowed=(string)1")


class Viewer:
    def __init__(self, url, token):
        self.url, self.token = url, token
        self.status, self.location, self.packets, self.frames = 0, None, 0, 0
        self.done = threading.Event()
        self.pipeline = Gst.Pipeline.new()
        self.webrtc = Gst.ElementFactory.make("webrtcbin")
        self.webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
        self.pipeline.add(self.webrtc)
        self.webrtc.emit("add-transceiver", GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY, Gst.Caps.from_string(CAPS))
        self.webrtc.connect("pad-added", self.on_pad)
        self.webrtc.connect("notify::ice-gathering-state", self.on_gathering)
        self.webrtc.connect("on-negotiation-needed", self.on_negotiation_needed)
        self.pipeline.set_state(Gst.State.PLAYING)

    def on_negotiation_needed(self, *_):
        promise = Gst.Promise.new_with_change_func(self.on_offer, None)
        self.webrtc.emit("create-offer", None, promise)

    def on_offer(self, promise, _):
        reply = promise.get_reply()
        if reply is None or not reply.has_field("offer"):
            print(f"no offer: {reply.to_string() if reply else None}", file=sys.stderr)
            return
        offer = reply.get_value("offer")
        self.webrtc.emit("set-local-description", offer, Gst.Promise.new())

    def on_gathering(self, *_):
        if self.webrtc.get_property("ice-gathering-state") != GstWebRTC.WebRTCICEGatheringState.COMPLETE or self.status:
            return
        self.status = -1
        threading.Thread(target=self.post, daemon=True).start()

    def headers(self, extra):
        if self.token:
            extra["Authorization"] = f"Bearer {self.token}"
        return extra

    def post(self):
        sdp = self.webrtc.get_property("local-description").sdp.as_text()
        request = urllib.request.Request(self.url, data=sdp.encode(), method="POST",
                                         headers=self.headers({"Content-Type": "application/sdp"}))
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                self.status = response.status
                self.location = urllib.parse.urljoin(self.url, response.headers["Location"])
                answer_text = response.read().decode()
        except Exception as error:  # noqa: BLE001
            print(f"POST failed: {error}", file=sys.stderr)
            self.status = getattr(error, "code", 0)
            self.done.set()
            return
        _, message = GstSdp.SDPMessage.new_from_text(answer_text)
        answer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.ANSWER, message)
        self.webrtc.emit("set-remote-description", answer, Gst.Promise.new())
        self.done.set()

    def on_pad(self, _, pad):
        if pad.direction != Gst.PadDirection.SRC:
            return
        depay = Gst.ElementFactory.make("rtph264depay")
        sink = Gst.ElementFactory.make("fakesink")
        sink.set_property("sync", False)
        for element in (depay, sink):
            self.pipeline.add(element)
            element.sync_state_with_parent()
        depay.link(sink)
        pad.link(depay.get_static_pad("sink"))
        pad.add_probe(Gst.PadProbeType.BUFFER, self.count_packet)
        sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, self.count_frame)

    def count_packet(self, *_):
        self.packets += 1
        return Gst.PadProbeReturn.OK

    def count_frame(self, *_):
        self.frames += 1
        return Gst.PadProbeReturn.OK

    def end(self):
        if self.location:
            try:
                urllib.request.urlopen(urllib.request.Request(self.location, method="DELETE", headers=self.headers({})), timeout=5)
            except Exception:  # noqa: BLE001
                pass
        self.pipeline.set_state(Gst.State.NULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--viewers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--token")
    args = parser.parse_args()
    Gst.init(None)
    loop = GLib.MainLoop()
    threading.Thread(target=loop.run, daemon=True).start()
    viewers = [Viewer(args.url, args.token) for _ in range(args.viewers)]
    for viewer in viewers:
        viewer.done.wait(20)
    time.sleep(args.seconds)
    for viewer in viewers:
        viewer.end()
    report = {"viewers": [{"status": v.status, "packets": v.packets, "frames": v.frames} for v in viewers]}
    print(json.dumps(report), flush=True)
    loop.quit()
    sys.exit(0 if all(v.status == 201 and v.frames > 0 for v in viewers) else 1)


if __name__ == "__main__":
    main()
