// depyf-report: search over the embedded index and keyboard shortcuts. No network.
(function () {
  "use strict";

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

  // The index is written compactly (render/search.py search_json): each text, detail
  // and page once in "strings"; a row is [kind, text, detail, page, fragment, more?],
  // the three in the middle numbers into strings.
  function searchRows(index) {
    if (index.expanded) return index.expanded;
    var s = index.strings;
    index.expanded = index.rows.map(function (r) {
      var row = [r[0], s[r[1]], s[r[2]], s[r[3]] + (r[4] ? "#" + r[4] : "")];
      if (r.length > 5) row.push(r[5]);
      return row;
    });
    return index.expanded;
  }

  // The index is a data file beside the overview, loaded when search is first used.
  function setUpSearch() {
    var input = document.getElementById("search");
    var list = document.getElementById("search-results");
    var data = document.getElementById("search-data");
    if (!input || !list || !data) return;  // other pages submit the query to the overview
    var run = function () {
      loadPart(data.getAttribute("data-part"), function (index) {
        var query = input.value.trim();
        showResults(list, query ? matches(searchRows(index), query, 60) : [], query);
      }, function (why) { list.hidden = false; list.textContent = why; });
    };
    input.addEventListener("input", run);
    input.addEventListener("focus", function () { loadPart(data.getAttribute("data-part"), function () {}); });
    input.addEventListener("keydown", function (event) {
      var step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      if (step) { event.preventDefault(); moveActive(list, step); }
    });
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      var chosen = list.querySelector("li.active a") || list.querySelector("a");
      if (chosen) window.location.href = chosen.href;
    });
    list.addEventListener("click", function (event) {
      // A result on this page changes the hash only: open what it names at once.
      var link = event.target.closest && event.target.closest("a");
      if (link && link.hash && link.pathname === window.location.pathname) setTimeout(openTarget, 0);
    });
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) { input.value = query; run(); }
  }

  // --- listings drawn from their text (render/fastlex.py, render/highlight.py) ------
  // A long listing's data files hold most lines as plain text; this draws each line
  // as render's Python tokenizer does, class for class: the patterns are the same,
  // and tests/render/test_js_lexer.py compares the two.
  var PYTHON = {
    pattern: /(#[^\n]*)|([rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|$)|"""[\s\S]*?(?:"""|$)|'[^'\\\n]*'|"[^"\\\n]*"))|([rRbBuUfF]{0,2}['"])|((?:0[xXoObB][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?j?|\.[0-9]+(?:[eE][+-]?[0-9]+)?j?))|([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)|([-+*\/%&|^~<>=!@]+)|([ \t\r\f\v()\[\]{},:;.]+|\n)|([^\n])/y,
    kinds: ["c1", "s", "q", "m", "name", "o", "ws", "x"],
  };
  var CLIKE = {
    pattern: /(\/\*[\s\S]*?(?:\*\/|$))|(\/\/[^\n]*)|(^[ \t]*#[^\n]*)|("[^"\\\n]*"|'[^'\\\n]*')|(['"])|((?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)[uUlLfF]*)|([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)|([-+*\/%&|^~<>=!?:]+)|([ \t\r\f\v()\[\]{},;.]+|\n)|([^\n])/y,
    kinds: ["cm", "c1", "cp", "s", "q", "m", "name", "o", "ws", "x"],
  };

  function words(table) {
    var out = Object.create(null);
    Object.keys(table).forEach(function (css) {
      table[css].split(" ").forEach(function (w) { out[w] = css; });
    });
    return out;
  }

  // Later entries win, as in fastlex's dicts.
  var PY_WORDS = words({
    nb: "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup " +
      "BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError " +
      "ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError " +
      "DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception " +
      "ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning " +
      "GeneratorExit IOError ImportError ImportWarning IndentationError IndexError " +
      "InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError " +
      "ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError " +
      "OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError " +
      "RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning " +
      "StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit " +
      "TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError " +
      "UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning " +
      "ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes " +
      "callable chr classmethod compile complex copyright credits delattr dict dir divmod " +
      "enumerate eval exec exit filter float format frozenset getattr globals hasattr hash " +
      "help hex id input int isinstance issubclass iter len license list locals map max " +
      "memoryview min next object oct open ord pow print property quit range repr reversed " +
      "round set setattr slice sorted staticmethod str sum super tuple type vars zip",
    k: "False None True and as assert async await break class continue def del elif else " +
      "except finally for from global if import in is lambda nonlocal not or pass raise " +
      "return try while with yield",
  });
  var PY_LATER = words({ kc: "True False None", kn: "import from", ow: "and or not in is", bp: "self cls" });
  Object.keys(PY_LATER).forEach(function (w) { PY_WORDS[w] = PY_LATER[w]; });
  var C_WORDS = words({
    k: "break case const constexpr continue default do else enum extern for goto if inline " +
      "namespace return sizeof static struct switch template typedef typename union using " +
      "volatile while restrict __restrict__ __global__ __device__ tl triton",
    kt: "auto bool char double float int long short signed unsigned void size_t " +
      "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t half bfloat16",
    kc: "true false nullptr NULL",
  });
  var DEFINES = { def: "nf", "class": "nc" };
  var LEXERS = { python: "py", triton: "py", cpp: "c", c: "c", cuda: "c" };

  // [group, text] of each token; a one-line string with escapes comes whole, as "s"
  // (fastlex._pieces and _string_end).
  function pieces(lexer, text) {
    var out = [], re = lexer.pattern, pos = 0;
    while (pos < text.length) {
      re.lastIndex = pos;
      var m = re.exec(text), g = 1;
      while (m[g] === undefined) g++;
      var kind = lexer.kinds[g - 1];
      if (kind !== "q") { out.push([kind, m[0]]); pos = re.lastIndex; continue; }
      var end = stringEnd(text, re.lastIndex, m[0].charAt(m[0].length - 1));
      out.push(["s", text.slice(pos, end)]);
      pos = end;
    }
    return out;
  }

  var STOPS = { "'": /[\\'\n]/g, '"': /[\\"\n]/g };

  function stringEnd(text, pos, quote) {
    var stop = STOPS[quote];
    for (;;) {
      stop.lastIndex = pos;
      var found = stop.exec(text);
      if (!found) return text.length;
      if (found[0] === quote) return stop.lastIndex;
      var escaped = text.charAt(stop.lastIndex);
      if (found[0] === "\n" || escaped === "" || escaped === "\n") return found.index;
      pos = stop.lastIndex + 1;
    }
  }

  // [css, text] of each token of one line.
  function tokens(text, language) {
    if (!Object.prototype.hasOwnProperty.call(LEXERS, language)) return [["", text]];
    var lexer = LEXERS[language];
    var out = [], define = null;
    pieces(lexer === "py" ? PYTHON : CLIKE, text).forEach(function (p) {
      var kind = p[0], value = p[1], css;
      if (lexer === "c") {
        css = kind === "name" ? C_WORDS[value] || "" : kind === "ws" || kind === "x" ? "" : kind;
      } else if (kind === "name") {
        css = define || PY_WORDS[value] || "";
        define = Object.prototype.hasOwnProperty.call(DEFINES, value) ? DEFINES[value] : null;
      } else if (kind === "ws") {
        if (value === "\n" || !/^[ \t\r\f\v]+$/.test(value)) define = null;
        css = "";
      } else {
        define = null;
        if (kind === "s") css = value.indexOf('"""') === 0 || value.indexOf("'''") === 0 ? "sd" : "s1";
        else if (kind === "m") css = /[.eEjJ]/.test(value) && value.indexOf("0x") !== 0 ? "mf" : "mi";
        else css = kind === "x" ? "" : kind;
      }
      out.push([css, value]);
    });
    return out;
  }

  function codeText(text) {
    // [<], not <: the notebook frame inlines this file, writing every "</" as "<\/".
    return text.replace(/&/g, "&amp;").replace(/[<]/g, "&lt;").replace(/>/g, "&gt;");
  }

  // One line's markup, as highlight.py writes it.
  function highlight(text, language) {
    return tokens(text, language).map(function (t) {
      return t[0] ? '<span class="' + t[0] + '">' + codeText(t[1]) + "</span>" : codeText(t[1]);
    }).join("");
  }
  window.depyfHighlight = highlight;

  // A block of a listing (deferred.py listing_data): text, [language, text],
  // {html} or {row} per line. The button draws it from its line data-from on (the
  // page shows those before), numbered and named on from the button's data-first.
  function listingHtml(holder, data) {
    if (typeof data === "string") return data;
    var start = number(holder.getAttribute("data-first")), out = [];
    var from = +(holder.getAttribute("data-from") || 0);
    data.lines.slice(from).forEach(function (line, i) {
      if (line.row !== undefined) { out.push(line.row); return; }
      var n = start.n + i, id = escapeHtml(start.prefix + n), src;
      if (typeof line === "string") src = highlight(line, data.language);
      else if (Array.isArray(line)) src = highlight(line[1], line[0]);
      else src = line.html;
      out.push('<div class="line" id="' + id + '"><a class="ln" href="#' + id + '">' + n + '</a><span class="src">' + src + "</span></div>\n");
    });
    return out.join("");
  }

  // --- deferred parts (render/deferred.py) ------------------------------------------
  // A page's heavy parts live in data files beside it, added as <script src> on
  // demand: browsers refuse fetch() of local files, not scripts. Each file calls
  // depyfPart(name, data) with JSON that render escaped.
  var parts = {}, waiting = {};
  window.depyfPart = function (name, data) {
    parts[name] = data;
    (waiting[name] || []).forEach(function (then) { then(data); });
    delete waiting[name];
  };

  function loadPart(name, then, failed) {
    if (Object.prototype.hasOwnProperty.call(parts, name)) { then(parts[name]); return; }
    if (waiting[name]) { waiting[name].push(then); return; }
    waiting[name] = [then];
    var tag = document.createElement("script");
    tag.src = name;
    tag.onerror = function () {
      delete waiting[name];
      if (failed) failed("could not load " + name + ": keep the site's files together");
    };
    document.head.appendChild(tag);
  }

  // Several callers may ask for one chunk (a link, the provenance view): it is
  // inserted once, then each is called back.
  function loadCode(button, then) {
    if (button.waiters) { if (then) button.waiters.push(then); return; }
    button.waiters = then ? [then] : [];
    button.disabled = true;
    loadPart(button.getAttribute("data-part"), function (data) {
      // A row of a table, or a button among a listing's lines.
      var at = button.closest("tr.more-rows") || button;
      at.insertAdjacentHTML("beforebegin", listingHtml(button, data));
      at.remove();
      button.waiters.forEach(function (call) { call(); });
    }, function (why) { button.textContent = why; });
  }

  function loadDetails(details, then) {
    if (details.loaded) { if (then) then(); return; }
    if (details.waiters) { if (then) details.waiters.push(then); return; }
    details.waiters = then ? [then] : [];
    loadPart(details.getAttribute("data-part"), function (html) {
      details.insertAdjacentHTML("beforeend", html);
      details.loaded = true;
      details.removeAttribute("data-ids");  // what it held is on the page now
      details.waiters.forEach(function (call) { call(); });
    }, function (why) { details.insertAdjacentText("beforeend", why); });
  }

  // A guard tree: rows are [depth, parts or html]; the page shows some, each folded line
  // with a button that unfolds its children.
  var trees = [];

  function number(id) {
    var m = /^(.*?)(\d+)$/.exec(id || "");
    return m ? { prefix: m[1], n: +m[2] } : null;
  }

  // The page's guard data file holds each distinct line once and each tree as
  // flat (depth, line number) pairs; data-tree says which tree a box shows.
  function treeState(box, data) {
    if (box.guardTree) return box.guardTree;
    var flat = data.trees[+box.getAttribute("data-tree")], rows = [];
    for (var p = 0; p < flat.length; p += 2) rows.push([flat[p], data.lines[flat[p + 1]]]);
    var start = number(box.getAttribute("data-first")), first = start.n;
    var under = new Array(rows.length), stack = [];
    for (var i = rows.length - 1; i >= 0; i--) under[i] = 0;
    for (var j = 0; j < rows.length; j++) {
      while (stack.length && rows[stack[stack.length - 1]][0] >= rows[j][0]) stack.pop();
      stack.forEach(function (k) { under[k]++; });
      stack.push(j);
    }
    var shown = new Array(rows.length).fill(false);
    box.querySelectorAll(".line").forEach(function (line) {
      var at = number(line.id);
      if (at && at.n - first >= 0 && at.n - first < rows.length) shown[at.n - first] = true;
    });
    box.guardTree = { rows: rows, under: under, shown: shown, first: first, prefix: start.prefix };
    return box.guardTree;
  }

  function children(tree, i) {
    var out = [], depth = tree.rows[i][0];
    for (var j = i + 1; j <= i + tree.under[i]; j++) if (tree.rows[j][0] === depth + 1) out.push(j);
    return out;
  }

  function escapeHtml(text) {
    // [<], not <: the notebook frame inlines this file, writing every "</" as "<\/".
    return String(text).replace(/&/g, "&amp;").replace(/[<]/g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  // A row's data (render/codeview.py guard_data) is its text, [text, href, place]
  // where its comment's place links to the source, {parts} for a line too long to
  // highlight, or {row}: the whole markup of a marked line.
  function guardRow(tree, i) {
    tree.drawn = tree.drawn || [];  // each row is highlighted once, however often redrawn
    if (tree.drawn[i] === undefined) tree.drawn[i] = drawGuard(tree, i);
    return tree.drawn[i];
  }

  function drawGuard(tree, i) {
    var data = tree.rows[i][1];
    if (data.row !== undefined) return data.row;
    var n = tree.first + i, id = escapeHtml(tree.prefix + n), src = partsHtml(data.parts || guardParts(data));
    return '<div class="line" id="' + id + '"><a class="ln" href="#' + id + '">' + n + '</a><span class="src">' + src + "</span></div>\n";
  }

  // The markup of parts, as render/codeview.py's parts_html writes it.
  function partsHtml(parts) {
    return parts.map(function (part) {
      if (typeof part === "string") return codeText(part);
      var span = '<span class="' + escapeHtml(part[0]) + '">' + codeText(part[1]) + "</span>";
      return part.length > 2 ? '<a href="' + escapeHtml(part[2]) + '">' + span + "</a>" : span;
    }).join("");
  }
  window.depyfGuardHtml = function (data) { return partsHtml(guardParts(data)); };

  // A guard line's parts, as codeview.line_parts makes them: the tree, the guard's
  // kind, its check highlighted as Python, and its comment.
  function guardParts(data) {
    var text = typeof data === "string" ? data : data[0];
    var head = /^([|+\- ]*)([A-Za-z_]+:)?/.exec(text), rest = text.slice(head[0].length);
    var cut = rest.indexOf("  # "), code = cut < 0 ? rest : rest.slice(0, cut);
    var comment = cut < 0 ? "" : rest.slice(cut + 4);
    var parts = [["tree", head[1]]];
    if (head[2]) parts.push(["guard-kind", head[2]]);
    tokens(code, "python").forEach(function (t) { parts.push(t[0] ? t : t[1]); });
    if (!comment) return parts;
    if (typeof data === "string") { parts.push(["c1", "  # " + comment]); return parts; }
    var place = data[2], start = comment.lastIndexOf(place), end = start + place.length;
    parts.push(["c1", "  # " + comment.slice(0, start)], ["c1", place, data[1]]);
    if (end < comment.length) parts.push(["c1", comment.slice(end)]);
    return parts;
  }

  function drawTree(box) {
    var tree = box.guardTree, html = [];
    for (var i = 0; i < tree.rows.length; i++) {
      if (!tree.shown[i]) continue;
      var kids = children(tree, i), folded = kids.some(function (k) { return !tree.shown[k]; });
      var button = !kids.length ? "" : folded
        ? '<button type="button" class="unfold" aria-expanded="false" title="show the ' + tree.under[i] + ' checks under this one">+' + tree.under[i] + "</button>"
        : '<button type="button" class="unfold" aria-expanded="true" title="fold the checks under this one">\u2212</button>';
      var row = guardRow(tree, i), cut = row.indexOf("</a>") + 4;
      html.push(row.slice(0, cut).replace("<div ", '<div data-depth="' + tree.rows[i][0] + '" ') + button + row.slice(cut));
    }
    box.innerHTML = html.join("");
  }

  function unfold(box, i, then) {
    loadPart(box.getAttribute("data-part"), function (data) {
      var tree = treeState(box, data), kids = children(tree, i);
      var folded = kids.some(function (k) { return !tree.shown[k]; });
      if (folded) kids.forEach(function (k) { tree.shown[k] = true; });
      else for (var j = i + 1; j <= i + tree.under[i]; j++) tree.shown[j] = false;
      drawTree(box);
      if (then) then();
    }, function (why) { box.insertAdjacentText("afterbegin", why); });
  }

  function showGuard(box, index, then) {
    loadPart(box.getAttribute("data-part"), function (data) {
      var tree = treeState(box, data), rows = tree.rows, depth = rows[index][0];
      tree.shown[index] = true;
      for (var j = index - 1; j >= 0 && depth > 0; j--) {
        if (rows[j][0] < depth) { tree.shown[j] = true; depth = rows[j][0]; }
      }
      drawTree(box);
      then();
    });
  }

  // A link to a line not on the page yet (#entry-0-g512, #L900): load what holds it.
  function holderOf(id) {
    var want = number(id), found = null;
    document.querySelectorAll("[data-part][data-first], [data-part][data-ids]").forEach(function (el) {
      if (found) return;
      var ids = (el.getAttribute("data-ids") || "").split(" ");
      if (ids.indexOf(id) >= 0) { found = el; return; }
      var a = number(el.getAttribute("data-first")), b = number(el.getAttribute("data-last"));
      if (want && a && b && a.prefix === want.prefix && b.prefix === want.prefix && a.n <= want.n && want.n <= b.n) found = el;
    });
    return found;
  }

  function goTo(id) {
    var el = document.getElementById(id);
    if (!el) return;
    document.querySelectorAll(".targeted").forEach(function (t) { t.classList.remove("targeted"); });
    el.classList.add("targeted");
    el.scrollIntoView({ block: "center" });
  }

  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id || document.getElementById(id)) return;
    var holder = holderOf(id);
    if (!holder) return;
    if (holder.tagName === "DETAILS") {
      // A folded block (more compiles): open it, then look again, as what it
      // holds may be folded in turn.
      holder.open = true;
      loadDetails(holder, function () { if (document.getElementById(id)) goTo(id); else openTarget(); });
    } else if (holder.classList.contains("guard-tree")) {
      showGuard(holder, number(id).n - number(holder.getAttribute("data-first")).n, function () { goTo(id); });
    } else {
      loadCode(holder, function () { goTo(id); });
    }
  }

  // Load whatever holds these ids (chunks of listings), then call back: the
  // provenance view lights lines that may not be on the page yet.
  window.depyfLoad = function (name, then) { loadPart(name, then); };

  window.depyfReveal = function (ids, then) {
    var holders = [];
    ids.forEach(function (id) {
      if (document.getElementById(id)) return;
      var holder = holderOf(id);
      if (holder && holders.indexOf(holder) < 0 && !holder.classList.contains("guard-tree")) holders.push(holder);
    });
    var left = holders.length;
    if (!left) { then(); return; }
    holders.forEach(function (holder) { loadCode(holder, function () { if (--left === 0) then(); }); });
  };

  function setUpParts() {
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button");
      if (!button) return;
      if (button.classList.contains("more-lines")) loadCode(button);
      if (button.classList.contains("unfold")) {
        var box = button.closest(".guard-tree"), line = button.closest(".line");
        unfold(box, number(line.id).n - number(box.getAttribute("data-first")).n);
      }
    });
    document.querySelectorAll("details[data-part]").forEach(function (details) {
      details.addEventListener("toggle", function () { if (details.open) loadDetails(details); });
    });
    window.addEventListener("hashchange", openTarget);
    openTarget();
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
  setUpParts();
})();
