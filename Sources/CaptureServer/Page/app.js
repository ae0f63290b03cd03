// CaptureKit camera page (`capture serve`): the live preview over WHEP (MJPEG when WebRTC cannot
// connect), Snap, Switch Cam, Torch, zoom and exposure-bias sliders, Record, tap to focus and
// expose, and the codes and faces found drawn over the picture.
//
// It uses only the server's HTTP API: /api/devices, /api/state, /api/snap, /api/device,
// /api/controls, /api/record/start|stop, /recordings/, /mjpeg, /whep and /ws/metadata (and
// timeline.js the continuous recording's /api/recordings, /api/export, /api/thumbnail.jpg and
// /ws/events). When the
// page is opened as /?token=T it sends `Authorization: Bearer T` on fetches and `token=T` on the
// WebSocket, the MJPEG picture and download links.
//
// URL parameters: gravity (resizeAspect, resizeAspectFill, resize or aspect, fill), orientation
// (landscapeRight, portrait, landscapeLeft, portraitUpsideDown), mirrored (1, 0 or auto: the
// front camera mirrored, as AVFoundation's automaticallyAdjustsVideoMirroring), webrtc=0 (MJPEG
// only), token. Every control has a stable id; `window.captureApp` exposes the state for tests.
(function () {
  "use strict";

  var G = window.CaptureGeometry;
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var token = params.get("token") || null;
  var WEBRTC_CONNECT_MS = 5000;
  var SVG = "http://www.w3.org/2000/svg";

  var app = {
    settings: {
      gravity: G.gravityNamed(params.get("gravity") || "") || "resizeAspect",
      orientation: G.orientations.indexOf(params.get("orientation")) >= 0 ? params.get("orientation") : "landscapeRight",
      mirrored: mirroredSetting(params.get("mirrored")),
    },
    webrtcAllowed: params.get("webrtc") !== "0",
    transport: null, // "WebRTC" or "MJPEG"
    fallbackReason: null,
    state: null,
    devices: [],
    metadata: [], // the latest batch, normalized
    metadataBatches: 0,
    stats: { videoFrames: 0, mjpegFrames: 0 },
    lastTap: null,
    lastControls: null,
    lastSnap: null,
    snaps: [],
    recordings: [],
    recording: null,
    errors: [],
  };
  window.captureApp = app;

  function mirroredSetting(value) {
    if (value === "1" || value === "true") return "1";
    if (value === "0" || value === "false") return "0";
    return "auto";
  }

  // --- HTTP -------------------------------------------------------------------------------

  function withToken(path) {
    if (!token) return path;
    return path + (path.indexOf("?") >= 0 ? "&" : "?") + "token=" + encodeURIComponent(token);
  }

  function authHeaders(extra) {
    var headers = Object.assign({}, extra || {});
    if (token) headers["Authorization"] = "Bearer " + token;
    return headers;
  }

  function request(path, options) {
    options = options || {};
    var init = { method: options.method || "GET", headers: authHeaders(options.headers), cache: "no-store" };
    if (options.json !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      init.body = options.body;
    }
    if (options.keepalive) init.keepalive = true;
    return fetch(path, init).then(function (response) {
      if (!response.ok) {
        return response.text().then(function (text) {
          var error = new Error(path + ": " + response.status + " " + (text || response.statusText).trim().slice(0, 200));
          error.status = response.status;
          throw error;
        });
      }
      return response;
    });
  }

  function getJSON(path, options) {
    return request(path, options).then(function (response) {
      return response.text().then(function (text) { return text ? JSON.parse(text) : null; });
    });
  }

  var statusTimer = null;
  function say(message, sticky) {
    $("status").textContent = message || "";
    clearTimeout(statusTimer);
    if (message && !sticky) statusTimer = setTimeout(function () { $("status").textContent = ""; }, 4000);
  }

  function fail(what) {
    return function (error) {
      app.errors.push(what + ": " + error.message);
      if (error.status === 401) {
        say(token ? "The server refused the token in this page's address" : "This server wants a token: open the page as /?token=…", true);
        return;
      }
      say(what + " failed: " + error.message);
      console.warn(what, error);
    };
  }

  // --- Geometry: where the picture is shown --------------------------------------------------

  function currentDevice() {
    var state = app.state;
    if (!state) return null;
    var device = state.device || {};
    var id = typeof device === "string" ? device : device.uniqueID || state.uniqueID || (state.controls && state.controls.uniqueID);
    var listed = app.devices.filter(function (d) { return d.uniqueID === id; })[0];
    return Object.assign({ uniqueID: id }, listed || {}, typeof device === "object" ? device : {});
  }

  app.currentDevice = currentDevice;

  function isMirrored() {
    if (app.settings.mirrored === "1") return true;
    if (app.settings.mirrored === "0") return false;
    var device = currentDevice();
    return !!device && device.position === "front";
  }

  // The sensor picture's size: the decoded stream's, else the device's active format.
  function pictureSize() {
    var video = $("video"), img = $("mjpeg");
    if (app.transport === "WebRTC" && video.videoWidth > 0) return { width: video.videoWidth, height: video.videoHeight };
    if (app.transport === "MJPEG" && img.naturalWidth > 0) return { width: img.naturalWidth, height: img.naturalHeight };
    var controls = app.state && app.state.controls;
    var format = controls && controls.activeFormat;
    if (format && format.width > 0) return { width: format.width, height: format.height };
    return { width: 1280, height: 720 };
  }

  function viewBounds() {
    var preview = $("preview");
    return { width: preview.clientWidth, height: preview.clientHeight };
  }

  // The options geometry.js takes for the page as it is now.
  function geometryOptions() {
    return {
      bounds: viewBounds(),
      picture: pictureSize(),
      gravity: app.settings.gravity,
      orientation: app.settings.orientation,
      mirrored: isMirrored(),
    };
  }
  app.geometryOptions = geometryOptions;

  function layout() {
    var options = geometryOptions();
    var box = G.elementBox(options);
    ["video", "mjpeg"].forEach(function (id) {
      var element = $(id);
      element.style.left = box.left + "px";
      element.style.top = box.top + "px";
      element.style.width = box.width + "px";
      element.style.height = box.height + "px";
      element.style.transform = box.transform;
    });
    var preview = $("preview");
    preview.dataset.gravity = options.gravity;
    preview.dataset.orientation = options.orientation;
    preview.dataset.mirrored = options.mirrored ? "1" : "0";
    drawOverlay();
    var key = [Math.round(options.bounds.width), Math.round(options.bounds.height), options.gravity, options.orientation, options.mirrored].join(",");
    if (key !== metadataKey) scheduleMetadataReconnect();
  }
  app.layout = layout;

  // --- Settings ---------------------------------------------------------------------------

  function applySettingsToControls() {
    $("gravity").value = app.settings.gravity;
    $("orientation").value = app.settings.orientation;
    $("mirrored").value = app.settings.mirrored;
  }

  function settingsChanged() {
    var url = new URL(location.href);
    url.searchParams.set("gravity", app.settings.gravity);
    url.searchParams.set("orientation", app.settings.orientation);
    if (app.settings.mirrored === "auto") url.searchParams.delete("mirrored");
    else url.searchParams.set("mirrored", app.settings.mirrored);
    history.replaceState(null, "", url.pathname + url.search);
    layout();
  }

  // For tests and the console: setView({gravity, orientation, mirrored}).
  app.setView = function (view) {
    if (view.gravity) app.settings.gravity = G.gravityNamed(view.gravity) || app.settings.gravity;
    if (view.orientation && G.orientations.indexOf(view.orientation) >= 0) app.settings.orientation = view.orientation;
    if (view.mirrored !== undefined) app.settings.mirrored = mirroredSetting(String(view.mirrored === true ? 1 : view.mirrored === false ? 0 : view.mirrored));
    applySettingsToControls();
    settingsChanged();
  };

  ["gravity", "orientation", "mirrored"].forEach(function (id) {
    $(id).addEventListener("change", function () {
      app.settings[id] = $(id).value;
      settingsChanged();
    });
  });

  function togglePanel(panelId, buttonId) {
    var panel = $(panelId), open = panel.hidden;
    ["settings", "gallery-panel", "timeline-panel"].forEach(function (id) { $(id).hidden = true; });
    panel.hidden = !open;
    $(buttonId).setAttribute("aria-expanded", open ? "true" : "false");
    return open;
  }
  $("settings-button").addEventListener("click", function () { togglePanel("settings", "settings-button"); });
  $("gallery-button").addEventListener("click", function () { togglePanel("gallery-panel", "gallery-button"); });

  // --- Preview: WHEP, else MJPEG ------------------------------------------------------------

  var whep = null; // {pc, location}

  function setTransport(name, detail) {
    app.transport = name;
    var badge = $("transport");
    badge.textContent = name;
    badge.className = "badge " + name.toLowerCase();
    badge.title = detail || (name === "WebRTC" ? "Live over WebRTC (WHEP)" : "Live over MJPEG");
    badge.dataset.transport = name;
  }

  function waitFor(predicate, target, events, milliseconds) {
    return new Promise(function (resolve, reject) {
      if (predicate()) return resolve();
      var timer = setTimeout(function () { done(); reject(new Error("timed out")); }, milliseconds);
      function check() { if (predicate()) { done(); resolve(); } }
      function done() {
        clearTimeout(timer);
        events.forEach(function (name) { target.removeEventListener(name, check); });
      }
      events.forEach(function (name) { target.addEventListener(name, check); });
    });
  }

  // H.264 in packetization mode 1 first (what the server sends), the rest after.
  function preferH264(transceiver) {
    if (!transceiver.setCodecPreferences || !window.RTCRtpReceiver || !RTCRtpReceiver.getCapabilities) return;
    var codecs = (RTCRtpReceiver.getCapabilities("video") || {}).codecs || [];
    function rank(codec) {
      var fmtp = codec.sdpFmtpLine || "";
      if (codec.mimeType.toLowerCase() !== "video/h264") return 3;
      if (fmtp.indexOf("packetization-mode=1") < 0) return 2;
      return fmtp.indexOf("profile-level-id=42e0") >= 0 ? 0 : 1;
    }
    var sorted = codecs.slice().sort(function (a, b) { return rank(a) - rank(b); });
    try { transceiver.setCodecPreferences(sorted); } catch (e) { /* keep the browser's order */ }
  }

  function startWHEP() {
    var started = performance.now();
    var pc = new RTCPeerConnection({ iceServers: [] });
    var session = { pc: pc, location: null, closed: false };
    whep = session;
    var stream = new MediaStream();
    pc.ontrack = function (event) {
      stream.addTrack(event.track);
      var video = $("video");
      if (video.srcObject !== stream) video.srcObject = stream;
    };
    preferH264(pc.addTransceiver("video", { direction: "recvonly" }));
    pc.addTransceiver("audio", { direction: "recvonly" });
    return pc.createOffer()
      .then(function (offer) {
        if (!/packetization-mode=1/.test(offer.sdp)) throw new Error("this browser offers no H.264 (packetization-mode 1)");
        return pc.setLocalDescription(offer);
      })
      .then(function () {
        // No trickle: the offer goes with every candidate.
        return waitFor(function () { return pc.iceGatheringState === "complete"; }, pc, ["icegatheringstatechange"], 3000)
          .catch(function () { /* send what was gathered */ });
      })
      .then(function () {
        return request("/whep", { method: "POST", headers: { "Content-Type": "application/sdp" }, body: pc.localDescription.sdp });
      })
      .then(function (response) {
        if (response.status !== 201) throw new Error("WHEP answered " + response.status);
        var where = response.headers.get("Location");
        if (where) session.location = new URL(where, new URL("/whep", location.href)).pathname + new URL(where, new URL("/whep", location.href)).search;
        return response.text();
      })
      .then(function (answer) { return pc.setRemoteDescription({ type: "answer", sdp: answer }); })
      .then(function () {
        var left = Math.max(500, WEBRTC_CONNECT_MS - (performance.now() - started));
        return waitFor(function () { return pc.connectionState === "connected"; }, pc, ["connectionstatechange"], left)
          .catch(function () { throw new Error("WebRTC did not connect within " + WEBRTC_CONNECT_MS / 1000 + " s (" + pc.connectionState + ")"); });
      })
      .then(function () {
        var video = $("video");
        return waitFor(function () { return video.readyState >= 2 && video.videoWidth > 0; }, video, ["loadeddata", "resize", "playing"], 5000)
          .catch(function () {
            return receivedVideo(pc).then(function (what) { throw new Error("WebRTC connected but no picture came" + what); });
          });
      })
      .then(function () {
        pc.onconnectionstatechange = function () {
          if (whep !== session) return;
          if (pc.connectionState === "failed" || pc.connectionState === "closed") {
            say("WebRTC connection lost; switching to MJPEG");
            startMJPEG("the WebRTC connection " + pc.connectionState);
          }
        };
        return session;
      })
      .catch(function (error) {
        stopWHEP();
        throw error;
      });
  }

  // What the peer connection received of the video, for a failure's reason: " (N packets,
  // N frames decoded, N key frames, N PLIs sent)", or "" where the browser does not say.
  function receivedVideo(pc) {
    return pc.getStats().then(function (report) {
      var what = "";
      report.forEach(function (stat) {
        if (stat.type === "inbound-rtp" && (stat.kind || stat.mediaType) === "video") {
          what = " (" + (stat.packetsReceived || 0) + " packets, " + (stat.framesDecoded || 0) + " frames decoded, " +
            (stat.keyFramesDecoded || 0) + " key frames, " + (stat.pliCount || 0) + " PLIs sent)";
        }
      });
      return what;
    }).catch(function () { return ""; });
  }

  function stopWHEP() {
    var session = whep;
    whep = null;
    if (!session || session.closed) return;
    session.closed = true;
    if (session.location) request(session.location, { method: "DELETE", keepalive: true }).catch(function () {});
    try { session.pc.close(); } catch (e) { /* closed */ }
    var video = $("video");
    video.srcObject = null;
  }

  function startMJPEG(reason) {
    stopWHEP();
    app.fallbackReason = reason || null;
    var img = $("mjpeg"), video = $("video");
    video.hidden = true;
    img.hidden = false;
    img.src = withToken("/mjpeg");
    setTransport("MJPEG", reason ? "MJPEG: " + reason : "Live over MJPEG");
    layout();
  }

  function startPreview() {
    var video = $("video"), img = $("mjpeg");
    if (!app.webrtcAllowed || !window.RTCPeerConnection) {
      startMJPEG(app.webrtcAllowed ? "this browser has no WebRTC" : "WebRTC turned off (webrtc=0)");
      return;
    }
    setTransport("…", "Connecting over WebRTC");
    img.hidden = true;
    img.removeAttribute("src");
    video.hidden = false;
    startWHEP()
      .then(function () {
        setTransport("WebRTC");
        video.play().catch(function () {});
        layout();
      })
      .catch(function (error) {
        console.warn("WHEP", error);
        say("WebRTC unavailable (" + error.message + "); using MJPEG");
        startMJPEG(error.message);
      });
  }

  function countVideoFrames() {
    var video = $("video");
    if (!video.requestVideoFrameCallback) return;
    function frame() {
      app.stats.videoFrames += 1;
      video.requestVideoFrameCallback(frame);
    }
    video.requestVideoFrameCallback(frame);
  }

  function previewShowing() { $("waiting").hidden = true; layout(); }
  $("video").addEventListener("resize", previewShowing);
  $("video").addEventListener("loadeddata", previewShowing);
  $("mjpeg").addEventListener("load", function () { app.stats.mjpegFrames += 1; if (!$("waiting").hidden) previewShowing(); });
  $("mjpeg").addEventListener("error", function () {
    if (app.transport === "MJPEG") say("The MJPEG stream stopped; retrying", true);
    setTimeout(function () { if (app.transport === "MJPEG") $("mjpeg").src = withToken("/mjpeg") + (token ? "&" : "?") + "t=" + Date.now(); }, 2000);
  });
  window.addEventListener("pagehide", stopWHEP);

  // --- Metadata: codes and faces over the picture --------------------------------------------

  var metadataSocket = null, metadataKey = null, metadataTimer = null, metadataClear = null;

  function scheduleMetadataReconnect() {
    clearTimeout(metadataTimer);
    metadataTimer = setTimeout(connectMetadata, metadataSocket ? 250 : 0);
  }

  function connectMetadata() {
    var options = geometryOptions();
    var bounds = options.bounds;
    if (!(bounds.width > 0 && bounds.height > 0)) return;
    var query = new URLSearchParams({
      width: String(Math.round(bounds.width)),
      height: String(Math.round(bounds.height)),
      gravity: options.gravity,
      orientation: options.orientation,
      mirrored: options.mirrored ? "true" : "false",
    });
    if (token) query.set("token", token);
    metadataKey = [Math.round(bounds.width), Math.round(bounds.height), options.gravity, options.orientation, options.mirrored].join(",");
    var old = metadataSocket;
    metadataSocket = null;
    if (old) { old.onclose = null; old.close(); }
    var socket = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws/metadata?" + query);
    metadataSocket = socket;
    socket.onmessage = function (event) {
      var batch;
      try { batch = JSON.parse(event.data); } catch (e) { return; }
      app.metadata = normalizeBatch(batch);
      app.metadataBatches += 1;
      drawOverlay();
      clearTimeout(metadataClear);
      metadataClear = setTimeout(function () { app.metadata = []; drawOverlay(); }, 1500);
    };
    socket.onclose = function () {
      if (metadataSocket !== socket) return;
      metadataSocket = null;
      setTimeout(function () { if (!metadataSocket) connectMetadata(); }, 2000);
    };
  }

  function point(p) {
    if (Array.isArray(p)) return { x: +p[0], y: +p[1] };
    return { x: +p.x, y: +p.y };
  }

  function rect(r) {
    if (!r) return null;
    if (Array.isArray(r)) return { x: +r[0], y: +r[1], width: +r[2], height: +r[3] };
    if (r.origin && r.size) return { x: +r.origin.x, y: +r.origin.y, width: +r.size.width, height: +r.size.height };
    return { x: +r.x, y: +r.y, width: +r.width, height: +r.height };
  }

  function rectCorners(r) {
    return [{ x: r.x, y: r.y }, { x: r.x + r.width, y: r.y }, { x: r.x + r.width, y: r.y + r.height }, { x: r.x, y: r.y + r.height }];
  }

  // One metadata object, as /ws/metadata sends it: {type, value, device: {bounds: [x, y, w, h],
  // corners: [[x, y], …]}, view: {bounds, corners} or null} (faces: faceID, no corners); also
  // AVFoundation's flat shape (stringValue, bounds, corners).
  function normalizeObject(o) {
    var device = o.device || o;
    var view = o.view || (o.viewCorners || o.viewBounds ? { corners: o.viewCorners, bounds: o.viewBounds } : null);
    return {
      type: o.type || o.kind || "object",
      string: o.value !== undefined && o.value !== null ? o.value : o.stringValue !== undefined ? o.stringValue : o.string !== undefined ? o.string : null,
      faceID: o.faceID,
      deviceCorners: Array.isArray(device.corners) && device.corners.length ? device.corners.map(point) : null,
      deviceBounds: rect(device.bounds),
      viewCorners: view && Array.isArray(view.corners) && view.corners.length ? view.corners.map(point) : null,
      viewBounds: view ? rect(view.bounds) : null,
    };
  }

  function normalizeBatch(batch) {
    var objects = Array.isArray(batch) ? batch : (batch && (batch.objects || batch.metadataObjects || batch.metadata)) || [];
    return objects.filter(function (o) { return o && typeof o === "object"; }).map(normalizeObject);
  }

  // The polygon to draw for an object, in view points: the server's view coordinates when it
  // gave them, else the device coordinates converted here.
  function viewPolygon(object, options) {
    if (object.viewCorners) return object.viewCorners;
    if (object.deviceCorners) return object.deviceCorners.map(function (p) { return G.layerPoint(p, options); });
    if (object.viewBounds) return rectCorners(object.viewBounds);
    if (object.deviceBounds) return G.layerCorners(object.deviceBounds, options);
    return null;
  }

  function drawOverlay() {
    var svg = $("overlay");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var options = geometryOptions();
    var strings = [];
    app.metadata.forEach(function (object) {
      var polygon = viewPolygon(object, options);
      if (!polygon) return;
      var isFace = /face/i.test(object.type);
      var shape = document.createElementNS(SVG, "polygon");
      shape.setAttribute("points", polygon.map(function (p) { return p.x.toFixed(1) + "," + p.y.toFixed(1); }).join(" "));
      shape.setAttribute("class", "metadata " + (isFace ? "face" : "code"));
      shape.setAttribute("data-type", object.type);
      if (object.string !== null) shape.setAttribute("data-string", object.string);
      svg.appendChild(shape);
      var label = isFace ? "face" + (object.faceID !== undefined ? " " + object.faceID : "") : object.string;
      if (label !== null && label !== undefined) {
        // Above the outline, from its left edge, or ending at its right edge in the view's right half.
        var xs = polygon.map(function (p) { return p.x; }), ys = polygon.map(function (p) { return p.y; });
        var left = Math.min.apply(null, xs), right = Math.max.apply(null, xs), top = Math.min.apply(null, ys);
        var atRight = (left + right) / 2 > options.bounds.width / 2;
        var text = document.createElementNS(SVG, "text");
        text.setAttribute("class", "label");
        text.setAttribute("text-anchor", atRight ? "end" : "start");
        text.setAttribute("x", (atRight ? Math.min(options.bounds.width - 4, right) : Math.max(4, left)).toFixed(1));
        text.setAttribute("y", Math.max(16, top - 6).toFixed(1));
        text.textContent = label;
        svg.appendChild(text);
        if (!isFace) strings.push(label);
      }
    });
    var codes = $("codes");
    codes.hidden = strings.length === 0;
    codes.textContent = strings.length ? "▣ " + strings.join(" · ") : "";
  }

  // --- Tap to focus and expose ---------------------------------------------------------------

  var down = null;
  $("preview").addEventListener("pointerdown", function (event) {
    if (!event.isPrimary || event.button > 0) return;
    down = { id: event.pointerId, x: event.clientX, y: event.clientY };
  });
  $("preview").addEventListener("pointercancel", function () { down = null; });
  $("preview").addEventListener("pointerup", function (event) {
    if (!down || event.pointerId !== down.id) return;
    var moved = Math.hypot(event.clientX - down.x, event.clientY - down.y);
    down = null;
    if (moved > 16) return; // a drag, not a tap
    var box = $("preview").getBoundingClientRect();
    tap({ x: event.clientX - box.left, y: event.clientY - box.top });
  });

  var ringTimer = null;

  function tap(viewPoint) {
    var options = geometryOptions();
    var devicePoint = G.captureDevicePointOfInterest(viewPoint, options);
    app.lastTap = { view: viewPoint, device: devicePoint, options: options };
    if (!devicePoint) { say("Tap on the picture to focus there"); return; }
    var ring = $("focus-ring");
    ring.hidden = true;
    ring.style.left = viewPoint.x + "px";
    ring.style.top = viewPoint.y + "px";
    void ring.offsetWidth; // restart the animation
    ring.hidden = false;
    clearTimeout(ringTimer);
    ringTimer = setTimeout(function () { ring.hidden = true; }, 1500);
    var pointValue = { x: devicePoint.x, y: devicePoint.y };
    sendControls({ focusPointOfInterest: pointValue, exposurePointOfInterest: pointValue });
  }
  app.tap = tap;

  // --- Controls: torch, zoom, exposure bias ---------------------------------------------------

  var controlsQueue = {}, controlsBusy = false;
  // Bumped when controls are sent and when their answer comes: a state read that began before
  // either is older than the controls shown, and its controls are not applied.
  var controlsEpoch = 0;

  // Sends control values, coalescing while a request is under way (a slider sends its latest).
  function sendControls(values) {
    Object.assign(controlsQueue, values);
    if (controlsBusy) return;
    var body = controlsQueue;
    controlsQueue = {};
    controlsBusy = true;
    controlsEpoch += 1;
    app.lastControls = body;
    getJSON("/api/controls", { method: "POST", json: body })
      .then(function (inForce) { controlsEpoch += 1; if (inForce) applyControls(inForce, true); })
      .catch(fail("Setting " + Object.keys(body).join(", ")))
      .then(function () {
        controlsBusy = false;
        if (Object.keys(controlsQueue).length) sendControls({});
      });
  }

  function number(control) {
    if (control === undefined || control === null) return null;
    if (typeof control === "number") return { value: control };
    return control;
  }

  function mode(control) {
    if (control === undefined || control === null) return null;
    if (typeof control === "string") return { value: control };
    return control;
  }

  var sliderHeld = { zoom: false, bias: false };

  function setSlider(id, control, digits, unit) {
    var input = $(id);
    if (!control || typeof control.value !== "number") return;
    if (typeof control.min === "number" && typeof control.max === "number") {
      input.min = String(control.min);
      input.max = String(control.max);
      input.disabled = !(control.max > control.min);
    }
    if (!sliderHeld[id]) {
      input.value = String(control.value);
      $(id + "-value").textContent = control.value.toFixed(digits) + unit;
    }
  }

  // Shows control values: a ControlReport-shaped object (as `capture controls --json`), or the
  // plain values /api/controls answers with.
  function applyControls(controls, partial) {
    if (!controls) return;
    var zoom = number(controls.videoZoomFactor), bias = number(controls.exposureTargetBias);
    if (zoom) setSlider("zoom", zoom, 1, "×");
    if (bias) setSlider("bias", bias, 1, " EV");
    var torch = mode(controls.torchMode);
    var torchButton = $("torch");
    if (torch) {
      if (torch.supported) torchButton.disabled = torch.supported.indexOf("on") < 0;
      else if (!partial) torchButton.disabled = false;
      torchButton.setAttribute("aria-pressed", torch.value === "on" ? "true" : "false");
    }
    if (!partial && !torch) torchButton.disabled = true;
  }

  $("torch").addEventListener("click", function () {
    var on = $("torch").getAttribute("aria-pressed") === "true";
    sendControls({ torchMode: on ? "off" : "on" });
  });

  function clampedSliderValue(id) {
    var input = $(id);
    return Math.min(+input.max, Math.max(+input.min, +input.value));
  }

  [["zoom", "videoZoomFactor", 1, "×"], ["bias", "exposureTargetBias", 1, " EV"]].forEach(function (entry) {
    var id = entry[0], name = entry[1], input = $(id);
    input.addEventListener("pointerdown", function () { sliderHeld[id] = true; });
    input.addEventListener("input", function () {
      var value = clampedSliderValue(id);
      $(id + "-value").textContent = value.toFixed(entry[2]) + entry[3];
      var values = {};
      values[name] = value;
      sendControls(values);
    });
    input.addEventListener("change", function () { sliderHeld[id] = false; });
    // Double click (double tap) returns to the neutral value.
    input.addEventListener("dblclick", function () {
      input.value = id === "zoom" ? input.min : "0";
      input.dispatchEvent(new Event("input"));
      input.dispatchEvent(new Event("change"));
    });
  });

  // --- State ------------------------------------------------------------------------------

  var stateTimer = null;

  function refreshState() {
    clearTimeout(stateTimer);
    var epoch = controlsEpoch;
    return getJSON("/api/state")
      .then(function (state) { applyState(state, epoch === controlsEpoch && !controlsBusy); })
      .catch(fail("Reading the state"))
      .then(function () { stateTimer = setTimeout(refreshState, app.recording ? 1000 : 3000); });
  }

  function applyState(state, controlsCurrent) {
    if (!state) return;
    var before = currentDevice();
    app.state = state;
    var device = currentDevice();
    $("device-name").textContent = (device && (device.localizedName || device.uniqueID)) || "";
    if (controlsCurrent !== false) applyControls(state.controls || null, false);
    $("snap").disabled = false;
    $("record").disabled = false;
    $("switch").disabled = videoDevices().length < 2;
    applyRecording(state.recording);
    if (!before || !device || before.uniqueID !== device.uniqueID || before.position !== device.position) layout();
  }

  function videoDevices() {
    return app.devices.filter(function (d) { return !d.formats || d.formats.length > 0; });
  }

  function loadDevices() {
    return getJSON("/api/devices").then(function (devices) {
      app.devices = Array.isArray(devices) ? devices : (devices && devices.devices) || [];
      $("switch").disabled = videoDevices().length < 2;
    }).catch(fail("Listing the cameras"));
  }

  $("switch").addEventListener("click", function () {
    var devices = videoDevices();
    if (devices.length < 2) return;
    var current = currentDevice();
    var index = devices.findIndex(function (d) { return current && d.uniqueID === current.uniqueID; });
    var next = devices[(index + 1) % devices.length];
    var button = $("switch");
    button.disabled = true;
    say("Switching to " + (next.localizedName || next.uniqueID));
    var framesBefore = app.stats.videoFrames;
    getJSON("/api/device", { method: "POST", json: { uniqueID: next.uniqueID } })
      .then(function () { return refreshState(); })
      .then(function () {
        say("");
        // A WebRTC stream that stopped with the switch is started again.
        setTimeout(function () {
          if (app.transport === "WebRTC" && app.stats.videoFrames === framesBefore) { stopWHEP(); startPreview(); }
        }, 4000);
      })
      .catch(fail("Switching cameras"))
      .then(function () { button.disabled = videoDevices().length < 2; });
  });

  // --- Snap --------------------------------------------------------------------------------

  function timestamp() {
    var d = new Date();
    function two(n) { return String(n).padStart(2, "0"); }
    return d.getFullYear() + two(d.getMonth() + 1) + two(d.getDate()) + "-" + two(d.getHours()) + two(d.getMinutes()) + two(d.getSeconds());
  }

  $("snap").addEventListener("click", function () {
    var button = $("snap");
    button.disabled = true;
    $("preview").classList.add("flash");
    request("/api/snap", { method: "POST" })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        return response.blob().then(function (blob) {
          if (type.indexOf("image/jpeg") < 0) throw new Error("the server sent " + (type || "no type") + ", not a JPEG");
          return blob;
        });
      })
      .then(function (blob) {
        var name = "snap-" + timestamp() + "-" + (app.snaps.length + 1) + ".jpg";
        var snap = { name: name, url: URL.createObjectURL(blob), size: blob.size, blob: blob };
        app.snaps.push(snap);
        app.lastSnap = snap;
        addGalleryItem({ kind: "photo", name: name, url: snap.url, size: blob.size });
        say("Snapped " + name + " (" + formatBytes(blob.size) + ")");
      })
      .catch(fail("Snap"))
      .then(function () { button.disabled = false; $("preview").classList.remove("flash"); });
  });

  // --- Record ------------------------------------------------------------------------------

  var recordTimer = null;

  function formatBytes(bytes) {
    if (!(bytes >= 0)) return "";
    if (bytes < 1024) return bytes + " B";
    if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(0) + " KB";
    return (bytes / 1024 / 1024).toFixed(1) + " MB";
  }

  function formatDuration(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  // The server's recording state: false/null, or an object with isRecording (or recording),
  // duration (seconds), bytes (or size), name.
  function applyRecording(recording) {
    var active = !!recording && (recording === true || recording.isRecording === true || recording.recording === true ||
      (recording.isRecording === undefined && recording.recording === undefined && recording.active !== false && (recording.name || recording.duration !== undefined)));
    if (active) {
      if (!app.recording) startRecordingUI(recording);
      var r = typeof recording === "object" ? recording : {};
      if (typeof r.duration === "number") app.recording.serverDuration = r.duration;
      var bytes = typeof r.bytes === "number" ? r.bytes : typeof r.size === "number" ? r.size : typeof r.recordedFileSize === "number" ? r.recordedFileSize : null;
      if (bytes !== null) app.recording.bytes = bytes;
      updateRecordingUI();
    } else if (app.recording && !app.recording.stopping) {
      stopRecordingUI();
    }
  }

  function startRecordingUI(info) {
    var r = info && typeof info === "object" ? info : {};
    app.recording = { startedAt: performance.now() - (typeof r.duration === "number" ? r.duration * 1000 : 0), bytes: 0, stopping: false };
    $("record").setAttribute("aria-pressed", "true");
    $("record").textContent = "Stop";
    $("record-status").hidden = false;
    clearInterval(recordTimer);
    recordTimer = setInterval(updateRecordingUI, 250);
    updateRecordingUI();
  }

  function updateRecordingUI() {
    if (!app.recording) return;
    var elapsed = (performance.now() - app.recording.startedAt) / 1000;
    $("record-time").textContent = formatDuration(elapsed);
    $("record-size").textContent = formatBytes(app.recording.bytes || 0);
  }

  function stopRecordingUI() {
    clearInterval(recordTimer);
    app.recording = null;
    $("record").setAttribute("aria-pressed", "false");
    $("record").textContent = "Record";
    $("record-status").hidden = true;
  }

  $("record").addEventListener("click", function () {
    var button = $("record");
    button.disabled = true;
    if (!app.recording) {
      getJSON("/api/record/start", { method: "POST" })
        .then(function (info) { startRecordingUI(info); say("Recording"); refreshState(); })
        .catch(fail("Record"))
        .then(function () { button.disabled = false; });
    } else {
      app.recording.stopping = true;
      getJSON("/api/record/stop", { method: "POST" })
        .then(function (info) {
          stopRecordingUI();
          var name = info && (info.name || (info.url || info.path || "").split("/").pop());
          say("Recorded" + (name ? " " + name : ""));
          return loadRecordings();
        })
        .catch(function (error) { if (app.recording) app.recording.stopping = false; fail("Stopping the recording")(error); })
        .then(function () { button.disabled = false; refreshState(); });
    }
  });

  // GET /recordings/: a JSON list (names, or objects with name/size) or an HTML index of links.
  function parseRecordings(text, type) {
    var names = [];
    if (/json/.test(type) || /^\s*[\[{]/.test(text)) {
      var data = JSON.parse(text);
      var list = Array.isArray(data) ? data : data.recordings || data.files || [];
      list.forEach(function (entry) {
        if (typeof entry === "string") names.push({ name: entry });
        else if (entry && (entry.name || entry.url)) names.push({ name: entry.name || String(entry.url).split("/").pop(), size: entry.size !== undefined ? entry.size : entry.bytes });
      });
    } else {
      var doc = new DOMParser().parseFromString(text, "text/html");
      Array.prototype.forEach.call(doc.querySelectorAll("a[href]"), function (a) {
        var href = a.getAttribute("href").split("?")[0];
        var name = decodeURIComponent(href.split("/").pop());
        if (name && name !== ".." && name !== ".") names.push({ name: name });
      });
    }
    return names;
  }

  function loadRecordings() {
    return request("/recordings/")
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        return response.text().then(function (text) { return parseRecordings(text, type); });
      })
      .then(function (list) {
        app.recordings = list;
        list.forEach(function (entry) {
          var url = withToken("/recordings/" + encodeURIComponent(entry.name));
          addGalleryItem({ kind: "movie", name: entry.name, url: url, size: entry.size });
        });
      })
      .catch(fail("Listing the recordings"));
  }

  // --- Gallery -----------------------------------------------------------------------------

  function addGalleryItem(item) {
    var gallery = $("gallery");
    var existing = Array.prototype.filter.call(gallery.children, function (li) { return li.dataset.name === item.name; });
    if (existing.length) return existing[0];
    var li = document.createElement("li");
    li.className = "gallery-item " + item.kind;
    li.dataset.kind = item.kind;
    li.dataset.name = item.name;
    var media;
    if (item.kind === "photo") {
      media = document.createElement("img");
      media.alt = item.name;
    } else {
      media = document.createElement("video");
      media.controls = true;
      media.preload = "metadata";
      media.muted = true;
    }
    media.src = item.url;
    var link = document.createElement("a");
    link.className = "download";
    link.href = item.url;
    link.download = item.name;
    link.textContent = "⤓ " + item.name + (item.size !== undefined && item.size !== null ? " (" + formatBytes(item.size) + ")" : "");
    li.appendChild(media);
    li.appendChild(link);
    gallery.insertBefore(li, gallery.firstChild);
    $("gallery-count").textContent = String(gallery.children.length);
    $("gallery-empty").hidden = true;
    return li;
  }

  // --- Start -------------------------------------------------------------------------------

  // For timeline.js, loaded after this file.
  app.api = { request: request, getJSON: getJSON, withToken: withToken, say: say, fail: fail, togglePanel: togglePanel };

  applySettingsToControls();
  countVideoFrames();
  if (window.ResizeObserver) new ResizeObserver(function () { layout(); }).observe($("preview"));
  else window.addEventListener("resize", layout);
  layout();
  loadDevices().then(refreshState).then(function () {
    layout();
    startPreview();
    loadRecordings();
  });
})();
