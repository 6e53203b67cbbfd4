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
  var comparer = root.querySelector("form[data-past-compare]");
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
    return {
      night: hash[0] || query.get("night") || "",
      view: hash[1] || query.get("view") || "",
      other: hash[2] || query.get("other") || ""
    };
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }
  function link(element, href) {
    if (href) { element.setAttribute("href", href); element.removeAttribute("aria-disabled"); }
    else { element.removeAttribute("href"); element.setAttribute("aria-disabled", "true"); }
  }
  function nightOf(nights, wanted) {  // the last night on or before the date asked (the first if none)
    var at = nights.length - 1;
    if (wanted) {
      at = -1;
      for (var i = 0; i < nights.length && nights[i] <= wanted; i++) at = i;
    }
    return Math.max(at, 0);
  }
  function chunk(view, night) { return read(base + view + "-" + night.slice(0, 7) + ".pvd"); }
  function words_(tag, text) {  // fixed words, as text
    var element = document.createElement(tag);
    element.textContent = text;
    return element;
  }
  function one(data, night) {  // the pieces of one night's view, in the page's order
    body.textContent = "";
    var ids = data.nights[night] || [];
    if (!ids.length) body.appendChild(words_("p", words.empty)).className = "digest-empty";
    ids.forEach(function (id) { body.insertAdjacentHTML("beforeend", data.pieces[id]); });
  }
  function records(data, night) {  // record → piece id, in the page's order
    var found = new Map();
    (data.nights[night] || []).forEach(function (id) { if (data.records[id]) found.set(data.records[id], id); });
    return found;
  }
  function element(html) {  // a piece the renderer made, parsed and not shown, to read its attributes
    var holder = document.createElement("template");
    holder.innerHTML = html;
    return holder.content.firstElementChild;
  }
  function label(piece, selector) {  // a label the renderer wrote in a piece, as text
    var found = piece.querySelector(selector);
    return found ? found.textContent.replace(/^[\s·]+/, "").trim() : "";
  }
  function what(then, now) {  // what differs between two pieces of one record, kind by kind, as text
    var a = element(then), b = element(now), found = [];
    if (!a || !b) return words.other;
    if (a.hasAttribute("data-digest-entry")) {
      var moved = [a.getAttribute("data-section"), b.getAttribute("data-section")];
      if (moved[0] !== moved[1]) found.push(fill(words.moved, { from: moved[0], to: moved[1] }));
      if (b.getAttribute("data-retracted") === "true" && a.getAttribute("data-retracted") !== "true") found.push(words.retracted);
      if (a.getAttribute("data-level") !== b.getAttribute("data-level")) {
        var level = ".digest-entry__level .digest-visually-hidden";
        found.push(fill(words.level, {
          from: label(a, level) || a.getAttribute("data-level"),
          to: label(b, level) || b.getAttribute("data-level")
        }));
      }
    } else if (a.hasAttribute("data-digest-contradiction")) {
      var was = label(a, ".digest-disposition").split("·"), is = label(b, ".digest-disposition").split("·");
      var from = [], to = [];  // its name, disposition, status: only the parts that differ
      for (var i = 0; i < Math.max(was.length, is.length); i++) {
        if ((was[i] || "").trim() !== (is[i] || "").trim()) { from.push((was[i] || "").trim()); to.push((is[i] || "").trim()); }
      }
      if (from.length) found.push(fill(words.status, { from: from.join(" · "), to: to.join(" · ") }));
    }
    return found.length ? found.join(words.sep) : words.other;
  }
  function between(nights, from, to) {  // each night after ``from`` up to ``to``, to its changes (a month each when many)
    var these = nights.filter(function (n) { return n > from && n <= to; });
    if (!these.length) return;
    var many = these.length > 31;
    var months = [];
    these.forEach(function (n) { if (months.indexOf(n.slice(0, 7)) < 0) months.push(n.slice(0, 7)); });
    var nav = body.appendChild(document.createElement("nav"));
    nav.className = "digest-past__nights";
    nav.setAttribute("aria-label", fill(many ? words.months : words.nights, { from: from, to: to, count: these.length }));
    nav.appendChild(words_("p", nav.getAttribute("aria-label")));
    var list = nav.appendChild(document.createElement("ul"));
    (many ? months : these).forEach(function (n) {
      var a = list.appendChild(document.createElement("li")).appendChild(words_("a", n));
      var template = root.getAttribute(many ? "data-changes-month" : "data-changes-night");
      a.setAttribute("href", fill(template, { month: n.slice(0, 7), night: n }));
    });
  }
  function compare(before, from, after, to, nights) {  // what the later night's view differs by, record by record
    var then = records(before, from), now = records(after, to);
    var added = [], gone = [], changed = [];
    now.forEach(function (id, record) {
      if (!then.has(record)) added.push(after.pieces[id]);
      else if (then.get(record) !== id) changed.push([before.pieces[then.get(record)], after.pieces[id]]);
    });
    then.forEach(function (id, record) { if (!now.has(record)) gone.push(before.pieces[id]); });
    body.textContent = "";
    var values = { from: from, to: to };
    function group(template, count) {
      var heading = body.appendChild(words_("h3", fill(template, Object.assign({ count: count }, values))));
      heading.className = "digest-past__group";
    }
    if (added.length) { group(words.added, added.length); added.forEach(function (h) { body.insertAdjacentHTML("beforeend", h); }); }
    if (gone.length) { group(words.gone, gone.length); gone.forEach(function (h) { body.insertAdjacentHTML("beforeend", h); }); }
    if (changed.length) {
      group(words.changed, changed.length);
      changed.forEach(function (pair) {
        var both = body.appendChild(document.createElement("div"));
        both.className = "digest-past__pair";
        both.appendChild(words_("p", what(pair[0], pair[1]))).className = "digest-past__what";
        both.appendChild(words_("p", fill(words.then, { night: from }))).className = "digest-past__then";
        both.insertAdjacentHTML("beforeend", pair[0]);
        both.appendChild(words_("p", fill(words.then, { night: to }))).className = "digest-past__then";
        both.insertAdjacentHTML("beforeend", pair[1]);
      });
    }
    if (!added.length && !gone.length && !changed.length) body.appendChild(words_("p", words.same)).className = "digest-empty";
    between(nights, from, to);
  }
  var shown = 0;
  function show() {
    var want = asked();
    var turn = ++shown;
    root.setAttribute("aria-busy", "true");
    read(index).then(function (list) {
      var nights = list.nights;
      var view = list.views.indexOf(want.view) >= 0 ? want.view : list.views[0];
      var at = nightOf(nights, want.night);
      var night = nights[at];
      var other = want.other ? nights[nightOf(nights, want.other)] : "";
      var from = other && other < night ? other : night, to = other && other > night ? other : night;
      return Promise.all([chunk(view, from), chunk(view, to)]).then(function (data) {
        if (turn !== shown) return;
        var tab = root.querySelector('.digest-past__view[data-view="' + view + '"]');
        var name = tab ? tab.textContent : view;
        var text;
        if (other && from !== to) {
          compare(data[0], from, data[1], to, nights);
          text = fill(words.compared, { from: from, to: to, view: name });
        } else {
          one(data[0], night);
          text = fill(words.banner, { night: night, view: name });
          if (want.night && nights[at] !== want.night) text += " " + fill(words.nearest, { asked: want.night, night: night });
        }
        banner.textContent = text;
        root.setAttribute("data-night", night);
        root.setAttribute("data-view", view);
        if (other) root.setAttribute("data-other", other); else root.removeAttribute("data-other");
        var rest = other ? "/" + view + "/" + other : "/" + view;
        link(root.querySelector('[data-step="prev"]'), at > 0 ? "#" + nights[at - 1] + rest : "");
        link(root.querySelector('[data-step="next"]'), at < nights.length - 1 ? "#" + nights[at + 1] + rest : "");
        var alone = root.querySelector('[data-step="alone"]');
        alone.hidden = !other;
        alone.setAttribute("href", "#" + night + "/" + view);
        root.querySelectorAll(".digest-past__view").forEach(function (each) {
          each.setAttribute("href", "#" + night + "/" + each.getAttribute("data-view") + (other ? "/" + other : ""));
          if (each === tab) each.setAttribute("aria-current", "page"); else each.removeAttribute("aria-current");
        });
        picker.elements.night.value = night;
        if (other) comparer.elements.other.value = other;
        var site = document.title.indexOf(" - ");  // the site's name after the page's
        document.title = fill(words.title, { night: night }) + (site >= 0 ? document.title.slice(site) : "");
      });
    }).catch(function () {
      if (turn === shown) banner.textContent = words.failed;
    }).then(function () {
      if (turn === shown) root.removeAttribute("aria-busy");
    });
  }
  var query = new URLSearchParams(window.location.search);
  if (query.get("night") && !window.location.hash && window.history.replaceState) {  // a permalink's address
    var parts = [query.get("night"), query.get("view"), query.get("other")].filter(Boolean);
    window.history.replaceState(null, "", window.location.pathname + "#" + parts.join("/"));
  }
  picker.addEventListener("submit", function (event) {
    event.preventDefault();
    var other = root.getAttribute("data-other");
    go(picker, picker.elements.night.value, root.getAttribute("data-view") + (other ? "/" + other : ""));
  });
  comparer.addEventListener("submit", function (event) {
    event.preventDefault();
    go(comparer, root.getAttribute("data-night"), root.getAttribute("data-view") + "/" + comparer.elements.other.value);
  });
  window.addEventListener("hashchange", show);
  show();
})();
