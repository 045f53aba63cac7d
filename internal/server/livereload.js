// Live reload for `gen serve` while authoring. The server adds this script
// to the pages it serves from an in-memory build; it is never part of a
// build's output. It follows /_gen/events: "reload" reloads the page and
// keeps its scroll position, "css" swaps the stylesheets in place, "errors"
// shows the build's errors over the last good page.
(function () {
  'use strict';

  var scrollKey = 'gen:scroll:' + location.pathname + location.search;

  function restoreScroll() {
    var saved = null;
    try {
      saved = sessionStorage.getItem(scrollKey);
      sessionStorage.removeItem(scrollKey);
    } catch (e) {
      return;
    }
    if (saved === null) return;
    var y = parseFloat(saved);
    if (!isFinite(y)) return;
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    window.scrollTo(0, y);
    // Images and fonts can still move things: once more when all is loaded.
    if (document.readyState !== 'complete') {
      window.addEventListener('load', function () { window.scrollTo(0, y); }, { once: true });
    }
  }

  function reload() {
    try {
      sessionStorage.setItem(scrollKey, String(window.scrollY));
    } catch (e) { /* private mode: reload without it */ }
    location.reload();
  }

  function swapStylesheets(version) {
    var links = document.querySelectorAll('link[rel~="stylesheet"][href]');
    Array.prototype.forEach.call(links, function (link) {
      var url = new URL(link.getAttribute('href'), location.href);
      if (url.origin !== location.origin || url.pathname.indexOf('/_gen/') === 0) return;
      url.searchParams.set('v', version);
      // Load the new sheet beside the old one, then drop the old: no flash.
      var next = link.cloneNode(false);
      next.href = url.pathname + url.search + url.hash;
      next.addEventListener('load', function () { link.remove(); }, { once: true });
      next.addEventListener('error', function () { next.remove(); }, { once: true });
      link.after(next);
    });
  }

  // report is {count, errors, more}: how many errors the build has, the
  // first of them, and a line for the rest.
  function showErrors(report) {
    var old = document.getElementById('gen-errors');
    if (old) old.remove();
    var list = (report && report.errors) || [];
    var count = (report && report.count) || list.length;
    if (!count) return;
    var box = document.createElement('div');
    box.id = 'gen-errors';
    box.setAttribute('role', 'alert');
    var close = document.createElement('button');
    close.type = 'button';
    close.className = 'gen-errors-close';
    close.setAttribute('aria-label', 'Dismiss');
    close.textContent = '\u00d7';
    var title = document.createElement('p');
    title.className = 'gen-errors-title';
    title.textContent = 'Build failed with ' + count + ' error' + (count === 1 ? '' : 's') +
      '; showing the last good build.';
    var ul = document.createElement('ul');
    list.forEach(function (err) {
      // err is {file, line, col, message}, the build's error as a value.
      var li = document.createElement('li');
      var at = err.file ? err.file + (err.line ? ':' + err.line + (err.col ? ':' + err.col : '') : '') : '';
      if (at) {
        var span = document.createElement('span');
        span.className = 'gen-errors-at';
        span.textContent = at;
        li.appendChild(span);
        li.appendChild(document.createTextNode(': ' + err.message));
      } else {
        li.textContent = err.message;
      }
      ul.appendChild(li);
    });
    if (report.more) {
      var more = document.createElement('li');
      more.className = 'gen-errors-more';
      more.textContent = report.more;
      ul.appendChild(more);
    }
    box.appendChild(close);
    box.appendChild(title);
    box.appendChild(ul);
    document.body.insertBefore(box, document.body.firstChild);
  }

  document.addEventListener('click', function (e) {
    var t = e.target;
    if (t && t.closest && t.closest('.gen-errors-close')) {
      var box = document.getElementById('gen-errors');
      if (box) box.remove();
    }
  });

  restoreScroll();

  var meta = document.querySelector('meta[name="gen-version"]');
  var version = meta ? meta.getAttribute('content') : '';
  var url = '/_gen/events' + (version ? '?v=' + encodeURIComponent(version) : '');

  function connect() {
    var es = new EventSource(url);
    es.addEventListener('reload', reload);
    es.addEventListener('css', function (e) { swapStylesheets(e.data); });
    es.addEventListener('errors', function (e) {
      try {
        showErrors(JSON.parse(e.data));
      } catch (err) {
        showErrors({ count: 1, errors: [{ message: String(e.data) }] });
      }
    });
    es.addEventListener('error', function () {
      // EventSource retries by itself; it gives up only on a bad answer
      // (a server that is not gen serve yet). Try again later then.
      if (es.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    });
  }
  connect();
})();
