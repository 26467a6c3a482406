// depyf-report provenance view: select a line, see where it came from and what it became.
// The mapping is this page's own data file, read through site.js once the page
// has loaded (a large model's mapping is megabytes); nothing is fetched.
(function () {
  "use strict";

  function start(data) {
  var down = {}, up = {}, spansOf = {}, members = {};
  // Each line's list of the lines it became (build_provenance.mapping_json).
  for (var p = 0; p < data.down.length; p += 2) {
    var from = data.down[p], became = data.targets[data.down[p + 1]];
    down[from] = became;
    for (var q = 0; q < became.length; q++) (up[became[q]] = up[became[q]] || []).push(from);
  }
  // A kernel call is one spot with many lines; a line may belong to several calls.
  Object.keys(data.spans).forEach(function (spot) {
    members[spot] = data.spans[spot];
    data.spans[spot].forEach(function (line) { (spansOf[line] = spansOf[line] || []).push(+spot); });
  });
  var index = {};
  data.ids.forEach(function (id, i) { index[id] = i; });
  var panes = Array.prototype.slice.call(document.querySelectorAll("[data-pane]"));
  var lines = Array.prototype.slice.call(document.querySelectorAll("[data-pane] .line"));
  lines.forEach(function (line) { line.tabIndex = -1; });
  panes.forEach(function (pane) {
    var first = pane.querySelector(".line");
    if (first) first.tabIndex = 0;
  });

  function reach(starts, edges) {
    var seen = {}, todo = starts.slice();
    while (todo.length) {
      var at = todo.pop();
      (edges[at] || []).forEach(function (next) {
        if (!seen[next]) { seen[next] = true; todo.push(next); }
      });
    }
    return Object.keys(seen).map(Number);
  }

  function linesOf(spots) {
    var out = [];
    spots.forEach(function (s) { out = out.concat(members[s] || [s]); });
    return out;
  }

  function mark(spots, css) {
    linesOf(spots).forEach(function (i) {
      var el = document.getElementById(data.ids[i]);
      if (el) el.classList.add(css);
    });
  }

  function clear() {
    ["selected", "came-from", "became"].forEach(function (css) {
      document.querySelectorAll("[data-pane] ." + css).forEach(function (el) { el.classList.remove(css); });
    });
  }

  function scrollWithin(pane, el) {
    var box = pane.querySelector(".pane-code");
    box.scrollTop = el.offsetTop - box.clientHeight / 3;  // the box is el's offsetParent
  }

  function report(selectedPane) {
    panes.forEach(function (pane) {
      var status = pane.querySelector(".pane-status");
      var hit = pane.querySelector(".line.came-from, .line.became");
      if (pane === selectedPane) status.textContent = "";
      else if (hit) { status.textContent = ""; scrollWithin(pane, hit); }
      else status.textContent = "Nothing here is recorded as coming from or becoming the selected line.";
    });
  }

  function select(line, focus) {
    var i = index[line.id];
    var spots = spansOf[i] || (i === undefined ? [] : [i]);
    // A long pane shows its first lines; the lines to light may be in a chunk not loaded yet.
    var missing = linesOf(reach(spots, up).concat(reach(spots, down)))
      .map(function (k) { return data.ids[k]; })
      .filter(function (id) { return id && !document.getElementById(id); });  // "": a hub
    if (missing.length && window.depyfReveal && !line.revealed) {
      line.revealed = true;
      window.depyfReveal(missing, function () { select(line, focus); line.revealed = false; });
      return;
    }
    clear();
    mark(reach(spots, up), "came-from");
    mark(reach(spots, down), "became");
    mark(spots, "selected");
    line.classList.add("selected");
    var pane = line.closest("[data-pane]");
    report(pane);
    moveTab(pane, line);
    if (focus) line.focus();
    if (history.replaceState) history.replaceState(null, "", "#" + line.id);
  }

  function moveTab(pane, line) {
    pane.querySelectorAll('.line[tabindex="0"]').forEach(function (el) { el.tabIndex = -1; });
    line.tabIndex = 0;
  }

  function step(line, by) {
    var all = Array.prototype.slice.call(line.closest("[data-pane]").querySelectorAll(".line"));
    var next = all[all.indexOf(line) + by];
    if (next) { moveTab(next.closest("[data-pane]"), next); next.focus(); }
  }

  function otherPane(line, by) {
    var at = panes.indexOf(line.closest("[data-pane]")) + by;
    var pane = panes[at];
    if (!pane) return;
    var target = pane.querySelector(".line.came-from, .line.became, .line.selected") || pane.querySelector(".line");
    if (target) { moveTab(pane, target); target.focus(); }
  }

  document.addEventListener("click", function (event) {
    var line = event.target.closest && event.target.closest("[data-pane] .line");
    if (!line) return;
    event.preventDefault();
    select(line, true);
  });
  document.addEventListener("keydown", function (event) {
    var line = event.target.closest && event.target.closest("[data-pane] .line");
    if (!line || event.ctrlKey || event.metaKey || event.altKey) return;
    var act = {
      ArrowDown: function () { step(line, 1); },
      ArrowUp: function () { step(line, -1); },
      ArrowRight: function () { otherPane(line, 1); },
      ArrowLeft: function () { otherPane(line, -1); },
      Enter: function () { select(line, true); },
      " ": function () { select(line, true); },
    }[event.key];
    if (act) { event.preventDefault(); event.stopPropagation(); act(); }
  }, true);

  var wanted = window.location.hash.slice(1);
  var first = wanted && document.getElementById(wanted);
  if (first && first.closest("[data-pane]")) select(first, false);
  else if (wanted) {
    // A line in a chunk not loaded yet: load it, then select it.
    window.depyfReveal([wanted], function () {
      var line = document.getElementById(wanted);
      if (line && line.closest("[data-pane]")) select(line, false);
    });
  }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var holder = document.getElementById("provenance-data");
    if (holder && window.depyfLoad) window.depyfLoad(holder.getAttribute("data-part"), start);
  });
})();
