// depyf-report: search over the embedded index and keyboard shortcuts. No network.
(function () {
  "use strict";

  function searchRows() {
    var data = document.getElementById("search-data");
    return data ? JSON.parse(data.textContent) : null;
  }

  // Rows are [kind, text, detail, href]; every word of the query must appear.
  function matches(rows, query, limit) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var found = [];
    for (var i = 0; i < rows.length && found.length < limit; i++) {
      var hay = (rows[i][1] + " " + rows[i][2]).toLowerCase();
      if (words.every(function (w) { return hay.indexOf(w) >= 0; })) found.push(rows[i]);
    }
    return found;
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
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      var first = list.querySelector("a");
      if (first) window.location.href = first.href;
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
