// depyf-report: search over the embedded index and keyboard shortcuts. No network.
(function () {
  "use strict";

  function searchRows() {
    var data = document.getElementById("search-data");
    return data ? JSON.parse(data.textContent) : null;
  }

  // Rows are [kind, text, detail, href, more?]: "more" is searched, never shown.
  // Every word of the query must appear; exact names come first, then names that
  // start with the query, then the rest in the index's order.
  function matches(rows, query, limit) {
    var q = query.toLowerCase();
    var words = q.split(/\s+/).filter(Boolean);
    var found = [];
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var text = row[1].toLowerCase();
      var hay = row[0] + " " + text + " " + row[2].toLowerCase() + " " + (row[4] || "").toLowerCase();
      if (!words.every(function (w) { return hay.indexOf(w) >= 0; })) continue;
      var rank = text === q ? 0 : text.indexOf(q) === 0 ? 1 : text.indexOf(q) >= 0 ? 2 : 3;
      found.push([rank, i, row]);
    }
    found.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    return found.slice(0, limit).map(function (f) { return f[2]; });
  }

  function showResults(list, found, query) {
    list.textContent = "";
    list.hidden = !query;
    if (query && !found.length) {
      var none = document.createElement("li");
      none.textContent = "Nothing matches \u201c" + query + "\u201d.";
      list.appendChild(none);
    }
    found.forEach(function (row, i) {
      var li = document.createElement("li");
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = row[0];
      var a = document.createElement("a");
      a.href = row[3];
      a.textContent = row[1];
      var detail = document.createElement("span");
      detail.className = "detail";
      detail.textContent = row[2];
      if (i === 0) li.className = "active";
      li.append(kind, a, detail);
      list.appendChild(li);
    });
  }

  // The arrow keys move the highlighted result; Enter follows it.
  function moveActive(list, step) {
    var items = Array.prototype.slice.call(list.querySelectorAll("li"));
    if (!items.length || !items[0].querySelector("a")) return;
    var at = items.findIndex(function (li) { return li.classList.contains("active"); });
    var next = Math.max(0, Math.min(items.length - 1, at + step));
    if (at >= 0) items[at].classList.remove("active");
    items[next].classList.add("active");
    items[next].scrollIntoView({ block: "nearest" });
  }

  function setUpSearch() {
    var input = document.getElementById("search");
    var list = document.getElementById("search-results");
    var rows = searchRows();
    if (!input || !list || !rows) return;  // other pages submit the query to the overview
    var run = function () {
      var query = input.value.trim();
      showResults(list, query ? matches(rows, query, 60) : [], query);
    };
    input.addEventListener("input", run);
    input.addEventListener("keydown", function (event) {
      var step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      if (step) { event.preventDefault(); moveActive(list, step); }
    });
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      var chosen = list.querySelector("li.active a") || list.querySelector("a");
      if (chosen) window.location.href = chosen.href;
    });
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) { input.value = query; run(); }
  }

  function toggleHelp(show) {
    var help = document.getElementById("help");
    help.hidden = show === undefined ? !help.hidden : !show;
  }

  function jumpSection(step) {
    var sections = Array.prototype.slice.call(document.querySelectorAll("[data-section]"));
    var y = window.scrollY + 80;
    var current = sections.filter(function (s) { return s.offsetTop <= y; }).length - 1;
    var next = sections[Math.max(0, Math.min(sections.length - 1, current + step))];
    if (next) next.scrollIntoView();
  }

  function toggleDis() {
    var all = document.querySelectorAll("details.dis");
    var open = !Array.prototype.some.call(all, function (d) { return d.open; });
    all.forEach(function (d) { d.open = open; });
  }

  function follow(name) {
    var link = document.querySelector('[data-shortcut="' + name + '"]');
    if (link) window.location.href = link.href;
  }

  var keys = {
    "/": function () { document.getElementById("search").focus(); },
    "?": function () { toggleHelp(); },
    "Escape": function () { toggleHelp(false); },
    "i": function () { follow("i"); },
    "u": function () { follow("u"); },
    "n": function () { jumpSection(1); },
    "p": function () { jumpSection(-1); },
    "d": toggleDis,
  };

  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (typing) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var action = keys[event.key];
    if (action) { event.preventDefault(); action(); }
  });
  document.querySelector("[data-toggle-help]").addEventListener("click", function () { toggleHelp(); });
  setUpSearch();
})();
