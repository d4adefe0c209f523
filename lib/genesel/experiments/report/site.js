/* genesel course site: the search box of every page and the search page, offline.
   The index is a script, search-index.js (window.GENESEL_SEARCH = {pages, sections}), loaded by a <script> tag the
   first time the box is used, so it works from file:// where fetch() of a JSON file is refused.
   pages: [file, title, run label, is the default run]; sections: [page, anchor, heading, text]. */
(function () {
  "use strict";
  var MAX_PANEL = 8;
  var loading = null;

  function loadIndex(done) {
    if (window.GENESEL_SEARCH) { done(window.GENESEL_SEARCH); return; }
    if (!loading) {
      loading = [];
      var s = document.createElement("script");
      s.src = "search-index.js";
      var settle = function (value) {
        var callbacks = loading;
        loading = null;
        callbacks.forEach(function (cb) { cb(value); });
      };
      s.onload = function () { settle(window.GENESEL_SEARCH || null); };
      s.onerror = function () { settle(null); };
      document.head.appendChild(s);
    }
    loading.push(done);
  }

  function fold(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function escapeHtml(s) {
    return s.replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function count(hay, needle) {
    var n = 0, i = hay.indexOf(needle);
    while (i !== -1 && n < 50) { n++; i = hay.indexOf(needle, i + needle.length); }
    return n;
  }

  function prepare(index) {
    if (index._folded) return;
    index._folded = index.sections.map(function (s) { return [fold(s[2]), fold(s[3])]; });
  }

  /* Every section holding all the words of the query, best first: a word in the heading counts most, then how
     often the words occur; runs with other parameters rank after the default run of the same text. */
  function search(index, query) {
    var terms = fold(query).split(/\s+/).filter(function (t) { return t.length > 0; });
    if (!terms.length) return [];
    prepare(index);
    var phrase = terms.join(" ");
    var hits = [];
    index.sections.forEach(function (s, k) {
      var h = index._folded[k][0], t = index._folded[k][1], score = 0;
      for (var i = 0; i < terms.length; i++) {
        var inHead = h.indexOf(terms[i]) !== -1, n = count(t, terms[i]);
        if (!inHead && n === 0) return;
        score += (inHead ? 20 : 0) + Math.min(n, 20);
      }
      if (terms.length > 1 && (h + " " + t).indexOf(phrase) !== -1) score += 15;
      if (!index.pages[s[0]][3]) score *= 0.5;
      hits.push({score: score, k: k, s: s});
    });
    hits.sort(function (a, b) { return b.score - a.score || a.k - b.k; });
    return hits.map(function (hit) { return {section: hit.s, terms: terms}; });
  }

  function snippet(text, terms) {
    var re = new RegExp(terms.map(escapeRe).join("|"), "i");
    var m = re.exec(text), start = 0;
    if (m) start = Math.max(0, m.index - 70);
    var piece = text.slice(start, start + 220);
    if (start > 0) piece = "… " + piece.replace(/^\S*\s/, "");
    if (start + 220 < text.length) piece = piece.replace(/\s\S*$/, "") + " …";
    var marked = new RegExp("(" + terms.map(escapeRe).join("|") + ")", "gi");
    return escapeHtml(piece).replace(marked, "<mark>$1</mark>");
  }

  function resultItem(index, hit) {
    var s = hit.section, page = index.pages[s[0]];
    var href = page[0] + (s[1] ? "#" + s[1] : "");  // nbconvert's ids are already percent-encoded
    var where = page[1] + (page[3] ? "" : " — " + page[2]);
    return '<li><a href="' + escapeHtml(href) + '">' + escapeHtml(s[2] || page[1]) + "</a>" +
      '<span class="where">' + escapeHtml(where) + "</span>" +
      '<span class="snippet">' + snippet(s[3], hit.terms) + "</span></li>";
  }

  function renderPanel(input, panel) {
    var q = input.value.trim();
    if (!q) { panel.hidden = true; panel.innerHTML = ""; return; }
    loadIndex(function (index) {
      if (input.value.trim() !== q) return;  // the query changed while the index loaded
      if (!index) {
        panel.innerHTML = '<p class="empty">The search index (search-index.js) is missing.</p>';
        panel.hidden = false;
        return;
      }
      var hits = search(index, q);
      var html = hits.length ? '<ol class="search-results">' + hits.slice(0, MAX_PANEL).map(function (h) {
        return resultItem(index, h);
      }).join("") + "</ol>" : '<p class="empty">No section contains all of: ' + escapeHtml(q) + "</p>";
      if (hits.length > MAX_PANEL) {
        html += '<p class="more"><a href="search.html?q=' + encodeURIComponent(q) + '">All ' + hits.length +
          " results</a></p>";
      }
      panel.innerHTML = html;
      panel.hidden = false;
    });
  }

  function setupBox(form) {
    var input = form.querySelector("input[name=q]"), panel = form.querySelector(".search-panel");
    if (!input || !panel) return;
    var timer = null;
    input.addEventListener("focus", function () { loadIndex(function () {}); });
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { renderPanel(input, panel); }, 120);
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { panel.hidden = true; input.blur(); }
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) panel.hidden = true; });
  }

  function renderSearchPage() {
    var out = document.getElementById("search-page-results");
    if (!out) return;
    var q = new URLSearchParams(window.location.search).get("q") || "";
    var input = document.querySelector("form.site-search input[name=q]");
    if (input) input.value = q;
    if (!q.trim()) { out.innerHTML = "<p>Type a word or two in the search box.</p>"; return; }
    loadIndex(function (index) {
      if (!index) { out.innerHTML = "<p>The search index (search-index.js) is missing.</p>"; return; }
      var hits = search(index, q);
      out.innerHTML = "<p>" + hits.length + " section" + (hits.length === 1 ? "" : "s") + " contain" +
        (hits.length === 1 ? "s" : "") + " all of <strong>" + escapeHtml(q) + "</strong>.</p>" +
        (hits.length ? '<ol class="search-results">' +
          hits.map(function (h) { return resultItem(index, h); }).join("") + "</ol>" : "");
    });
  }

  /* A link into a folded solution opens it. */
  function openTarget() {
    var raw = window.location.hash.slice(1), el = raw && document.getElementById(raw);
    if (!el && raw) { try { el = document.getElementById(decodeURIComponent(raw)); } catch (e) { el = null; } }
    for (var p = el; p; p = p.parentElement) { if (p.tagName === "DETAILS") p.open = true; }
    if (el) el.scrollIntoView();
  }

  /* A figure shrunk to the page width shows at full resolution on a click (scroll sideways), and back. */
  function setupZoom() {
    Array.prototype.forEach.call(document.querySelectorAll(".jp-RenderedImage img"), function (img) {
      var check = function () {
        if (img.naturalWidth > img.getBoundingClientRect().width + 1 || img.classList.contains("zoomed")) {
          img.classList.add("zoomable");
          img.title = "Click to see this figure at full size; click again to fit it to the page";
        }
      };
      if (img.complete) check(); else img.addEventListener("load", check);
      img.addEventListener("click", function () {
        if (img.classList.contains("zoomable")) img.classList.toggle("zoomed");
      });
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("form.site-search"), setupBox);
    setupZoom();
    renderSearchPage();
    if (window.location.hash) openTarget();
    window.addEventListener("hashchange", openTarget);
  }

  window.GeneselSearch = {search: search, loadIndex: loadIndex};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
