// The organise page's file inputs: a chosen file is read here and put into the paste field
// named by data-fills, so the form posts text as before (the server refuses multipart bodies,
// issue 21). A file that is not UTF-8 is read as Windows-1252, as German Excel saves CSV.
"use strict";
document.addEventListener("change", function (event) {
  var input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "file" || !input.dataset.fills) {
    return;
  }
  var target = document.getElementById(input.dataset.fills);
  var file = input.files && input.files[0];
  if (!target || !file) {
    return;
  }
  file.arrayBuffer().then(function (bytes) {
    var text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (notUtf8) {
      text = new TextDecoder("windows-1252").decode(bytes);
    }
    target.value = text.replace(/^\uFEFF/, "");
    target.dispatchEvent(new Event("input", { bubbles: true }));
  });
});
