/* digest: the site's search, driven by Pagefind's index (pagefind/, made from the built site), in
   Material's search box.  The box is added by this script because search needs a script anyway:
   without one there is no box that would do nothing.  Words come from DIGEST_SEARCH (written above
   this file by the build, from labels.py).  Results are built as text (textContent and elements made
   here): no HTML of a record is parsed and no entity decoded, so a result shows what the page shows. */
(function () {
  "use strict";
  var words = window.DIGEST_SEARCH || {};
  var script = document.currentScript;
  var header = document.querySelector(".md-header__inner");
  var toggle = document.getElementById("__search");
  if (!script || !header || !toggle || document.querySelector(".md-search")) return;
  var root = new URL("../../", script.src);  /* assets/digest/search.js → the site's root */
  var ICONS = {
    magnify: "M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5Z",
    back: "M20 11v2H8l5.5 5.5-1.42 1.42L4.16 12l7.92-7.92L13.5 5.5 8 11h12Z",
    close: "M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12 19 6.41Z"
  };
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function icon(name) {
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", ICONS[name]);
    svg.appendChild(path);
    return svg;
  }
  var button = el("label", { "class": "md-header__button md-icon digest-search__open", "for": "__search", "title": words.open || "" }, [icon("magnify")]);
  var input = el("input", {
    "type": "text", "class": "md-search__input", "name": "query", "aria-label": words.placeholder || "",
    "placeholder": words.placeholder || "", "autocapitalize": "off", "autocomplete": "off",
    "spellcheck": "false", "required": ""
  });
  var meta = el("div", { "class": "md-search-result__meta", "aria-live": "polite" }, [words.initial || ""]);
  var list = el("ol", { "class": "md-search-result__list", "role": "presentation" });
  var form = el("form", { "class": "md-search__form", "name": "search" }, [
    input,
    el("label", { "class": "md-search__icon md-icon", "for": "__search" }, [icon("magnify"), icon("back")]),
    el("nav", { "class": "md-search__options", "aria-label": words.open || "" }, [
      el("button", { "type": "reset", "class": "md-search__icon md-icon", "title": words.reset || "", "aria-label": words.reset || "", "tabindex": "-1" }, [icon("close")])
    ])
  ]);
  var dialog = el("div", { "class": "md-search digest-search", "role": "dialog", "aria-label": words.open || "" }, [
    el("label", { "class": "md-search__overlay", "for": "__search" }),
    el("div", { "class": "md-search__inner", "role": "search" }, [
      form,
      el("div", { "class": "md-search__output" }, [
        el("div", { "class": "md-search__scrollwrap", "tabindex": "0" }, [
          /* a preview's note: its index is made in the background and may miss the latest edits */
          el("div", { "class": "md-search-result" }, words.note ? [meta, el("p", { "class": "digest-search__note" }, [words.note]), list] : [meta, list])
        ])
      ])
    ])
  ]);
  var before = header.querySelector(".md-header__source");
  header.insertBefore(button, before);
  header.insertBefore(dialog, before);
  /* Material's CSS lays the box out (its search form is position: relative).  A theme without it
     (Zensical's) gets the box's own layout from digest.css, opened by a class this script keeps in
     step with the toggle, since that CSS cannot reach the toggle from the header. */
  var standalone = window.getComputedStyle(form).position !== "relative";
  function sync() { dialog.classList.toggle("digest-search--open", toggle.checked); }
  if (standalone) {
    dialog.classList.add("digest-search--standalone");
    button.classList.add("digest-search__open--shown");  /* the theme may hide a header button it does not know */
  }

  var pagefind = null;
  function load() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind/pagefind.js", root).href).then(function (module) {
        /* noWorker: Pagefind 1.5 would fetch a 41 KB worker script before the first search, a
           seventh of a reader's first search (issue 30); a query on this site's index takes a few
           milliseconds of the page's own thread. */
        return module.options({ baseUrl: root.pathname, noWorker: true }).then(function () { return module; });
      });
      pagefind.catch(function () { meta.textContent = words.error || ""; pagefind = null; });
    }
    return pagefind;
  }
  var ZWS = "\u200b";
  var WINDOW = 30;  /* words in an excerpt, as Pagefind's own */
  var LEAD = 5;     /* words shown before the first one found */
  function pageWords(page) {
    /* The page's words as its text has them, numbered as Pagefind numbers them (its locations).
       Pagefind's raw_content is the text with only < and > escaped, so its excerpts cannot tell a
       written "&lt;" or "&#43;" from markup: they are not used.  raw_content still has the
       zero-width spaces Pagefind cut the words at, content the characters as written; walking both
       gives the written words, cut where Pagefind cut them. */
    if (page.digestWords) return page.digestWords;
    var raw = page.raw_content || "", content = page.content || "", text = "", j = 0;
    for (var i = 0; i < raw.length;) {
      if (raw[i] === ZWS && content[j] !== ZWS) { text += ZWS; i += 1; continue; }
      var escaped = raw.substr(i, 4);
      if ((escaped === "&lt;" && content[j] === "<") || (escaped === "&gt;" && content[j] === ">")) {
        text += content[j]; i += 4; j += 1; continue;
      }
      text += raw[i]; i += 1; j += 1;
    }
    page.digestWords = text.indexOf(ZWS) >= 0 ? text.split(ZWS) : text.split(/[\r\n\s]+/g);
    page.digestJoiner = text.indexOf(ZWS) >= 0 ? "" : " ";
    return page.digestWords;
  }
  function excerpt(page, sub) {
    /* A window of the page's words around the first one found, inside the result's own part of the
       page (from its heading to the next), with <mark> around the words found: built as text and
       elements, nothing of the page read as HTML, so a result shows what the page shows. */
    var all = pageWords(page), found = {};
    var locations = ((sub ? sub.locations : page.locations) || []).slice().sort(function (a, b) { return a - b; });
    locations.forEach(function (at) { found[at] = true; });
    var from = sub && sub.anchor ? sub.anchor.location : 0, to = all.length;
    (page.anchors || []).forEach(function (a) {
      if (/^h\d$/i.test(a.element || "") && a.location > from && a.location < to) to = a.location;
    });
    var first = locations.length ? locations[0] : from;
    var start = Math.max(from, Math.min(first - LEAD, to - WINDOW));
    var p = el("p"), run = "";
    for (var at = start; at < Math.min(to, start + WINDOW); at++) {
      var word = all[at], joiner = at > start ? page.digestJoiner : "";
      if (found[at]) {
        if (run || joiner) p.appendChild(document.createTextNode(run + joiner));
        run = "";
        p.appendChild(el("mark", {}, [word]));
      } else {
        run += joiner + word;
      }
    }
    if (run) p.appendChild(document.createTextNode(run));
    return p;
  }
  function item(page, sub) {
    var target = sub || page;
    var title = sub && sub.title ? sub.title : page.meta.title || page.url;
    var article = el("article", { "class": "md-search-result__article md-typeset" }, [el("h1", {}, [title])]);
    if (sub && page.meta.title && sub.title !== page.meta.title) {
      article.appendChild(el("p", { "class": "digest-search__page" }, [page.meta.title]));
    }
    article.appendChild(excerpt(page, sub));
    return el("li", { "class": "md-search-result__item" }, [
      el("a", { "href": target.url, "class": "md-search-result__link", "tabindex": "-1" }, [article])
    ]);
  }
  function best(page) {
    /* The sub-results (headings with an id: entries, items, callouts) where the words are most
       often: a result leads to the entry, not to the top of a long page. */
    var subs = (page.sub_results || []).filter(function (s) {
      return s.url.indexOf("#") >= 0 && !(s.anchor && s.anchor.element === "h1");
    });
    subs.sort(function (a, b) { return (b.locations || []).length - (a.locations || []).length; });
    return subs.slice(0, 3);
  }
  var HYPHENATED = /(^|\s)([A-Za-z0-9]+(?:-[A-Za-z0-9]+)+)(?=\s|$)/g;
  function joined(query) {
    /* A name joined by hyphens (llm-d, SGLang-TorchTPU) is asked for as one word, its parts run
       together: Pagefind indexes a hyphenated word that way too, while the query's segmenter would
       cut it at the hyphen and fetch the index of every part ("d" alone is in half the site). */
    return query.replace(HYPHENATED, function (all, space, name) { return space + name.replace(/-/g, ""); });
  }
  function worth(query) {
    /* One Latin letter or digit finds nearly every page and fetches a large part of the index: the
       box waits for a second one (a Chinese character alone is a word). */
    return query.trim().length > 1 || /[^\x00-\x7f]/.test(query);
  }
  var CJK = /[\u3400-\u9fff]{2,}/g;
  var HAS_CJK = /[\u3400-\u9fff]{2,}/;  /* not global: test() keeps no state between queries */
  var WIDEN_BELOW = 10;
  var DEBOUNCE_MS = 300;  /* as Pagefind's own box: a word typed at a reader's pace is asked for once.
     The box waits itself rather than through Pagefind's debouncedSearch, which fetches the index
     of every prefix typed meanwhile ("16" of 1605.08803: one of the index's largest parts). */
  var SHOWN = 6;
  function flat(text) { return (text || "").replace(/[\s\u200b]+/g, ""); }
  function occurrences(text, wanted) { return wanted ? flat(text).split(wanted).length - 1 : 0; }
  function gather(module, query) {
    /* The pages for a query (their data), best first.  Pagefind cuts a page's Chinese with jieba-rs
       when it indexes and the query with the browser's Intl.Segmenter; where they cut differently
       (证据缓存复用 indexed as one word) an exact word of another page hides the page.  So a Chinese
       query is asked again with the last character of each run left off (the index then matches
       words by prefix); the pages of that wider search whose text holds the query as typed join
       the exact ones, and all are ordered by how often they hold it. */
    return module.search(joined(query)).then(function (found) {
      if (!found) return null;
      /* A page's record holds the page's whole text: a reader fetches one per result shown, so
         few are shown (a long archive page's record is large; issue 16's lighter pages). */
      return Promise.all(found.results.slice(0, SHOWN).map(function (r) { return r.data(); })).then(function (pages) {
        /* Widened only when the exact search finds few pages: at scale a common word has plenty,
           and each extra page costs the reader one more record to fetch. */
        if (!HAS_CJK.test(query) || found.results.length >= WIDEN_BELOW) return { pages: pages, total: found.results.length };
        var wanted = flat(query);
        var known = {};
        found.results.forEach(function (r) { known[r.id] = true; });
        var wider = query.replace(CJK, function (run) { return run.slice(0, -1); });
        return module.search(wider).then(function (more) {
          var extra = more.results.filter(function (r) { return !known[r.id]; }).slice(0, WIDEN_BELOW);
          return Promise.all(extra.map(function (r) { return r.data(); })).then(function (others) {
            var kept = others.filter(function (page) { return occurrences(page.content, wanted) > 0; });
            var all = pages.concat(kept);
            all.sort(function (a, b) { return occurrences(b.content, wanted) - occurrences(a.content, wanted); });
            return { pages: all.slice(0, SHOWN), total: found.results.length + kept.length };
          });
        });
      });
    });
  }
  var latest = 0;
  var pause = null;
  function search(query) {
    var ticket = ++latest;
    window.clearTimeout(pause);
    if (!worth(query)) {
      list.textContent = "";
      meta.textContent = words.initial || "";
      return;
    }
    meta.textContent = words.searching || "";
    pause = window.setTimeout(function () { run(query, ticket); }, DEBOUNCE_MS);
  }
  function run(query, ticket) {
    if (ticket !== latest) return;
    load().then(function (module) { return gather(module, query); }).then(function (found) {
      if (ticket !== latest || !found) return;
      list.textContent = "";
      found.pages.forEach(function (page) {
        var subs = best(page);
        if (subs.length) subs.forEach(function (sub) { list.appendChild(item(page, sub)); });
        else list.appendChild(item(page, null));
      });
      var n = found.total;
      meta.textContent = n === 0 ? words.none : n === 1 ? words.one : (words.other || "").replace("{count}", String(n));
    });
  }
  input.addEventListener("input", function () { search(input.value); });
  input.addEventListener("focus", function () {
    toggle.checked = true;  /* Material's CSS opens the box (and its results) on this toggle */
    sync();
    load();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) window.location.href = first.href;
  });
  form.addEventListener("reset", function () { window.setTimeout(function () { search(""); input.focus(); }, 0); });
  toggle.addEventListener("change", function () {
    sync();
    if (toggle.checked) window.setTimeout(function () { input.focus(); }, 0);
  });
  list.addEventListener("click", function () { toggle.checked = false; sync(); });
  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test((event.target || {}).tagName || "");
    if (event.key === "Escape" && toggle.checked) {
      toggle.checked = false;
      sync();
      input.blur();
    } else if (!typing && (event.key === "/" || event.key === "s" || event.key === "f") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      toggle.checked = true;
      sync();
      input.focus();
    }
  });
})();
