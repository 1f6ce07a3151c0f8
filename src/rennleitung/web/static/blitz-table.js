// FD Blitz at the table (issue 29): a chess clock for two on one screen. The page keeps the
// time itself (no server round trip between two taps); whoever ends his move taps his half.
// When a time is up that car stays where it stands and only the other clock runs on.
(function () {
  "use strict";
  var box = document.getElementById("table-clock");
  if (!box) { return; }
  var limit = parseFloat(box.getAttribute("data-limit") || "300") * 1000;
  var used = [0, 0], running = null, since = 0, flagged = [false, false], paused = null;

  function left(i) {
    var spent = used[i] + (running === i ? Date.now() - since : 0);
    return Math.max(0, limit - spent);
  }
  function text(ms) {
    var s = Math.ceil(ms / 1000), m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }
  function settle() {
    if (running !== null && left(running) <= 0) {
      used[running] = limit;
      flagged[running] = true;
      var other = 1 - running;
      since = Date.now();
      running = flagged[other] ? null : other;
    }
  }
  function show() {
    settle();
    for (var i = 0; i < 2; i++) {
      document.getElementById("tap-time-" + i).textContent = text(left(i));
      var side = document.getElementById("tap-" + i);
      side.classList.toggle("running", running === i);
      side.classList.toggle("flagged", flagged[i]);
      side.setAttribute("data-running", running === i ? "true" : "false");
      side.setAttribute("data-flagged", flagged[i] ? "true" : "false");
      if (flagged[i]) {
        document.getElementById("tap-state-" + i).textContent = box.getAttribute("data-over");
      }
    }
  }
  function press(i) {
    settle();
    if (running !== i) { return; }
    used[i] += Date.now() - since;
    since = Date.now();
    running = flagged[1 - i] ? i : 1 - i;
    show();
  }
  function begin(first) {
    used = [0, 0]; flagged = [false, false]; paused = null; running = first; since = Date.now();
    show();
  }
  document.getElementById("tap-0").addEventListener("click", function () { press(0); });
  document.getElementById("tap-1").addEventListener("click", function () { press(1); });
  document.getElementById("table-start").addEventListener("click", function () { begin(0); });
  document.getElementById("table-start-1").addEventListener("click", function () { begin(1); });
  document.getElementById("table-pause").addEventListener("click", function () {
    if (running === null && paused !== null) {  // pressed again: the same clock goes on
      running = paused; paused = null; since = Date.now(); show(); return;
    }
    if (running === null) { return; }
    used[running] += Date.now() - since; since = Date.now(); paused = running; running = null;
    show();
  });
  document.getElementById("table-reset").addEventListener("click", function () {
    used = [0, 0]; flagged = [false, false]; running = null; paused = null; show();
  });
  window.blitzTable = { show: show };  // a test shows the clock at the instant it moved it to
  window.setInterval(show, 200);
  show();
})();
