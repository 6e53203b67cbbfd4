/* digest: Esc closes an evidence badge's tip (WCAG 1.4.13, dismissible); the tip opens again when
   the pointer or focus comes back.  The page works without this script: tips open on hover,
   focus and tap with CSS alone. */
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".digest-badge:hover, .digest-badge:focus, .digest-badge:focus-within").forEach(function (badge) {
      badge.classList.add("digest-tip-closed");
    });
  });
  function reopen(event) {
    var badge = event.target.closest && event.target.closest(".digest-badge");
    if (badge && !badge.contains(event.relatedTarget)) badge.classList.remove("digest-tip-closed");
  }
  document.addEventListener("mouseout", reopen);
  document.addEventListener("focusout", reopen);
})();
