/* digest: Esc closes an evidence badge's tip or a citation's card (WCAG 1.4.13, dismissible); they
   open again when the pointer or focus comes back.  On a touch screen the first tap on a citation
   opens its card (the second follows the link); a tap elsewhere closes it.  The page works without
   this script: tips and cards open on hover and focus with CSS alone, and a citation's link leads
   to its bibliography entry. */
(function () {
  "use strict";
  var HOSTS = ".digest-badge, .digest-cite-wrap";
  function closeCards(except) {
    document.querySelectorAll(".digest-cite-wrap.digest-card-open").forEach(function (wrap) {
      if (wrap !== except) wrap.classList.remove("digest-card-open");
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".digest-badge:hover, .digest-badge:focus, .digest-badge:focus-within, " +
      ".digest-cite-wrap:hover, .digest-cite-wrap:focus-within, .digest-cite-wrap.digest-card-open").forEach(function (host) {
      host.classList.add("digest-tip-closed");
      host.classList.remove("digest-card-open");
    });
  });
  function reopen(event) {
    var host = event.target.closest && event.target.closest(HOSTS);
    if (host && !host.contains(event.relatedTarget)) host.classList.remove("digest-tip-closed");
  }
  document.addEventListener("mouseout", reopen);
  document.addEventListener("focusout", reopen);
  var touch = false;
  document.addEventListener("touchstart", function () { touch = true; }, { passive: true, capture: true });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.digest-cite");
    var wrap = link && link.parentElement;
    if (wrap && wrap.classList.contains("digest-cite-wrap") && touch && !wrap.classList.contains("digest-card-open") &&
        wrap.querySelector(".digest-cite__card")) {
      event.preventDefault();
      closeCards(wrap);
      wrap.classList.remove("digest-tip-closed");
      wrap.classList.add("digest-card-open");
      return;
    }
    var inside = event.target.closest && event.target.closest(".digest-cite-wrap");
    closeCards(inside);
  });
})();
