// rennleitung: the little plain JavaScript the race page needs (no build step).
// 1. Live updates: an EventSource on the race's stream; each message carries the race version,
//    and when it differs from the one shown the page fetches its changing parts (board overlay,
//    question, dashboard, order, log), which htmx swaps in by id.
// 2. Clicking a highlighted destination on the board chooses it in the move form and sends it;
//    hovering shows its cost.
// 3. A refused action (409 stale, 422 illegal, 403 …) shows the server's message.
// 4. An open question that is still the same one (data-asked) keeps its form on live updates.
// 5. The replay's slider shows the decision it stands at.
// 6. The board zooms (buttons, pinch with two fingers, ctrl + wheel) inside its own box, so the
//    page never scrolls sideways on a phone; "follow my car" keeps the driver's car (and, after
//    a roll, its destinations) in view during his turn.
// 7. The move list and the board are in step: choosing in the list marks the space and shows
//    its cost; a destination on the board is focusable and chosen with Enter or Space.
// 8. Help: the first-race guide is dismissed for good (kept in this browser), the setup form
//    counts its points as they are typed, Close asks first, the replay steps by buttons.
// The content security policy runs only scripts served from here: no inline script or handler.
(function () {
  "use strict";

  function shownVersion() {
    var marker = document.getElementById("race-version");
    return marker ? parseInt(marker.getAttribute("data-version") || "-1", 10) : -1;
  }

  function shownState() {
    var marker = document.getElementById("race-version");
    return marker ? marker.getAttribute("data-state") : "";
  }

  // The page catches up with the newest version the stream told of, one parts fetch at a time.
  // A fetch that comes back older than that (it was read before the change, refused, lost, or
  // overtaken by a newer answer) is tried again after a short wait, so a busy server delays a
  // live update but never swallows it; a response older than what the page shows is not swapped.
  function listen(root) {
    var stream = root.getAttribute("data-stream");
    var parts = root.getAttribute("data-parts");
    if (!stream || !window.EventSource) { return; }
    var heard = null;
    var busy = false;
    var retries = 0;
    var timer = null;
    function later() {
      if (timer !== null || busy || heard === null || shownVersion() >= heard || retries >= 12) {
        return;
      }
      retries += 1;
      timer = window.setTimeout(function () { timer = null; catchUp(); }, 200 * retries);
    }
    function fetched() {
      busy = false;
      if (shownState() === "open" || heard < 0) { window.location.reload(); return; }
      later();
    }
    function catchUp() {
      if (busy || heard === null || heard === shownVersion()) { return; }
      if (shownState() === "open") { window.location.reload(); return; }
      busy = true;
      htmx.ajax("GET", parts, { target: "#race-version", swap: "none" })
        .then(fetched, fetched);
    }
    var source = new EventSource(stream);
    source.addEventListener("race", function (event) {
      heard = parseInt(event.data, 10);
      retries = 0;
      catchUp();
    });
    // an answer's own response may bring an older version than the stream told of meanwhile
    document.addEventListener("htmx:afterSettle", later);
  }

  // any response carrying the race's parts (a live fetch, an answer's reply) that is older than
  // what the page shows is dropped whole: swapping it would undo a newer update
  var INCOMING_VERSION = /id="race-version" data-version="(-?\d+)"/;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var found = INCOMING_VERSION.exec(event.detail.serverResponse || "");
    if (found && parseInt(found[1], 10) < shownVersion()) { event.detail.shouldSwap = false; }
  });

  // A question asked of all drivers at once (setups, head-to-head bids) stays the same while
  // the others answer: its form is not swapped, so what the driver has typed stays.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!target || target.id !== "question" || !incoming) { return; }
    var asked = target.getAttribute("data-asked");
    if (asked && asked === incoming.getAttribute("data-asked")) {
      event.detail.shouldSwap = false;
    }
  });

  function problem(text) {
    var box = document.getElementById("problem");
    if (!box) { window.alert(text); return; }
    box.textContent = text;
    box.hidden = !text;
  }

  document.addEventListener("htmx:responseError", function (event) {
    problem(event.detail.xhr.responseText || event.detail.xhr.statusText);
  });
  document.addEventListener("htmx:beforeRequest", function () { problem(""); });

  function isDest(target) {
    return target instanceof Element && target.classList.contains("dest");
  }

  function chooseDest(target) {
    var form = document.getElementById("move-form");
    if (!form) { return; }
    form.querySelector("[name=option]").value = target.getAttribute("data-key");
    htmx.trigger(form, "submit");
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (isDest(target)) { chooseDest(target); return; }
    if (!(target instanceof Element)) { return; }
    var zoomButton = target.closest("[data-zoom]");
    if (zoomButton) { zoomBy(zoomButton.getAttribute("data-zoom")); return; }
    var carLink = target.closest("[data-show-car]");
    if (carLink) { event.preventDefault(); showCar(carLink.getAttribute("data-show-car")); }
  });

  document.addEventListener("keydown", function (event) {
    if (isDest(event.target) && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      chooseDest(event.target);
    }
  });

  function showCost(target) {
    var cost = document.getElementById("cost");
    if (!cost || !isDest(target)) { return; }
    var title = target.querySelector("title");
    cost.textContent = title ? title.textContent : "";
  }

  function markChosen(key) {
    var paths = document.querySelectorAll("#overlay path.dest");
    for (var i = 0; i < paths.length; i++) {
      paths[i].classList.toggle("chosen", paths[i].getAttribute("data-key") === key);
      if (paths[i].getAttribute("data-key") === key) { showCost(paths[i]); }
    }
  }

  document.addEventListener("mouseover", function (event) { showCost(event.target); });
  document.addEventListener("focusin", function (event) {
    if (isDest(event.target)) {
      showCost(event.target);
      var list = document.getElementById("option");
      if (list) { list.value = event.target.getAttribute("data-key"); }
      markChosen(event.target.getAttribute("data-key"));
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target instanceof HTMLSelectElement && event.target.id === "option") {
      markChosen(event.target.value);
    }
    if (event.target instanceof HTMLInputElement && event.target.id === "follow") {
      followed = "";
      follow();
    }
  });

  // --- the board's zoom and "follow my car" ---------------------------------------------------
  var zoom = 1;
  var ZOOM_MIN = 1, ZOOM_MAX = 6, ZOOM_STEP = 1.4;

  function boardView() { return document.getElementById("board-view"); }
  function board() { return document.getElementById("board"); }

  // Zoom to z keeping the board point under (x, y) (client coordinates; default: the middle).
  function setZoom(z, x, y) {
    var view = boardView(), inner = board();
    if (!view || !inner) { return; }
    z = Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, z));
    var rect = view.getBoundingClientRect();
    var px = x === undefined ? rect.width / 2 : x - rect.left;
    var py = y === undefined ? rect.height / 2 : y - rect.top;
    var fx = (view.scrollLeft + px) / (inner.offsetWidth || 1);
    var fy = (view.scrollTop + py) / (inner.offsetHeight || 1);
    zoom = z;
    inner.style.width = (z * 100) + "%";
    view.scrollLeft = fx * inner.offsetWidth - px;
    view.scrollTop = fy * inner.offsetHeight - py;
    view.setAttribute("data-zoom", z.toFixed(2));
  }

  function zoomBy(how) {
    if (how === "fit") { setZoom(1); return; }
    setZoom(how === "in" ? zoom * ZOOM_STEP : zoom / ZOOM_STEP);
  }

  // Bring these board elements into the middle of the board's box; on a narrow screen zoom in
  // (at most 3x) as far as they still fit.
  function frame(elements) {
    var view = boardView(), inner = board();
    if (!view || !inner || !elements.length) { return; }
    var box = null;
    for (var i = 0; i < elements.length; i++) {
      var r = elements[i].getBoundingClientRect();
      box = box ? { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
                    right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom) }
                : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }
    var rect = view.getBoundingClientRect();
    if (rect.width < 700) {
      var w = (box.right - box.left) / zoom, h = (box.bottom - box.top) / zoom;
      var fit = Math.min(rect.width / (w * 1.25 || 1), rect.height / (h * 1.25 || 1));
      var wanted = Math.max(ZOOM_MIN, Math.min(3, fit));
      if (Math.abs(wanted - zoom) > 0.05) {
        setZoom(wanted, (box.left + box.right) / 2, (box.top + box.bottom) / 2);
        frame(elements);
        return;
      }
    }
    view.scrollLeft += (box.left + box.right) / 2 - (rect.left + rect.width / 2);
    view.scrollTop += (box.top + box.bottom) / 2 - (rect.top + rect.height / 2);
    var first = elements[0].getBoundingClientRect();
    if (rect.width >= 700 && (first.top < 0 || first.bottom > window.innerHeight)) {
      // the board is taller than the window (a desktop at its full width): scroll the page
      window.scrollBy(0, (first.top + first.bottom) / 2 - window.innerHeight / 2);
    } else if (rect.width < 700 && (rect.top < 0 || rect.bottom > window.innerHeight)) {
      view.scrollIntoView({ block: "start" });  // a phone: the board's box at the top
    }
  }

  function myTurn() {
    var question = document.getElementById("question");
    return !!(question && question.getAttribute("data-asked"));
  }

  // Each question is brought into view once, when it opens: a live update while the driver
  // reads or clicks never moves the board under his finger.
  var followed = "";

  function follow() {
    var box = document.getElementById("follow");
    if (!box || !box.checked || !myTurn()) { return; }
    var asked = document.getElementById("question").getAttribute("data-asked");
    if (asked === followed) { return; }
    followed = asked;
    var mine = document.querySelector("#overlay g.car.mine");
    if (!mine) { return; }
    var shown = [mine];
    var dests = document.querySelectorAll("#overlay path.dest");
    for (var i = 0; i < dests.length; i++) { shown.push(dests[i]); }
    frame(shown);
  }

  function showCar(car) {
    var mark = document.querySelector('#overlay g.car[data-car="' + car + '"]');
    if (!mark) { return; }
    var marks = document.querySelectorAll("#overlay g.car.shown");
    for (var i = 0; i < marks.length; i++) { marks[i].classList.remove("shown"); }
    mark.classList.add("shown");
    frame([mark]);
    var view = boardView();
    if (view) { view.scrollIntoView({ block: "nearest" }); }
  }

  function pinchable(view) {
    var touches = {};
    var pinch = null;
    function spread() {
      var ids = Object.keys(touches);
      var a = touches[ids[0]], b = touches[ids[1]];
      return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }
    view.addEventListener("pointerdown", function (e) {
      touches[e.pointerId] = { x: e.clientX, y: e.clientY };
      if (Object.keys(touches).length === 2) { pinch = { start: spread(), zoom: zoom }; }
    });
    view.addEventListener("pointermove", function (e) {
      if (!touches[e.pointerId]) { return; }
      touches[e.pointerId] = { x: e.clientX, y: e.clientY };
      if (pinch && Object.keys(touches).length === 2) {
        var now = spread();
        setZoom(pinch.zoom * now.d / pinch.start.d, now.x, now.y);
      }
    });
    function up(e) { delete touches[e.pointerId]; pinch = null; }
    view.addEventListener("pointerup", up);
    view.addEventListener("pointercancel", up);
    view.addEventListener("pointerleave", up);
    view.addEventListener("wheel", function (e) {
      if (!e.ctrlKey) { return; }  // a trackpad's pinch arrives as ctrl + wheel
      e.preventDefault();
      setZoom(zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15), e.clientX, e.clientY);
    }, { passive: false });
  }

  // --- help -----------------------------------------------------------------------------------
  var GUIDE_KEY = "rennleitung-guide";

  function setupSum() {
    var areas = document.querySelector(".setup-areas");
    var out = document.getElementById("setup-sum");
    if (!areas || !out) { return; }
    var inputs = areas.querySelectorAll("input[type=number]");
    var sum = 0;
    for (var i = 0; i < inputs.length; i++) { sum += parseInt(inputs[i].value || "0", 10) || 0; }
    var points = parseInt(areas.getAttribute("data-points") || "0", 10);
    out.textContent = (out.getAttribute("data-template") || "{sum}/{points}")
      .replace("{sum}", String(sum)).replace("{points}", String(points));
    out.classList.toggle("wrong", sum !== points);
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target instanceof Element && target.closest(".setup-areas")) { setupSum(); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) { return; }
    var ask = form.getAttribute("data-confirm");
    if (ask && !window.confirm(ask)) { event.preventDefault(); event.stopImmediatePropagation(); }
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) { return; }
    if (target.id === "guide-dismiss") {
      try { window.localStorage.setItem(GUIDE_KEY, "done"); } catch (e) { /* private mode */ }
      var guide = document.getElementById("guide");
      if (guide) { guide.classList.add("dismissed"); }
      var board = boardView();
      if (board) { board.focus(); }
      return;
    }
    var step = target.closest("[data-step]");
    var slider = document.getElementById("at");
    if (step && slider instanceof HTMLInputElement) {
      var how = step.getAttribute("data-step");
      var last = parseInt(slider.max, 10), at = parseInt(slider.value, 10);
      var next = how === "first" ? 0 : how === "last" ? last : at + parseInt(how || "0", 10);
      slider.value = String(Math.max(0, Math.min(last, next)));
      var shown = document.getElementById("at-shown");
      if (shown) { shown.value = slider.value; }
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });

  // The decision clock: the time left, counted down every second from the seconds the
  // server said were left when it drew the part (its clock, not the browser's, which may be
  // off; the server decides when the time runs out, this only shows it).
  function tick() {
    var clock = document.getElementById("countdown");
    if (!clock) { return; }
    var seen = clock.getAttribute("data-seen");
    if (!seen) { seen = String(Date.now()); clock.setAttribute("data-seen", seen); }
    var told = parseFloat(clock.getAttribute("data-seconds") || "");
    var bank = parseFloat(clock.getAttribute("data-bank") || "") || 0;
    var left = isNaN(told)
      ? Math.round((Date.parse(clock.getAttribute("data-deadline") || "") - Date.now()) / 1000)
      : Math.round(told - (Date.now() - parseInt(seen, 10)) / 1000);
    if (isNaN(left)) { return; }
    if (left <= 0 && left + bank > 0) {  // the time per decision is up: the bank runs down
      clock.textContent = (clock.getAttribute("data-on-bank") || "{left}")
        .replace("{left}", clockText(left + bank));
      clock.classList.add("bank");
      clock.classList.toggle("short", left + bank <= 30);
      return;
    }
    if (left <= 0) {
      clock.textContent = clock.getAttribute("data-over") || "";
      clock.classList.add("over");
      return;
    }
    var shown = (clock.getAttribute("data-left") || "{left}").replace("{left}", clockText(left));
    if (bank > 0) {
      shown += (clock.getAttribute("data-bank-text") || "").replace("{bank}", clockText(bank));
    }
    clock.textContent = shown;
    clock.classList.toggle("short", left <= 30 && bank <= 0);
  }

  function clockText(left) {
    var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), sec = left % 60;
    return (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (sec < 10 ? "0" : "") + sec;
  }
  window.setInterval(tick, 1000);

  // FD Blitz: the running chess clock counts down from the seconds the server last told
  // (data-seconds); the server halts the car when it is out, this only shows it.
  function chessTick() {
    var clocks = document.querySelectorAll(".chess-clock[data-running=true]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var seen = clock.getAttribute("data-seen");
      if (!seen) { seen = String(Date.now()); clock.setAttribute("data-seen", seen); }
      var left = parseFloat(clock.getAttribute("data-seconds") || "0") -
        (Date.now() - parseInt(seen, 10)) / 1000;
      clock.textContent = clockText(Math.max(0, Math.ceil(left)));
    }
  }
  window.setInterval(chessTick, 500);

  function guideShown() {
    var guide = document.getElementById("guide");
    var done = false;
    try { done = window.localStorage.getItem(GUIDE_KEY) === "done"; } catch (e) { done = false; }
    if (guide && done) { guide.classList.add("dismissed"); }
  }

  document.addEventListener("htmx:afterSettle", function () {
    setupSum();
    tick();
    follow();
    var list = document.getElementById("option");
    if (list) { markChosen(list.value); }
  });

  // the replay's slider shows its position (no inline handler: the page's policy allows none)
  document.addEventListener("input", function (event) {
    var target = event.target;
    var shown = document.getElementById("at-shown");
    if (shown && target instanceof HTMLInputElement && target.id === "at") {
      shown.value = target.value;
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("race-live");
    if (root) { listen(root); }
    var view = boardView();
    if (view) {
      pinchable(view);
      var picture = view.querySelector("img");
      if (picture && !picture.complete) { picture.addEventListener("load", follow); } else { follow(); }
    }
    var list = document.getElementById("option");
    if (list) { markChosen(list.value); }
    guideShown();
    setupSum();
    tick();
  });
})();
