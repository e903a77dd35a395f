// Errors where the eye is: after a refused form, focus the first bad field named by the
// error summary (or the summary itself), on load and after an htmx swap. Without this script
// the summary and its links still work; nothing else depends on it.
(function () {
  "use strict";
  function focusFirstError(root) {
    var summary = (root || document).querySelector("[data-error-summary], .error-summary");
    var field = null;
    if (summary && summary.dataset.focus) {
      field = document.getElementById(summary.dataset.focus);
    }
    if (!field) {
      field = (root || document).querySelector("main [aria-invalid='true']");
    }
    var target = field || summary;
    if (target) {
      target.focus({ preventScroll: false });
    }
  }
  document.addEventListener("DOMContentLoaded", function () { focusFirstError(document); });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.elt && event.detail.elt.querySelector("[aria-invalid='true'], .error-summary")) {
      focusFirstError(event.detail.elt);
    }
  });
})();
