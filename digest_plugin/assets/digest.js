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

/* digest: past views (issue 32).  /<topic>/as-of/ shows the doc as it stood on the night its address
   names (#YYYY-MM-DD/N; a permalink and a section page's form say ?night=…&view=…): first
   the list of nights, then the chunk of that view's month (gzip'd JSON the build wrote), whose pieces
   are HTML the site's renderer made.  A date with no brief shows the last night before it, and says
   so.  A section page's night picker goes there. */
(function () {
  "use strict";
  function go(form, night, view) {
    var action = form.getAttribute("action");
    var hash = "#" + night + (view ? "/" + view : "");
    if (action) window.location.href = action.split("#")[0] + hash;
    else window.location.hash = hash;
  }
  document.querySelectorAll("form.digest-past-pick").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      go(form, form.elements.night.value, form.elements.view.value);
    });
  });
  var root = document.querySelector("[data-digest-past]");
  if (!root) return;
  var words = JSON.parse(root.getAttribute("data-words"));
  var index = root.getAttribute("data-index");
  var base = index.slice(0, index.lastIndexOf("/") + 1);
  var body = document.querySelector(".digest-past__body");
  var banner = root.querySelector(".digest-past__banner");
  var picker = root.querySelector("form[data-past-pick]");
  var loaded = {};
  function read(url) {
    if (!loaded[url]) {
      loaded[url] = fetch(url).then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.arrayBuffer();
      }).then(function (buffer) {
        var bytes = new Uint8Array(buffer);
        if (bytes[0] === 0x1f && bytes[1] === 0x8b) {  // gzip'd, unless a server already unpacked it
          return new Response(new Blob([buffer]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
        }
        return new TextDecoder().decode(bytes);
      }).then(JSON.parse);
      loaded[url].catch(function () { delete loaded[url]; });
    }
    return loaded[url];
  }
  function asked() {
    var hash = decodeURIComponent(window.location.hash.slice(1)).split("/");
    var query = new URLSearchParams(window.location.search);
    return { night: hash[0] || query.get("night") || "", view: hash[1] || query.get("view") || "" };
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }
  function link(element, href) {
    if (href) { element.setAttribute("href", href); element.removeAttribute("aria-disabled"); }
    else { element.removeAttribute("href"); element.setAttribute("aria-disabled", "true"); }
  }
  var shown = 0;
  function show() {
    var want = asked();
    var turn = ++shown;
    root.setAttribute("aria-busy", "true");
    read(index).then(function (list) {
      var nights = list.nights;
      var view = list.views.indexOf(want.view) >= 0 ? want.view : list.views[0];
      var at = nights.length - 1;
      if (want.night) {
        at = -1;
        for (var i = 0; i < nights.length && nights[i] <= want.night; i++) at = i;
      }
      var nearest = at < 0 || (want.night && nights[at] !== want.night);
      if (at < 0) at = 0;
      var night = nights[at];
      return read(base + view + "-" + night.slice(0, 7) + ".pvd").then(function (chunk) {
        if (turn !== shown) return;
        var pieces = (chunk.nights[night] || []).map(function (id) { return chunk.pieces[id]; });
        body.innerHTML = pieces.length ? pieces.join("") : '<p class="digest-empty"></p>';
        if (!pieces.length) body.firstChild.textContent = words.empty;
        var tab = root.querySelector('.digest-past__view[data-view="' + view + '"]');
        var text = fill(words.banner, { night: night, view: tab ? tab.textContent : view });
        if (nearest && want.night) text += " " + fill(words.nearest, { asked: want.night, night: night });
        banner.textContent = text;
        root.setAttribute("data-night", night);
        root.setAttribute("data-view", view);
        link(root.querySelector('[data-step="prev"]'), at > 0 ? "#" + nights[at - 1] + "/" + view : "");
        link(root.querySelector('[data-step="next"]'), at < nights.length - 1 ? "#" + nights[at + 1] + "/" + view : "");
        root.querySelectorAll(".digest-past__view").forEach(function (each) {
          each.setAttribute("href", "#" + night + "/" + each.getAttribute("data-view"));
          if (each === tab) each.setAttribute("aria-current", "page"); else each.removeAttribute("aria-current");
        });
        picker.elements.night.value = night;
        var rest = document.title.indexOf(" - ");  // the site's name after the page's
        document.title = fill(words.title, { night: night }) + (rest >= 0 ? document.title.slice(rest) : "");
      });
    }).catch(function () {
      if (turn === shown) banner.textContent = words.failed;
    }).then(function () {
      if (turn === shown) root.removeAttribute("aria-busy");
    });
  }
  var query = new URLSearchParams(window.location.search);
  if (query.get("night") && !window.location.hash && window.history.replaceState) {  // a permalink's address
    var view = query.get("view");
    window.history.replaceState(null, "", window.location.pathname + "#" + query.get("night") + (view ? "/" + view : ""));
  }
  picker.addEventListener("submit", function (event) {
    event.preventDefault();
    go(picker, picker.elements.night.value, root.getAttribute("data-view"));
  });
  window.addEventListener("hashchange", show);
  show();
})();
