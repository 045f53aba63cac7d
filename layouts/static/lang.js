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
  var scripts = site.map(script);
  for (var i = 0; i < prefs.length; i++) {
    var want = String(prefs[i]).toLowerCase();
    var exact = lower.indexOf(want);
    if (exact >= 0) return go(site[exact]);
    // The same script before the same language: Hong Kong's readers
    // (zh-HK, zh-Hant) to zh-TW, not to the first Chinese, zh-CN.
    var written = script(want);
    var same = written ? scripts.indexOf(written) : -1;
    if (same >= 0) return go(site[same]);
    var base = want.split("-")[0];
    for (var j = 0; j < lower.length; j++) {
      if (lower[j].split("-")[0] === base) return go(site[j]);
    }
  }
  // script is a tag's language and script as CLDR's likely subtags fill
  // them in (zh-HK: zh-Hant, zh: zh-Hans), "" where the browser cannot.
  function script(tag) {
    try {
      var l = new Intl.Locale(tag).maximize();
      return l.script ? l.language + "-" + l.script : "";
    } catch (e) {
      return "";
    }
  }
  function go(tag) {
    var link = list.querySelector('a[hreflang="' + tag + '"]');
    if (link) location.replace(link.href);
  }
})();
