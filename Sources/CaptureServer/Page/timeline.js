// The continuous recording by time (`capture serve --segment`): a day's bar with its hours, the
// recorded spans and a mark per event; under it the chosen hour's bar; each event with a
// thumbnail. A click on a bar, a mark or an event plays from there (an MP4 of the range from
// /api/export, no re-encoding); the From/To range downloads as one MP4.
//
// Reads /api/recordings (a day at a time), /api/thumbnail.jpg, /api/export and /ws/events (new
// events appear as they happen). The panel's button shows only when the server records
// continuously (/api/recordings is 409 otherwise). `window.captureApp.timeline` exposes the
// state for tests.
(function () {
  "use strict";

  var app = window.captureApp, api = app.api;
  var $ = function (id) { return document.getElementById(id); };
  var HOUR = 3600 * 1000, DAY = 24 * HOUR;
  var PLAY_SECONDS = 60;

  var timeline = app.timeline = {
    available: false,
    first: null, // the folder's first and last recorded times (ms)
    last: null,
    day: null, // local midnight of the day shown (ms)
    hour: null, // start of the hour shown (ms)
    spans: [], // segments merged where they follow each other: {start, end}
    events: [], // {kinds, trigger, start, end} (ms; end null while recorded)
    playing: null, // {from, to} (ms)
    range: null, // {from, to} of the download
    loads: 0,
    socketMessages: 0,
  };

  function iso(ms) { return new Date(ms).toISOString(); }
  function query(from, to) { return "from=" + encodeURIComponent(iso(from)) + "&to=" + encodeURIComponent(iso(to)); }
  function midnight(ms) { var date = new Date(ms); date.setHours(0, 0, 0, 0); return date.getTime(); }
  function hourOf(ms) { var date = new Date(ms); date.setMinutes(0, 0, 0); return date.getTime(); }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(ms, seconds) {
    var date = new Date(ms);
    return two(date.getHours()) + ":" + two(date.getMinutes()) + (seconds ? ":" + two(date.getSeconds()) : "");
  }
  // The value of a datetime-local input: local time, to the second.
  function localInput(ms) {
    var date = new Date(ms);
    return date.getFullYear() + "-" + two(date.getMonth() + 1) + "-" + two(date.getDate()) + "T" + clock(ms, true);
  }

  function spansOf(segments) {
    var spans = [];
    segments.forEach(function (segment) {
      var last = spans[spans.length - 1];
      if (last && segment.start - last.end < 1500) last.end = Math.max(last.end, segment.end);
      else spans.push({ start: segment.start, end: segment.end });
    });
    return spans;
  }

  function eventOf(json) {
    return {
      kinds: json.kinds || [],
      trigger: Date.parse(json.trigger),
      start: Date.parse(json.start),
      end: json.end ? Date.parse(json.end) : null,
    };
  }

  // --- Loading -------------------------------------------------------------------------------

  function load() {
    var from = timeline.day, to = timeline.day + DAY;
    return api.getJSON("/api/recordings?" + query(from, to)).then(function (data) {
      timeline.available = true;
      timeline.first = data.first ? Date.parse(data.first) : null;
      timeline.last = data.last ? Date.parse(data.last) : null;
      timeline.spans = spansOf(data.segments.map(function (s) { return { start: Date.parse(s.start), end: Date.parse(s.end) }; }));
      timeline.events = data.events.map(eventOf);
      timeline.loads += 1;
      render();
    });
  }

  // Whether the server records continuously: shows the button, and the latest day and hour.
  function probe() {
    var now = Date.now();
    return api.getJSON("/api/recordings?" + query(now, now + 1)).then(function (data) {
      timeline.available = true;
      var latest = data.last ? Date.parse(data.last) : now;
      timeline.day = midnight(latest);
      timeline.hour = hourOf(latest);
      $("timeline-button").hidden = false;
    }, function (error) {
      if (error.status !== 409) api.fail("Reading the timeline")(error);
    });
  }

  // --- Drawing -------------------------------------------------------------------------------

  function percent(ms, start, length) { return Math.max(0, Math.min(100, (ms - start) / length * 100)); }

  function drawBar(bar, start, length, ticks, label) {
    bar.textContent = "";
    bar.dataset.start = String(start);
    bar.dataset.length = String(length);
    for (var i = 0; i < ticks; i += 1) {
      var tick = document.createElement("span");
      tick.className = "tick";
      tick.style.left = (i / ticks * 100) + "%";
      tick.textContent = label(start + i * length / ticks, i);
      bar.appendChild(tick);
    }
    timeline.spans.forEach(function (span) {
      if (span.end <= start || span.start >= start + length) return;
      var element = document.createElement("div");
      element.className = "span";
      element.style.left = percent(span.start, start, length) + "%";
      element.style.width = Math.max(0.2, percent(span.end, start, length) - percent(span.start, start, length)) + "%";
      element.title = clock(span.start, true) + "–" + clock(span.end, true);
      bar.appendChild(element);
    });
    timeline.events.forEach(function (event, index) {
      if (event.trigger < start || event.trigger >= start + length) return;
      var mark = document.createElement("button");
      mark.type = "button";
      mark.className = "mark";
      mark.dataset.index = String(index);
      mark.style.left = percent(event.trigger, start, length) + "%";
      mark.title = event.kinds.join(", ") + " at " + clock(event.trigger, true);
      mark.setAttribute("aria-label", mark.title);
      mark.addEventListener("click", function (e) { e.stopPropagation(); playEvent(event); });
      bar.appendChild(mark);
    });
    if (timeline.playing && timeline.playing.from >= start && timeline.playing.from < start + length) {
      var head = document.createElement("div");
      head.className = "playhead";
      head.style.left = percent(timeline.playing.from, start, length) + "%";
      bar.appendChild(head);
    }
  }

  function render() {
    var day = new Date(timeline.day);
    $("timeline-day").textContent = day.toLocaleDateString(undefined, { weekday: "short", year: "numeric", month: "short", day: "numeric" });
    $("timeline-prev").disabled = timeline.first === null || timeline.first >= timeline.day;
    $("timeline-next").disabled = timeline.last === null || timeline.last < timeline.day + DAY;
    drawBar($("timeline-daybar"), timeline.day, DAY, 24, function (_, i) { return i % 3 === 0 ? two(i) : ""; });
    if (timeline.hour === null || timeline.hour < timeline.day || timeline.hour >= timeline.day + DAY) timeline.hour = timeline.day;
    drawBar($("timeline-hourbar"), timeline.hour, HOUR, 6, function (ms) { return clock(ms); });
    var list = $("timeline-events");
    list.textContent = "";
    timeline.events.slice().reverse().forEach(function (event) {
      var item = document.createElement("li");
      item.className = "event";
      item.dataset.trigger = iso(event.trigger);
      var image = document.createElement("img");
      image.alt = event.kinds.join(", ") + " at " + clock(event.trigger, true);
      image.loading = "lazy";
      loadThumbnail(image, event.trigger, 0);
      var caption = document.createElement("span");
      caption.textContent = clock(event.trigger, true) + " · " + event.kinds.join(", ");
      item.appendChild(image);
      item.appendChild(caption);
      item.addEventListener("click", function () { playEvent(event); });
      if (timeline.playing && timeline.playing.event === event.trigger) item.classList.add("playing");
      list.appendChild(item);
    });
    $("timeline-empty").hidden = timeline.events.length > 0;
  }

  // An event just triggered may be ahead of what is written yet: its thumbnail is retried.
  function loadThumbnail(image, at, attempt) {
    image.style.visibility = "hidden";
    image.onload = function () { image.style.visibility = ""; };
    image.onerror = function () {
      if (attempt < 5) setTimeout(function () { loadThumbnail(image, at, attempt + 1); }, 1500);
    };
    image.src = api.withToken("/api/thumbnail.jpg?at=" + encodeURIComponent(iso(at)) + "&width=320") + (attempt ? "&attempt=" + attempt : "");
  }

  // --- Playing and downloading --------------------------------------------------------------

  function exportURL(from, to) { return api.withToken("/api/export?" + query(from, to)); }

  function setRange(from, to) {
    timeline.range = { from: from, to: to };
    $("timeline-from").value = localInput(from);
    $("timeline-to").value = localInput(to);
    var link = $("timeline-download");
    link.href = exportURL(from, to);
    link.download = iso(from).replace(/:/g, "-") + ".mp4";
  }

  function play(from, to, event) {
    timeline.playing = { from: from, to: to, event: event || null };
    setRange(from, to);
    var video = $("timeline-video");
    video.src = exportURL(from, to);
    var started = video.play();
    if (started && started.catch) started.catch(function () {});
    render();
  }

  function playEvent(event) {
    var end = event.end !== null ? event.end : Math.min(Date.now(), event.trigger + PLAY_SECONDS * 1000);
    play(event.start, Math.max(end, event.start + 1000), event.trigger);
  }

  // A click at a time plays a minute from there, within what was recorded.
  function playAt(ms) {
    var span = timeline.spans.filter(function (s) { return s.end > ms; })[0];
    if (!span) { api.say("Nothing recorded after " + clock(ms, true)); return; }
    var from = Math.max(ms, span.start);
    play(from, Math.min(span.end, from + PLAY_SECONDS * 1000));
  }

  function barTime(bar, clientX) {
    var box = bar.getBoundingClientRect();
    var fraction = Math.max(0, Math.min(1, (clientX - box.left) / box.width));
    return Number(bar.dataset.start) + fraction * Number(bar.dataset.length);
  }

  $("timeline-daybar").addEventListener("click", function (e) {
    var ms = barTime(this, e.clientX);
    timeline.hour = hourOf(ms);
    playAt(ms);
  });
  $("timeline-hourbar").addEventListener("click", function (e) { playAt(barTime(this, e.clientX)); });

  function rangeChanged() {
    var from = new Date($("timeline-from").value).getTime(), to = new Date($("timeline-to").value).getTime();
    if (isFinite(from) && isFinite(to) && from < to) setRange(from, to);
    else api.say("Download: the start must be before the end");
  }
  $("timeline-from").addEventListener("change", rangeChanged);
  $("timeline-to").addEventListener("change", rangeChanged);

  function changeDay(step) {
    timeline.day = midnight(timeline.day + step * DAY + HOUR * 12);
    timeline.hour = timeline.day;
    load().catch(api.fail("Reading the timeline"));
  }
  $("timeline-prev").addEventListener("click", function () { changeDay(-1); });
  $("timeline-next").addEventListener("click", function () { changeDay(1); });

  // --- Open, live -------------------------------------------------------------------------

  var refreshTimer = null;
  function panelOpen() { return !$("timeline-panel").hidden; }

  $("timeline-button").addEventListener("click", function () {
    if (!api.togglePanel("timeline-panel", "timeline-button")) return;
    load().catch(api.fail("Reading the timeline"));
    clearInterval(refreshTimer);
    refreshTimer = setInterval(function () {
      if (!panelOpen()) { clearInterval(refreshTimer); return; }
      if (Date.now() < timeline.day + DAY) load().catch(function () {});
    }, 10000);
  });

  var socketRetry = null;
  function connectEvents() {
    var url = (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + api.withToken("/ws/events");
    var socket = new WebSocket(url);
    socket.onmessage = function () {
      timeline.socketMessages += 1;
      if (panelOpen() && Date.now() < timeline.day + DAY) load().catch(function () {});
    };
    socket.onclose = function () {
      clearTimeout(socketRetry);
      socketRetry = setTimeout(connectEvents, 3000);
    };
  }

  probe().then(function () { if (timeline.available) connectEvents(); });
})();
