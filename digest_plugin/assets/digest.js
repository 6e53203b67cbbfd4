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

/* digest: the filter bars of the register and of section pages (.digest-filter).  The bar is
   rendered hidden and shown here, so a reader without the script never meets a control that does
   nothing: the register's grouped lists and anchors filter for them.  A record is kept when, for
   every chosen field, its data-<field> attribute (a space-separated list) holds the chosen value;
   a group (a brief's callouts, a sub-section) left with none is hidden with its heading. */
(function () {
  "use strict";
  var HIDDEN = "data-filter-hidden";
  function heading(group) {
    var before = group.previousElementSibling;
    return before && /^H[1-6]$/.test(before.tagName) ? before : null;
  }
  function setHidden(element, hidden) {
    if (!element) return;
    if (hidden) element.setAttribute(HIDDEN, ""); else element.removeAttribute(HIDDEN);
  }
  document.querySelectorAll("form.digest-filter").forEach(function (form) {
    var scope = form.closest("article") || document;
    var records = Array.prototype.slice.call(scope.querySelectorAll(form.getAttribute("data-filter-target")));
    var groups = Array.prototype.slice.call(scope.querySelectorAll("[data-filter-group]"));
    var output = form.querySelector("output");
    function apply() {
      var chosen = Array.prototype.filter.call(form.querySelectorAll("select"), function (s) { return s.value; });
      var shown = 0;
      records.forEach(function (record) {
        var keep = chosen.every(function (select) {
          var value = record.getAttribute("data-" + select.name) || "";
          return value.split(" ").indexOf(select.value) >= 0;
        });
        setHidden(record, !keep);
        if (keep) shown += 1;
      });
      groups.forEach(function (group) {
        var empty = chosen.length > 0 && !group.querySelector(form.getAttribute("data-filter-target") + ":not([" + HIDDEN + "])");
        setHidden(group, empty);
        setHidden(heading(group), empty);
      });
      output.textContent = chosen.length ? form.getAttribute("data-count-format")
        .replace("{shown}", String(shown)).replace("{total}", String(records.length)) : "";
    }
    form.addEventListener("change", apply);
    form.addEventListener("reset", function () { window.setTimeout(apply, 0); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
  });
})();
