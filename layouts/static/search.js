// Makes the search page answer as you type, and its choices (a facet's
// value, a chip, an order, a result page) in place. The page works
// without it: the forms submit to the server, which renders the same
// page with results. This script fetches that same server-rendered page
// and swaps in its results, so both paths show exactly the same thing.
//
// What is shown stays until the next answer arrives (no empty flash in
// between); nothing is searched while an input method is composing (the
// ㄗ of ㄗˋ is not a word yet), only at compositionend; and the address
// bar follows settled input only: after a pause, or on submit, never a
// half-typed syllable.
(function () {
  "use strict";
  var form = document.querySelector(".search-form");
  var input = document.getElementById("q");
  var results = document.getElementById("search-results");
  if (!form || !input || !results) return;
  // A page no server rendered (a static host): every answer to fetch
  // would be this same page, so nothing is fetched. The words the reader
  // sent (from this form or the header's) are only in the address: put
  // them back in the form, above the notice that says search needs the
  // server, so what was typed is not lost.
  if (document.getElementById("static-notice")) {
    if (!window.URLSearchParams) return;
    var sent = new URLSearchParams(location.search);
    ["q", "from", "to"].forEach(function (name) {
      var field = form.elements[name], v = sent.get(name);
      if (field && v && !field.value) field.value = v;
    });
    return;
  }
  if (!window.fetch || !window.DOMParser) return;
  var TYPING_PAUSE = 150, SETTLED_PAUSE = 1000;
  var timer = 0, settleTimer = 0, seq = 0, composing = false, shown = "";

  // url is the search page for what the form holds now: the words and
  // the active filters (hidden inputs), without empty values.
  function url() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (v, k) {
      v = String(v).trim();
      if (v) params.append(k, v);
    });
    var qs = params.toString();
    return form.action + (qs ? "?" + qs : "");
  }

  // The filters are a disclosure a phone opens. A swap keeps it as the
  // reader left it; a wide screen whose browser cannot show it open by
  // style (::details-content) gets it opened here.
  function openFilters(wasOpen) {
    var panel = results.querySelector(".filter-panel");
    if (!panel) return;
    var styled = window.CSS && CSS.supports && CSS.supports("selector(::details-content)");
    if (wasOpen || (!styled && window.matchMedia("(min-width: 40.01rem)").matches)) panel.open = true;
  }
  openFilters(false);

  function settle() {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(function () {
      if (!composing && shown && shown !== location.href) history.replaceState(null, "", shown);
    }, SETTLED_PAUSE);
  }

  // The search form holds the filters and order of the results shown,
  // as hidden fields, for the next words typed; back or forward in
  // history, it holds that page's words and dates too.
  function syncForm(doc, all) {
    var other = doc.querySelector(".search-form");
    if (!other) return;
    Array.prototype.forEach.call(form.querySelectorAll('input[type="hidden"]'), function (el) { el.remove(); });
    Array.prototype.forEach.call(other.querySelectorAll('input[type="hidden"]'), function (el) {
      form.appendChild(document.importNode(el, true));
    });
    if (all) {
      ["q", "from", "to"].forEach(function (name) {
        if (form.elements[name] && other.elements[name]) form.elements[name].value = other.elements[name].value;
      });
    }
  }

  function search() {
    if (composing) return;
    load(url(), {});
  }

  // load fetches the page at target and swaps in its results. how.push:
  // a choice, a step in history; how.restore: a step back or forward,
  // whose form is put back too; how.focus, run once they are shown.
  function load(target, how) {
    var mine = ++seq;
    results.setAttribute("aria-busy", "true");
    fetch(target, { headers: { "Accept": "text/html" } }).then(function (res) {
      // A query the server cannot search (400) still has a page to show.
      if (!res.ok && res.status !== 400) throw new Error("status " + res.status);
      return res.text();
    }).then(function (html) {
      if (mine !== seq) return; // a newer search is on its way
      results.removeAttribute("aria-busy");
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("search-results");
      if (!fresh || doc.getElementById("static-notice")) return; // a static host: nothing to add
      var wasOpen = !!results.querySelector(".filter-panel[open]");
      results.replaceChildren.apply(results, Array.prototype.map.call(fresh.childNodes, function (n) {
        return document.importNode(n, true);
      }));
      openFilters(wasOpen);
      shown = new URL(target, location.href).href;
      if (how.push || how.restore) syncForm(doc, how.restore);
      if (how.push && shown !== location.href) history.pushState(null, "", shown);
      if (!how.push && !how.restore) settle();
      if (how.focus) how.focus();
    }).catch(function () {
      // Keep what is shown; the form still works.
      if (mine === seq) results.removeAttribute("aria-busy");
    });
  }

  function later() {
    clearTimeout(timer);
    clearTimeout(settleTimer);
    timer = setTimeout(search, TYPING_PAUSE);
  }

  input.addEventListener("compositionstart", function () {
    composing = true;
    clearTimeout(timer);
    clearTimeout(settleTimer);
  });
  input.addEventListener("compositionend", function () {
    composing = false;
    later();
  });
  // The dates search once a field holds a whole one (or is emptied).
  form.addEventListener("change", function (e) {
    if (e.target !== input && e.target.name && e.target.checkValidity()) later();
  });
  input.addEventListener("input", function (e) {
    if (composing || e.isComposing) return;
    later();
  });

  // A choice is a button of one of the small forms that hold the
  // request (.search-forms): what it would submit is fetched instead, and
  // the address follows at once, a step Back returns from.
  results.addEventListener("submit", function (e) {
    var f = e.target, b = e.submitter || document.activeElement;
    if (!f.parentNode || !f.parentNode.classList.contains("search-forms")) return;
    e.preventDefault();
    var params = new URLSearchParams();
    new FormData(f).forEach(function (v, k) { params.append(k, v); });
    if (b && b.form === f && b.name) params.append(b.name, b.value);
    var qs = params.toString();
    clearTimeout(timer);
    clearTimeout(settleTimer);
    load(f.action + (qs ? "?" + qs : ""), { push: true, focus: refocus(b) });
  });
  window.addEventListener("popstate", function () {
    clearTimeout(timer);
    clearTimeout(settleTimer);
    load(location.href, { restore: true });
  });

  // refocus is what to focus once a choice is answered: a facet's value
  // where it is now (chosen, or not), or its facet's disclosure for
  // "List all"; else the count of results the choice changed, or what
  // is said in its place.
  function refocus(b) {
    var section = b && b.closest && b.closest(".facets section[data-facet]");
    var facet = section && section.getAttribute("data-facet"), value = b && b.value, all = b && b.name === "all";
    return function () {
      var el = null;
      var s = facet && results.querySelector('.facets section[data-facet="' + facet + '"]');
      if (s && all) el = s.querySelector(".facet-more > summary");
      if (s && !all) {
        el = Array.prototype.find.call(s.querySelectorAll("button"), function (c) { return c.value === value; });
      }
      if (!el || !el.checkVisibility || !el.checkVisibility()) {
        el = document.getElementById("result-count") || results.querySelector("#no-results, #keep-typing, #search-error");
        if (el) el.tabIndex = -1;
      }
      if (el) el.focus();
    };
  }

  // Arrow keys move between the search box and the result links.
  function links() { return Array.prototype.slice.call(results.querySelectorAll(".result h2 a")); }
  form.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" && !composing && !e.isComposing && links().length) { e.preventDefault(); links()[0].focus(); }
  });
  results.addEventListener("keydown", function (e) {
    var all = links(), i = all.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === "ArrowDown" && i + 1 < all.length) { e.preventDefault(); all[i + 1].focus(); }
    if (e.key === "ArrowUp") { e.preventDefault(); (i > 0 ? all[i - 1] : input).focus(); }
    if (e.key === "Escape") { input.focus(); }
  });
})();
