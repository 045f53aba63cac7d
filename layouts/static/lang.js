// Sends a reader of the language chooser to the site language that best
// fits the browser's preferences. Without JavaScript the page's links do
// the same job.
(function () {
  "use strict";
  var list = document.querySelector("[data-langs]");
  if (!list || !navigator.languages) return;
  var site = list.getAttribute("data-langs").split(" ");
  var lower = site.map(function (t) { return t.toLowerCase(); });
  var prefs = navigator.languages.length ? navigator.languages : [navigator.language];
  for (var i = 0; i < prefs.length; i++) {
    var want = String(prefs[i]).toLowerCase();
    var exact = lower.indexOf(want);
    if (exact >= 0) return go(site[exact]);
    var base = want.split("-")[0];
    for (var j = 0; j < lower.length; j++) {
      if (lower[j].split("-")[0] === base) return go(site[j]);
    }
  }
  function go(tag) {
    var link = list.querySelector('a[hreflang="' + tag + '"]');
    if (link) location.replace(link.href);
  }
})();
