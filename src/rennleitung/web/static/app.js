// rennleitung: the little plain JavaScript the race page needs (no build step).
// 1. Live updates: an EventSource on the race's stream; each message names the race version,
//    and the page fetches its changing parts (board overlay, dashboard, question, log) then.
// 2. Clicking a highlighted destination on the board submits the move form with its key.
(function () {
  "use strict";

  function refresh(root) {
    var url = root.getAttribute("data-parts");
    if (!url) { return; }
    htmx.ajax("GET", url, { target: root, swap: "innerHTML" });
  }

  function listen(root) {
    var stream = root.getAttribute("data-stream");
    if (!stream || !window.EventSource) { return; }
    var source = new EventSource(stream);
    source.addEventListener("race", function (event) {
      var version = parseInt(event.data, 10);
      var shown = parseInt(root.getAttribute("data-version") || "-1", 10);
      if (version !== shown) { refresh(root); }
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element) || !target.classList.contains("dest")) { return; }
    var form = document.getElementById("move-form");
    if (!form) { return; }
    form.querySelector("input[name=option]").value = target.getAttribute("data-key");
    htmx.trigger(form, "submit");
  });

  document.addEventListener("mouseover", function (event) {
    var target = event.target;
    var cost = document.getElementById("cost");
    if (!cost || !(target instanceof Element) || !target.classList.contains("dest")) { return; }
    var title = target.querySelector("title");
    cost.textContent = title ? title.textContent : "";
  });

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("race-live");
    if (root) { listen(root); }
  });
})();
