// Makes the search page answer as you type. The page works without it:
// the form submits to the server, which renders the same page with
// results. This script fetches that same server-rendered page and swaps
// in its results, so both paths show exactly the same thing.
(function () {
  "use strict";
  var form = document.querySelector(".search-form");
  var input = document.getElementById("q");
  var results = document.getElementById("search-results");
  if (!form || !input || !results || !window.fetch || !window.DOMParser) return;
  var timer = 0, seq = 0;

  function search() {
    var q = input.value.trim();
    var url = form.action + (q ? "?q=" + encodeURIComponent(q) : "");
    var mine = ++seq;
    fetch(url, { headers: { "Accept": "text/html" } }).then(function (res) {
      if (!res.ok) throw new Error("status " + res.status);
      return res.text();
    }).then(function (html) {
      if (mine !== seq) return; // a newer search is on its way
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("search-results");
      if (!fresh || doc.getElementById("static-notice")) return; // a static host: nothing to add
      results.replaceChildren.apply(results, Array.prototype.map.call(fresh.childNodes, function (n) {
        return document.importNode(n, true);
      }));
      history.replaceState(null, "", url);
    }).catch(function () { /* keep what is shown; the form still works */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });

  // Arrow keys move between the search box and the result links.
  function links() { return Array.prototype.slice.call(results.querySelectorAll(".result h2 a")); }
  form.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" && links().length) { e.preventDefault(); links()[0].focus(); }
  });
  results.addEventListener("keydown", function (e) {
    var all = links(), i = all.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === "ArrowDown" && i + 1 < all.length) { e.preventDefault(); all[i + 1].focus(); }
    if (e.key === "ArrowUp") { e.preventDefault(); (i > 0 ? all[i - 1] : input).focus(); }
    if (e.key === "Escape") { input.focus(); }
  });
})();
