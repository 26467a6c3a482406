// The site inside a notebook's output frame: shows one page at a time in #view, and
// turns every way the site moves between pages (a click on a link, a search, the
// i/u shortcuts) into showing the page from the bundle. Nothing is fetched.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("site-data").textContent);
  var view = document.getElementById("view");
  // This document as it came, before a page is shown: the new tab's copy of it.
  var original = "<!doctype html>\n" + document.documentElement.outerHTML;
  var current = null;  // the page shown, by its file name
  var arriving = null;  // {query, hash} for the page being loaded

  var EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

  function split(href) {
    var m = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(href);
    return { path: m[1] || current, query: m[2] || "", hash: m[3] || "" };
  }

  function script(text) {
    // Inside a <script> element "</" could end it; in JSON strings "<\/" reads the same.
    return "<script>" + text.replace(/<\//g, "<\\/") + "<\/script>";
  }

  function inline(html, hash, path) {
    // Each page names the static files; inside the frame there are no files to load.
    // A page's script may read the fragment it was opened at (the provenance page
    // selects that line), so the fragment is set before any of its scripts run.
    var fragment = hash
      ? "<script>history.replaceState(null, '', " + JSON.stringify(hash).replace(/</g, "\\u003c") + ")<\/script>"
      : "";
    var page = html
      .replace(/<head>/, function (head) { return head + fragment; })
      .replace(/<link rel="stylesheet" href="([^"]+)">/g, function (all, file) {
        return file in data.assets ? "<style>" + data.assets[file] + "</style>" : all;
      })
      .replace(/<script src="([^"]+)"><\/script>/g, function (all, file) {
        return file in data.assets ? script(data.assets[file]) : all;
      });
    // The page's data files, each one depyfPart(name, data) call, which hands the
    // data to whatever on the page waits for it: nothing is loaded from a file.
    var parts = (data.parts[path] || []).map(function (name) { return script(data.data[name]); });
    var end = page.lastIndexOf("</body>");
    return end < 0 ? page + parts.join("") : page.slice(0, end) + parts.join("") + page.slice(end);
  }

  function leftOut(path) {
    // Too big for the notebook: say where the page is (text only, nothing parsed).
    var doc = view.contentDocument;
    doc.body.textContent = "";
    var note = doc.createElement("p");
    note.style.cssText = "font: 14px system-ui, sans-serif; margin: 1rem";
    note.textContent = path + " is not in the notebook (the site is too big to carry " +
      "whole): open " + data.folder + "/" + path + " from disk.";
    doc.body.appendChild(note);
  }

  function download(path) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([data.pages[path]], { type: "text/x-python" }));
    link.download = path;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  function go(href) {
    var target = split(href);
    if (target.path === current && !target.query) { toFragment(target.hash); return; }
    if (!(target.path in data.pages)) { leftOut(target.path); return; }
    if (!/\.html$/.test(target.path)) { download(target.path); return; }
    current = target.path;
    arriving = target;
    view.srcdoc = inline(data.pages[target.path], target.hash, target.path);
  }

  function toFragment(hash) {
    var doc = view.contentDocument;
    var id = hash ? decodeURIComponent(hash.slice(1)) : "";
    var element = id && doc.getElementById(id);
    if (element) element.scrollIntoView();
    else if (!id) view.contentWindow.scrollTo(0, 0);
  }

  function onClick(event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || event.defaultPrevented) return;
    var href = link.getAttribute("href");
    if (EXTERNAL.test(href)) { link.target = "_blank"; link.rel = "noopener"; return; }
    event.preventDefault();
    if (href.charAt(0) === "#") toFragment(href);
    else go(href);
  }

  function onSubmit(event) {
    // The overview's search opens the chosen result; other pages ask the overview.
    var doc = view.contentDocument;
    var list = doc.getElementById("search-results");
    var chosen = list && (list.querySelector("li.active a") || list.querySelector("li a"));
    var input = doc.getElementById("search");
    event.preventDefault();
    event.stopImmediatePropagation();
    if (chosen) go(chosen.getAttribute("href"));
    else if (input && input.value.trim()) go(data.start + "?q=" + encodeURIComponent(input.value));
  }

  function onKey(event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    var link = view.contentDocument.querySelector('[data-shortcut="' + event.key + '"]');
    if (!link) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    go(link.getAttribute("href"));
  }

  view.addEventListener("load", function () {
    var doc = view.contentDocument;
    if (!doc || !arriving) return;
    doc.addEventListener("click", onClick, true);
    doc.addEventListener("submit", onSubmit, true);
    doc.addEventListener("keydown", onKey, true);
    var query = new URLSearchParams(arriving.query).get("q");
    var input = doc.getElementById("search");
    if (query && input) {
      input.value = query;
      input.dispatchEvent(new Event("input"));
    }
    toFragment(arriving.hash);
  });

  function openInNewTab(event) {
    // A copy of this document as a page of its own, at the page shown now.
    event.preventDefault();
    var blob = new Blob([original], { type: "text/html" });
    window.open(URL.createObjectURL(blob) + "#page=" + encodeURIComponent(current), "_blank");
  }

  document.getElementById("new-tab").addEventListener("click", openInNewTab);
  var asked = /^#page=(.+)$/.exec(window.location.hash);
  go(asked ? decodeURIComponent(asked[1]) : data.start);
})();
