// rennleitung: the little plain JavaScript the race page needs (no build step).
// 1. Live updates: an EventSource on the race's stream; each message carries the race version,
//    and when it differs from the one shown the page fetches its changing parts (board overlay,
//    question, dashboard, order, log), which htmx swaps in by id.
// 2. Clicking a highlighted destination on the board chooses it in the move form and sends it;
//    hovering shows its cost.
// 3. A refused action (409 stale, 422 illegal, 403 …) shows the server's message.
// 4. An open question that is still the same one (data-asked) keeps its form on live updates.
// 5. The replay's slider shows the decision it stands at.
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

  function listen(root) {
    var stream = root.getAttribute("data-stream");
    var parts = root.getAttribute("data-parts");
    if (!stream || !window.EventSource) { return; }
    var source = new EventSource(stream);
    source.addEventListener("race", function (event) {
      var version = parseInt(event.data, 10);
      if (version === shownVersion()) { return; }
      if (shownState() === "open") { window.location.reload(); return; }
      htmx.ajax("GET", parts, { target: "#race-version", swap: "none" }).then(function () {
        if (shownState() === "open" || version < 0) { window.location.reload(); }
      });
    });
  }

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

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element) || !target.classList.contains("dest")) { return; }
    var form = document.getElementById("move-form");
    if (!form) { return; }
    form.querySelector("[name=option]").value = target.getAttribute("data-key");
    htmx.trigger(form, "submit");
  });

  document.addEventListener("mouseover", function (event) {
    var target = event.target;
    var cost = document.getElementById("cost");
    if (!cost || !(target instanceof Element) || !target.classList.contains("dest")) { return; }
    var title = target.querySelector("title");
    cost.textContent = title ? title.textContent : "";
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
  });
})();
