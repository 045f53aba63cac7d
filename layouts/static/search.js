// Makes the search page answer as you type. The page works without it:
// the form submits to the server, which renders the same page with
// results. This script fetches that same server-rendered page and swaps
// in its results, so both paths show exactly the same thing.
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

  function search() {
    if (composing) return;
    var target = url(), mine = ++seq;
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
      settle();
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
