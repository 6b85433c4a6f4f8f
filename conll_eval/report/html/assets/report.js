/* conll_eval HTML report: the sentence browser.  Reads the JSON embedded in the element
   #report-data (and each treebank's sentences from #report-tb-K, parsed when first shown),
   filters and sorts the gold sentences, and draws the chosen one's gold tree and each
   system's tree as SVG arcs.  Every string from the input goes through textContent (never
   innerHTML), so a FORM that looks like markup stays text.  It starts after the first paint:
   the summary shows at once, whatever the number of sentences. */
function conllEvalBrowser() {
  "use strict";
  var T0 = (window.performance && performance.now) ? performance.now() : 0;
  var SVGNS = "http://www.w3.org/2000/svg";
  var ROW = 24;
  var STATUS = ["right", "wrong label", "wrong head", "wrong head and label", "no partner"];
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var root = document.getElementById("browser-root");
  if (!root || !DATA.treebanks || !DATA.treebanks.length) { return; }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) { for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { node.setAttribute(k, attrs[k]); } } }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVGNS, tag);
    if (attrs) { for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { node.setAttribute(k, attrs[k]); } } }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function pct(c, total) { return total ? (100 * c / total).toFixed(2) : "0.00"; }
  function f1(c, g, s) { return (g + s) ? 2 * c / (g + s) : 1; }
  function ints(a) { return Int32Array.from ? Int32Array.from(a) : new Int32Array(a); }
  function udep(label) { var i = label.indexOf(":"); return i < 0 ? label : label.slice(0, i); }

  /* ---- one treebank's data in typed arrays, with per-sentence summaries ---------------- */
  function edgeTable(e) {  /* enhanced edges, CSR per word: o offsets, h head, d label, k right */
    return e ? { o: ints(e.o), h: ints(e.h), d: ints(e.d), k: e.k ? Uint8Array.from(e.k) : null } : null;
  }
  function prepare(tb) {
    var g = tb.gold, n = g.start.length - 1;
    var P = { tb: tb, n: n, gstart: ints(g.start), gf: ints(g.f), gu: ints(g.u), gd: ints(g.d),
              gh: ints(g.h), mwt: new Uint8Array(g.f.length), runs: [], text: null, ge: edgeTable(g.e) };
    for (var m = 0; m < g.m.length; m++) { P.mwt[g.m[m]] = 1; }
    P.udeps = tb.labels.map(udep);
    for (var r = 0; r < tb.runs.length; r++) {
      var run = tb.runs[r], w = run.words;
      var R = { start: ints(w.start), f: ints(w.f), u: ints(w.u), d: ints(w.d), h: ints(w.h),
                a: ints(w.a), brk: new Uint8Array(w.f.length), status: new Uint8Array(run.status),
                las: run.sentences.LAS, uas: run.sentences.UAS, upos: run.sentences.UPOS,
                split: run.split_ok, errors: new Int32Array(n), lasF1: new Float64Array(n),
                e: edgeTable(w.e) };
      for (var b = 0; b < w.b.length; b++) { R.brk[w.b[b]] = 1; }
      for (var s = 0; s < n; s++) {
        var c = R.las[0][s], gg = R.las[1][s], ss = R.las[2][s];
        R.errors[s] = (gg - c) + (ss - c);
        R.lasF1[s] = f1(c, gg, ss);
      }
      P.runs.push(R);
    }
    return P;
  }

  function sentenceText(P, s) {
    var out = [], forms = P.tb.forms;
    for (var i = P.gstart[s]; i < P.gstart[s + 1]; i++) { out.push(forms[P.gf[i]]); }
    return out.join(" ");
  }
  function searchTexts(P) {
    if (!P.text) {
      P.text = new Array(P.n);
      var texts = P.tb.gold.x || [];
      /* the sentence's text (# text: "don't", "博物館" span several words) and its FORMs */
      for (var s = 0; s < P.n; s++) { P.text[s] = (P.tb.gold.id[s] + "\u0001" + (texts[s] || "") + "\u0001" + sentenceText(P, s)).toLowerCase(); }
    }
    return P.text;
  }

  /* ---- controls --------------------------------------------------------------------- */
  var state = { tb: 0, P: null, order: new Int32Array(0), sel: 0, scope: -1 };
  var controls = el("div", { "class": "controls", role: "search" });
  function labelled(text, control) { var l = el("label", null, text + " "); l.appendChild(control); controls.appendChild(l); return control; }
  var tbSelect = el("select", { id: "f-treebank" });
  DATA.treebanks.forEach(function (tb, i) { tbSelect.appendChild(el("option", { value: String(i) }, tb.name)); });
  if (DATA.treebanks.length > 1) { labelled("Treebank", tbSelect); }
  var scopeSelect = labelled("System", el("select", { id: "f-system" }));
  var onlyErrors = el("input", { type: "checkbox", id: "f-errors" });
  var errLabel = el("label"); errLabel.appendChild(onlyErrors); errLabel.appendChild(document.createTextNode(" only sentences with errors"));
  controls.appendChild(errLabel);
  var relSelect = labelled("Relation wrong", el("select", { id: "f-relation" }));
  var uposSelect = labelled("UPOS wrong", el("select", { id: "f-upos" }));
  var search = labelled("Search", el("input", { type: "search", id: "f-search", placeholder: "words or sent_id  ( / )" }));
  var minLen = labelled("Length", el("input", { type: "number", id: "f-min", min: "0", placeholder: "min" }));
  var maxLen = el("input", { type: "number", id: "f-max", min: "0", placeholder: "max" });
  minLen.parentNode.appendChild(document.createTextNode(" to ")); minLen.parentNode.appendChild(maxLen);
  var sortSelect = labelled("Sort", el("select", { id: "f-sort" }));
  [["file", "file order"], ["f1", "LAS F1, worst first"], ["errors", "most LAS errors first"],
   ["long", "longest first"], ["short", "shortest first"]].forEach(function (o) {
    sortSelect.appendChild(el("option", { value: o[0] }, o[1])); });
  var showEnhanced = el("input", { type: "checkbox", id: "f-enhanced" });
  var enhancedLabel = el("label", { id: "f-enhanced-label" }); enhancedLabel.appendChild(showEnhanced);
  enhancedLabel.appendChild(document.createTextNode(" enhanced graph (e)"));
  controls.appendChild(enhancedLabel);
  var count = el("span", { id: "f-count", "aria-live": "polite" });
  controls.appendChild(count);
  root.appendChild(controls);
  root.appendChild(el("p", { "class": "kbd" }, "Keys (in the sentence list): \u2193/j next, \u2191/k previous, PgDn/PgUp, Home/End; anywhere: / search, e enhanced graph on/off, Esc back to the list."));
  var panes = el("div", { "class": "panes" });
  var listPane = el("div", { "class": "list-pane" });
  var listHead = el("div", { id: "list-head", "aria-hidden": "true" });  /* the rows' titles say it too */
  var list = el("div", { id: "list", tabindex: "0", role: "listbox", "aria-label": "gold sentences: LAS F1 of each system, then the sentence" });
  var spacer = el("div"); list.appendChild(spacer);
  var view = el("div", { id: "view", "aria-live": "polite" });
  listPane.appendChild(listHead); listPane.appendChild(list);
  panes.appendChild(listPane); panes.appendChild(view); root.appendChild(panes);
  var tip = el("div", { id: "tip", role: "tooltip" }); tip.hidden = true; document.body.appendChild(tip);

  /* The record of treebank i: embedded in its own element, parsed on first use. */
  function treebankRecord(i) {
    var entry = DATA.treebanks[i];
    if (!entry.record) { entry.record = JSON.parse(document.getElementById(entry.data).textContent); }
    return entry.record;
  }

  function fillOptions(select, first, values) {
    select.textContent = "";
    select.appendChild(el("option", { value: "" }, first));
    values.forEach(function (v) { select.appendChild(el("option", { value: v }, v)); });
  }

  function loadTreebank(i) {
    state.tb = i;
    var tb = treebankRecord(i);
    state.P = prepare(tb);
    scopeSelect.textContent = "";
    scopeSelect.appendChild(el("option", { value: "-1" }, tb.systems.length > 1 ? "any system" : tb.systems[0]));
    if (tb.systems.length > 1) { tb.systems.forEach(function (name, k) { scopeSelect.appendChild(el("option", { value: String(k) }, name)); }); }
    var rels = {}; state.P.udeps.forEach(function (r) { rels[r] = 1; });
    fillOptions(relSelect, "(any)", Object.keys(rels).sort());
    fillOptions(uposSelect, "(any)", tb.tags.slice().sort());
    listHead.textContent = "";
    tb.systems.forEach(function (name) { listHead.appendChild(el("span", { "class": "f1", title: "LAS F1 of " + name }, name)); });
    listHead.appendChild(el("span", { "class": "txt" }, "sentence"));
    showEnhanced.disabled = !state.P.ge;
    if (!state.P.ge) { showEnhanced.checked = false; }
    enhancedLabel.title = state.P.ge ? "draw the enhanced graphs (DEPS) above the words, the basic trees below them"
      : (tb.enhanced_note || "the gold file has no enhanced graph (every DEPS is _)");
    state.sel = 0;
    apply();
  }

  /* The direction of a text: that of its first letter of a strong direction (Hebrew, Arabic,
     Syriac, Thaana, N'Ko... right to left; Latin, CJK... left to right). */
  var RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud803[\udc00-\ude7f]/;
  var LTR_LETTER = /[A-Za-z\u00c0-\u02b8\u0370-\u03ff\u0400-\u052f\u0900-\u1fff\u2c00-\ufb1c\uff21-\uff5a]/;
  function isRtl(text) {
    var r = text.search(RTL_LETTER), l = text.search(LTR_LETTER);
    return r >= 0 && (l < 0 || r < l);
  }

  /* ---- filtering and sorting -------------------------------------------------------- */
  function scopes() {
    var k = parseInt(scopeSelect.value, 10), P = state.P;
    if (isNaN(k) || k < 0) { var all = []; for (var r = 0; r < P.runs.length; r++) { all.push(r); } return all; }
    return [k];
  }
  function relationWrong(P, runs, rel, s) {
    var udeps = P.udeps;
    for (var i = P.gstart[s]; i < P.gstart[s + 1]; i++) {
      if (udeps[P.gd[i]] !== rel) { continue; }
      for (var k = 0; k < runs.length; k++) { if ((P.runs[runs[k]].status[i] & 7) !== 0) { return true; } }
    }
    for (var q = 0; q < runs.length; q++) {
      var R = P.runs[runs[q]], off = P.gstart[s];
      for (var j = R.start[s]; j < R.start[s + 1]; j++) {
        if (udeps[R.d[j]] !== rel) { continue; }
        if (R.a[j] < 0 || (R.status[off + R.a[j]] & 7) !== 0) { return true; }
      }
    }
    return false;
  }
  function uposWrong(P, runs, tag, s) {
    var tags = P.tb.tags;
    for (var i = P.gstart[s]; i < P.gstart[s + 1]; i++) {
      if (tags[P.gu[i]] !== tag) { continue; }
      for (var k = 0; k < runs.length; k++) { var st = P.runs[runs[k]].status[i]; if (st === 4 || (st & 8)) { return true; } }
    }
    for (var q = 0; q < runs.length; q++) {
      var R = P.runs[runs[q]], off = P.gstart[s];
      for (var j = R.start[s]; j < R.start[s + 1]; j++) {
        if (tags[R.u[j]] !== tag) { continue; }
        if (R.a[j] < 0 || (R.status[off + R.a[j]] & 8)) { return true; }
      }
    }
    return false;
  }

  /* fresh: a new order (the sort changed), shown from its first sentence; else the selected
     sentence stays selected if it is still in the list. */
  function apply(fresh) {
    var t0 = performance.now();
    var P = state.P, runs = scopes(), n = P.n;
    var needle = search.value.trim().toLowerCase();
    var texts = needle ? searchTexts(P) : null;
    var lo = parseInt(minLen.value, 10), hi = parseInt(maxLen.value, 10);
    var errorsOnly = onlyErrors.checked, rel = relSelect.value, tag = uposSelect.value;
    var keep = new Int32Array(n), m = 0;
    for (var s = 0; s < n; s++) {
      var len = P.gstart[s + 1] - P.gstart[s];
      if (!isNaN(lo) && len < lo) { continue; }
      if (!isNaN(hi) && len > hi) { continue; }
      if (errorsOnly) {
        var any = false;
        for (var k = 0; k < runs.length; k++) { if (P.runs[runs[k]].errors[s] > 0 || !P.runs[runs[k]].split[s]) { any = true; break; } }
        if (!any) { continue; }
      }
      if (texts && texts[s].indexOf(needle) < 0) { continue; }
      if (rel && !relationWrong(P, runs, rel, s)) { continue; }
      if (tag && !uposWrong(P, runs, tag, s)) { continue; }
      keep[m++] = s;
    }
    var order = keep.slice(0, m), how = sortSelect.value;
    if (how !== "file") {
      var key = new Float64Array(n);
      for (var x = 0; x < m; x++) {
        var t = order[x], v = 0;
        if (how === "f1") { v = 2; for (var a = 0; a < runs.length; a++) { v = Math.min(v, P.runs[runs[a]].lasF1[t]); } }
        else if (how === "errors") { for (var b = 0; b < runs.length; b++) { v -= P.runs[runs[b]].errors[t]; } }
        else if (how === "long") { v = -(P.gstart[t + 1] - P.gstart[t]); }
        else { v = P.gstart[t + 1] - P.gstart[t]; }
        key[t] = v;
      }
      var arr = Array.prototype.slice.call(order);
      arr.sort(function (p, q) { return (key[p] - key[q]) || (p - q); });
      order = Int32Array.from(arr);
    }
    var previous = state.order.length ? state.order[state.sel] : -1;
    state.order = order;
    var at = -1;
    if (previous >= 0) { for (var y = 0; y < order.length; y++) { if (order[y] === previous) { at = y; break; } } }
    state.sel = (at >= 0 && fresh !== true) ? at : 0;
    count.textContent = m + " of " + n + " sentences";
    spacer.style.height = (m * ROW) + "px";
    list.scrollTop = Math.max(0, state.sel * ROW - list.clientHeight / 2);
    renderList(true);
    show();
    api.filterMs = performance.now() - t0;
    api.shown = m;
    return m;
  }

  /* ---- the virtual list ------------------------------------------------------------- */
  var rendered = {};
  function renderList(force) {
    var P = state.P, order = state.order;
    var first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    var last = Math.min(order.length, Math.ceil((list.scrollTop + (list.clientHeight || 600)) / ROW) + 5);
    if (force) { while (spacer.firstChild) { spacer.removeChild(spacer.firstChild); } rendered = {}; }
    var wanted = {};
    for (var i = first; i < last; i++) { wanted[i] = 1; }
    for (var key in rendered) { if (!wanted[key]) { spacer.removeChild(rendered[key]); delete rendered[key]; } }
    for (var j = first; j < last; j++) {
      if (rendered[j]) { rendered[j].className = "row" + (j === state.sel ? " sel" : ""); rendered[j].setAttribute("aria-selected", j === state.sel ? "true" : "false"); continue; }
      var s = order[j], row = el("div", { "class": "row" + (j === state.sel ? " sel" : ""), role: "option", id: "row-" + j,
        "aria-selected": j === state.sel ? "true" : "false", "data-index": String(j), "data-sentence": String(s) });
      row.style.top = (j * ROW) + "px";
      for (var r = 0; r < P.runs.length; r++) {
        var R = P.runs[r];
        row.appendChild(el("span", { "class": "f1" + (R.errors[s] ? " err" : ""), title: "LAS F1 of " + P.tb.systems[r] }, (100 * R.lasF1[s]).toFixed(0)));
      }
      row.setAttribute("title", (P.tb.gold.id[s] || "sentence " + (s + 1)) + " (gold line " + P.tb.gold.line[s] + ")");
      var words = sentenceText(P, s);
      row.appendChild(el("span", { "class": "txt", dir: isRtl(words) ? "rtl" : "ltr" }, words.slice(0, 200)));
      spacer.appendChild(row);
      rendered[j] = row;
    }
    if (rendered[state.sel]) { list.setAttribute("aria-activedescendant", "row-" + state.sel); }
    else { list.removeAttribute("aria-activedescendant"); }
  }
  list.addEventListener("scroll", function () { renderList(false); });
  list.addEventListener("click", function (e) {
    var node = e.target;
    while (node && node !== list && !node.getAttribute("data-index")) { node = node.parentNode; }
    if (node && node !== list) { select(parseInt(node.getAttribute("data-index"), 10)); list.focus(); }
  });
  function select(i) {
    if (!state.order.length) { return; }
    state.sel = Math.max(0, Math.min(state.order.length - 1, i));
    var top = state.sel * ROW;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (top + ROW > list.scrollTop + list.clientHeight) { list.scrollTop = top + ROW - list.clientHeight; }
    renderList(false);
    show();
    remember();
  }

  /* ---- links: #s=SENT_ID (#n=NUMBER without one; t=TREEBANK with several) ------------ */
  function remember() {
    var P = state.P;
    if (!P || !state.order.length) { return; }
    var s = state.order[state.sel], id = P.tb.gold.id[s];
    var hash = "#" + (DATA.treebanks.length > 1 ? "t=" + state.tb + "&" : "") +
      (id ? "s=" + encodeURIComponent(id) : "n=" + (s + 1));
    if (location.hash === hash) { return; }
    try { history.replaceState(null, "", hash); } catch (err) { location.hash = hash; }
  }
  function reopen() {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var k = part.indexOf("=");
      if (k > 0) { try { params[part.slice(0, k)] = decodeURIComponent(part.slice(k + 1)); } catch (err) { /* not ours */ } }
    });
    var t = parseInt(params.t, 10);
    if (!isNaN(t) && t >= 0 && t < DATA.treebanks.length && t !== state.tb) { tbSelect.value = String(t); loadTreebank(t); }
    if (params.s === undefined && params.n === undefined) { return !isNaN(t); }
    var ids = state.P.tb.gold.id, s = params.s !== undefined ? ids.indexOf(params.s) : parseInt(params.n, 10) - 1;
    if (!(s >= 0 && s < state.P.n)) { return false; }
    var at = Array.prototype.indexOf.call(state.order, s);
    if (at < 0) {  /* filtered out: show every sentence again */
      search.value = ""; minLen.value = ""; maxLen.value = ""; onlyErrors.checked = false;
      relSelect.value = ""; uposSelect.value = ""; scopeSelect.value = "-1"; apply(false);
      at = Array.prototype.indexOf.call(state.order, s);
    }
    if (at < 0) { return false; }
    state.sel = at; list.scrollTop = Math.max(0, at * ROW - list.clientHeight / 2);
    renderList(true); show();
    return true;
  }
  window.addEventListener("hashchange", function () { if (reopen()) { document.getElementById("browser").scrollIntoView(); } });

  /* ---- tooltips on focus as on hover: words and edges of the trees take the focus -------- */
  view.addEventListener("focusin", function (e) {
    var node = e.target, title = node && node.querySelector ? node.querySelector(":scope > title") : null;
    if (!title) { tip.hidden = true; return; }
    tip.textContent = title.textContent;
    var r = node.getBoundingClientRect();
    tip.style.left = Math.max(0, r.left + window.scrollX) + "px";
    tip.style.top = (r.bottom + window.scrollY + 4) + "px";
    tip.hidden = false;
  });
  view.addEventListener("focusout", function () { tip.hidden = true; });

  /* ---- drawing ---------------------------------------------------------------------- */
  var measure = document.createElement("canvas").getContext("2d");
  var FONT = (window.getComputedStyle ? getComputedStyle(document.body).fontFamily : "") || "sans-serif";
  function width(text, px, bold) {
    if (measure) { measure.font = (bold ? "bold " : "") + px + "px " + FONT; return measure.measureText(text).width; }
    return text.length * px * (bold ? 0.7 : 0.6);
  }
  var LH = 17, BAND = 14, PAD = 3;  /* level height, row height of the root-label band, label margin */

  /* Intervals [x0, x1] per row, to find the lowest row where a label fits. */
  function Rows() { this.rows = []; }
  Rows.prototype.free = function (r, x0, x1) {
    var row = this.rows[r] || [];
    for (var i = 0; i < row.length; i++) { if (x0 < row[i][1] && row[i][0] < x1) { return false; } }
    return true;
  };
  Rows.prototype.take = function (r, x0, x1) { (this.rows[r] = this.rows[r] || []).push([x0, x1]); };
  Rows.prototype.place = function (lowest, x0, x1) {
    var r = lowest; while (!this.free(r, x0, x1)) { r++; } this.take(r, x0, x1); return r;
  };

  /* An arc's label: its text, anchor and horizontal extent. Hooks (head in another gold
     sentence) point outwards: to the earlier sentence's side (left, or right in a
     right-to-left sentence) or the later one's. */
  function arcLabel(a, words, rtl) {
    var xd = words[a.dep].x, hh = a.head, bad = a.lcls === "bad";
    var text = a.label + (bad ? " \u2717" : ""), x = xd, anchor = "middle";
    if (hh <= -2) {
      var side = (hh === -2) === !rtl ? -1 : 1;
      text = side < 0 ? "\u2190 " + text : text + " \u2192";
      x = xd + side * 4; anchor = side < 0 ? "end" : "start";
    } else if (hh >= 0) {
      x = (words[hh].x + (hh < a.dep ? 4 : -4) + xd) / 2;
    }
    var w = width(text, 10.5, bad);
    var x0 = anchor === "middle" ? x - w / 2 : anchor === "end" ? x - w : x;
    return { text: text, x: x, anchor: anchor, x0: x0 - PAD, x1: x0 + w + PAD };
  }

  /* Levels of arcs with no two labels overlapping: an arc sits above every arc it spans and
     is raised further while its label would overlap a label already placed at that level
     (labels of different levels are LH apart, more than a label's height); root arcs get
     rows in the band beyond the arcs (band: a Rows shared with other texts there). */
  function arcLayout(arcs, words, rtl, band) {
    var n = arcs.length, level = new Int32Array(n), labels = new Array(n), rows = new Rows();
    var maxLevel = 0, spans = [], i, j;
    for (i = 0; i < n; i++) {
      labels[i] = arcLabel(arcs[i], words, rtl);
      var h = arcs[i].head, d = arcs[i].dep;
      if (h >= 0) { spans.push([Math.min(d, h), Math.max(d, h), i]); }
      else if (h <= -2) { level[i] = rows.place(1, labels[i].x0, labels[i].x1); maxLevel = Math.max(maxLevel, level[i]); }
      else { level[i] = 0; labels[i].row = band.place(0, labels[i].x0, labels[i].x1); }
    }
    spans.sort(function (p, q) { return (p[1] - p[0]) - (q[1] - q[0]) || p[0] - q[0]; });
    for (i = 0; i < spans.length; i++) {
      var lv = 1, a = spans[i];
      for (j = 0; j < i; j++) {
        var b = spans[j];
        if (b[0] >= a[0] && b[1] <= a[1] && level[b[2]] >= lv) { lv = level[b[2]] + 1; }
      }
      var lab = labels[a[2]];
      lv = rows.place(lv, lab.x0, lab.x1);
      level[a[2]] = lv; if (lv > maxLevel) { maxLevel = lv; }
    }
    return { level: level, max: maxLevel, labels: labels };
  }

  /* One arc into parent: dir -1 rises above the words (y0 their top), +1 hangs below them
     (y0 their bottom); edge is where root arcs end (the band of root labels beyond it). */
  function drawArc(parent, a, level, label, words, y0, dir, edge, extra) {
    var xd = words[a.dep].x, hh = a.head, path, ly, peak = y0 + dir * (level * LH + 4);
    if (hh === -1) {
      path = "M" + xd + "," + edge + " L" + xd + "," + (y0 + dir * 5);
      ly = dir < 0 ? edge - 4 - label.row * BAND : edge + 11 + label.row * BAND;
    } else if (hh <= -2) {
      var side = label.anchor === "end" ? -1 : 1;
      path = "M" + (xd + side * 22) + "," + peak + " L" + xd + "," + peak + " L" + xd + "," + (y0 + dir * 5);
      ly = peak + 4;
    } else {
      var xh = words[hh].x + (hh < a.dep ? 4 : -4), ht = (peak - y0) / 0.75;  /* the curve peaks at 3/4 of ht */
      path = "M" + xh + "," + y0 + " C" + xh + "," + (y0 + ht) + " " + xd + "," + (y0 + ht) + " " + xd + "," + (y0 + dir * 5);
      ly = peak + 4;
    }
    parent.appendChild(svg("path", { "class": "arc " + extra + a.cls, d: path, "data-dep": String(a.dep), "data-status": a.status || "gold" }));
    parent.appendChild(svg("path", { "class": "head " + a.cls, d: "M" + (xd - 4) + "," + (y0 + dir * 7) + " L" + (xd + 4) + "," + (y0 + dir * 7) + " L" + xd + "," + (y0 + dir) + " Z" }));
    parent.appendChild(svg("text", { "class": "lab " + extra + a.lcls, x: String(label.x), y: String(ly), "text-anchor": label.anchor }, label.text));
  }

  /* words: [{x, w, form, upos, head (index in words, -1 root, -2/-3 outside left/right),
     label, cls (gold|ok|bad for the arc), lcls (for the label), ucls, unal, title, status}];
     enhanced: null, or the enhanced edges [{dep, head, label, cls, lcls, title}], drawn
     above the words with the basic tree below them; rtl: the words run right to left (their
     x are mirrored by the caller). The svg's extent of its texts is in box.extent [x0, x1]. */
  function drawTree(words, rowName, runIndex, widthPx, marks, enhanced, rtl) {
    var n = words.length, i, basic = [], topBand = new Rows(), bottomBand = new Rows();
    for (i = 0; i < n; i++) {
      var wd = words[i];
      basic.push({ dep: i, head: wd.head, label: wd.label, cls: wd.cls, lcls: wd.lcls, status: wd.status });
    }
    var splits = [];
    (marks || []).forEach(function (mk) {
      if (mk.kind !== "split") { return; }
      var text = "\u00b6 new system sentence", w = width(text, 10.5, true), x = rtl ? mk.x - 3 : mk.x + 3;
      var x0 = rtl ? x - w : x;
      splits.push({ x: x, text: text, anchor: rtl ? "end" : "start", line: mk.x, row: topBand.place(0, x0 - PAD, x0 + w + PAD), x0: x0, x1: x0 + w });
    });
    var upper = arcLayout(enhanced || basic, words, rtl, topBand), lower = enhanced ? arcLayout(basic, words, rtl, bottomBand) : null;
    var top = topBand.rows.length * BAND + 6;
    var base = top + upper.max * LH + 12, bottom = base + 36;
    var edge = lower ? bottom + lower.max * LH + 14 : 0;
    var height = lower ? edge + bottomBand.rows.length * BAND + 4 : base + 40;
    var box = svg("svg", { "class": "tree" + (enhanced ? " with-enhanced" : ""), width: String(Math.ceil(widthPx)), height: String(height),
                           "data-run": String(runIndex), role: "img", "aria-label": rowName + (enhanced ? " enhanced graph and tree" : " tree") });
    box.appendChild(svg("title", null, rowName + (enhanced ? " enhanced graph (above) and basic tree (below)" : " tree")));
    var lo = 0, hi = widthPx;
    function extent(x0, x1) { if (x0 < lo) { lo = x0; } if (x1 > hi) { hi = x1; } }
    for (i = 0; i < n; i++) {
      var w = words[i], g = svg("g", { "class": "word", "data-word": String(i) });
      if (w.title) { g.appendChild(svg("title", null, w.title)); g.setAttribute("tabindex", "0"); }
      var xd = w.x, y0 = base, lab;
      if (lower) { lab = lower.labels[i]; drawArc(g, basic[i], lower.level[i], lab, words, bottom, 1, edge, ""); }
      else { lab = upper.labels[i]; drawArc(g, basic[i], upper.level[i], lab, words, base, -1, top, ""); }
      extent(lab.x0, lab.x1);
      g.appendChild(svg("text", { "class": "form", x: String(xd), y: String(y0 + 14), "text-anchor": "middle" }, w.form));
      if (w.unal) { g.appendChild(svg("rect", { "class": "unal", x: String(xd - w.w / 2 - 2), y: String(y0 + 1), width: String(w.w + 4), height: "17" })); }
      else if (w.mwt) { g.appendChild(svg("rect", { "class": "mwt", x: String(xd - w.w / 2 - 2), y: String(y0 + 1), width: String(w.w + 4), height: "17", rx: "3" })); }
      g.appendChild(svg("text", { "class": "upos " + (w.ucls || ""), x: String(xd), y: String(y0 + 29), "text-anchor": "middle" },
                        w.upos + (w.ucls === "bad" ? " \u2717" : "")));
      box.appendChild(g);
    }
    if (enhanced) {
      var eg = svg("g", { "class": "enhanced" });
      enhanced.forEach(function (a, k) {
        var one = svg("g", { "class": "edge", "data-word": String(a.dep) });
        if (a.title) { one.appendChild(svg("title", null, a.title)); one.setAttribute("tabindex", "0"); }
        drawArc(one, a, upper.level[k], upper.labels[k], words, base, -1, top, "earc ");
        extent(upper.labels[k].x0, upper.labels[k].x1);
        eg.appendChild(one);
      });
      box.appendChild(eg);
    }
    splits.forEach(function (sp) {
      box.appendChild(svg("line", { "class": "split", x1: String(sp.line), x2: String(sp.line), y1: String(top), y2: String(height - 2) }));
      box.appendChild(svg("text", { "class": "split", x: String(sp.x), y: String(top - 4 - sp.row * BAND), "text-anchor": sp.anchor }, sp.text));
      extent(sp.x0 - PAD, sp.x1 + PAD);
    });
    (marks || []).forEach(function (mk) {
      if (mk.kind === "split") { return; }
      var start = mk.x < widthPx / 2;
      box.appendChild(svg("text", { "class": "split cont", x: String(mk.x), y: String(base + 14), "text-anchor": start ? "start" : "end" }, "\u2026"));
    });
    box.extent = [lo, hi];
    return box;
  }

  /* Every tree of a sentence gets the same viewBox, wide enough for all their labels, so the
     columns stay aligned and no label is cut at the edge. */
  function fitTrees(boxes, widthPx) {
    var lo = 0, hi = widthPx;
    boxes.forEach(function (b) { lo = Math.min(lo, b.extent[0] - 2); hi = Math.max(hi, b.extent[1] + 2); });
    lo = Math.floor(lo); hi = Math.ceil(hi);
    boxes.forEach(function (b) {
      b.setAttribute("viewBox", lo + " 0 " + (hi - lo) + " " + b.getAttribute("height"));
      b.setAttribute("width", String(hi - lo));
    });
  }

  /* The enhanced edges of words w0..w1 of a CSR edge table E (null without one); right: per
     edge class, for a system's edges. */
  function enhancedEdges(E, w0, w1, labels, system) {
    if (!E) { return null; }
    var out = [];
    for (var j = w0; j < w1; j++) {
      for (var e = E.o[j]; e < E.o[j + 1]; e++) {
        var cls = system ? (E.k[e] ? "ok" : "bad") : "gold", label = labels[E.d[e]];
        var title = "enhanced edge " + label + (E.h[e] === -1 ? " from the root" : "") +
          (system ? (E.k[e] ? ": in the gold graph" : ": not in the gold graph (head or label path)") : "");
        out.push({ dep: j - w0, head: E.h[e], label: label, cls: cls, lcls: cls, title: title, status: system ? cls : "gold" });
      }
    }
    return out;
  }

  function show() {
    var P = state.P, tb = P.tb;
    view.textContent = "";
    if (!state.order.length) { view.appendChild(el("p", null, "No sentence matches the filters.")); return; }
    var s = state.order[state.sel], g0 = P.gstart[s], g1 = P.gstart[s + 1], n = g1 - g0;
    var head = el("h3", null, (tb.gold.id[s] || "sentence " + (s + 1)) + "  (" + n + " words, gold line " + tb.gold.line[s] + ")");
    head.setAttribute("id", "sentence-title");
    view.appendChild(head);
    var badges = el("div", { "class": "badges" });
    P.runs.forEach(function (R, r) {
      var items = [["LAS", R.las], ["UAS", R.uas], ["UPOS", R.upos]];
      items.forEach(function (it) {
        var c = it[1][0][s], gg = it[1][1][s], ss = it[1][2][s];
        badges.appendChild(el("span", { "class": (c === gg && c === ss) ? "" : "bad" },
          tb.systems[r] + " " + it[0] + " " + c + "/" + gg + " (P " + pct(c, ss) + ", R " + pct(c, gg) + ")"));
      });
      if (!R.split[s]) { badges.appendChild(el("span", { "class": "bad" }, tb.systems[r] + ": sentence boundaries differ")); }
    });
    view.appendChild(badges);
    var rtl = isRtl(sentenceText(P, s));
    var text = el("p", { "class": "note", dir: rtl ? "rtl" : "ltr" }, sentenceText(P, s)); view.appendChild(text);

    // columns: one per gold word, wide enough for the gold word and each system's words under it
    var colW = new Float64Array(n), gw = new Float64Array(n), i, r, j;
    for (i = 0; i < n; i++) {
      gw[i] = Math.max(width(tb.forms[P.gf[g0 + i]], 13), width(tb.tags[P.gu[g0 + i]], 10.5));
      /* wide enough for most of its label: fewer arcs raised to keep labels apart */
      colW[i] = Math.max(gw[i], 0.7 * width(tb.labels[P.gd[g0 + i]], 10.5));
    }
    var perRun = [];
    for (r = 0; r < P.runs.length; r++) {
      var R = P.runs[r], w0 = R.start[s], w1 = R.start[s + 1], cols = [], used = new Float64Array(n);
      for (j = w0; j < w1; j++) {
        var col = R.a[j] >= 0 ? R.a[j] : -R.a[j] - 1;
        var ww = Math.max(width(tb.forms[R.f[j]], 13), width(tb.tags[R.u[j]], 10.5)) + 4;
        cols.push([col, ww]);
        used[col] += ww + (used[col] ? 14 : 0);
      }
      for (i = 0; i < n; i++) { colW[i] = Math.max(colW[i], used[i]); }
      perRun.push(cols);
    }
    var colX = new Float64Array(n + 1), GAP = 18;
    colX[0] = 44;  /* room for a hook to an earlier sentence */
    for (i = 0; i < n; i++) { colW[i] += GAP; colX[i + 1] = colX[i] + colW[i]; }
    var total = colX[n] + 44;
    function X(x) { return rtl ? total - x : x; }  /* right-to-left sentences: mirrored columns */
    var boxes = [];
    function tree(box) { boxes.push(box); trees.appendChild(box); }
    var scroller = el("div", { "class": "trees" }), trees = el("div", { "class": "trees-inner" });
    scroller.appendChild(trees);  /* the row names stay in view when the trees scroll sideways */
    var unalignedIn = new Array(n);
    // gold
    var goldWords = [];
    for (i = 0; i < n; i++) {
      var gi = g0 + i, missing = [];
      for (r = 0; r < P.runs.length; r++) { if (P.runs[r].status[gi] === 4) { missing.push(tb.systems[r]); } }
      unalignedIn[i] = missing;
      goldWords.push({ x: X(colX[i] + colW[i] / 2), w: gw[i], form: tb.forms[P.gf[gi]], upos: tb.tags[P.gu[gi]],
                       head: P.gh[gi], label: tb.labels[P.gd[gi]], cls: "gold", lcls: "gold", mwt: P.mwt[gi],
                       unal: missing.length > 0, title: missing.length ? "no partner in " + missing.join(", ") : null });
    }
    trees.appendChild(el("div", { "class": "rowname" }, "gold"));
    var withEnhanced = showEnhanced.checked && P.ge;
    tree(drawTree(goldWords, "gold", -1, total, [],
                  withEnhanced ? enhancedEdges(P.ge, g0, g1, tb.labels, false) : null, rtl));
    for (r = 0; r < P.runs.length; r++) {
      var Rr = P.runs[r], a0 = Rr.start[s], a1 = Rr.start[s + 1], words = [], cursor = {}, marks = [];
      var fill = new Float64Array(n);
      for (j = a0; j < a1; j++) { var c0 = perRun[r][j - a0][0]; fill[c0] += perRun[r][j - a0][1] + (fill[c0] ? 14 : 0); }
      for (j = a0; j < a1; j++) {
        var cw = perRun[r][j - a0], c = cw[0];
        if (cursor[c] === undefined) { cursor[c] = colX[c] + (colW[c] - fill[c]) / 2; }
        var x = cursor[c] + cw[1] / 2; cursor[c] += cw[1] + 14;
        var al = Rr.a[j], st = al >= 0 ? (Rr.status[g0 + al] & 7) : 4, upw = al >= 0 ? (Rr.status[g0 + al] & 8) : 8;
        var headOk = st === 0 || st === 1, labelOk = st === 0 || st === 2;
        var title = STATUS[st];
        if (al >= 0 && st !== 0) {
          var gh = P.gh[g0 + al];
          title += "; gold: " + (gh < 0 ? "root" : "head " + tb.forms[P.gf[g0 + gh]] + " (" + (gh + 1) + ")") + ", " + tb.labels[P.gd[g0 + al]];
        }
        if (al >= 0 && upw) { title += "; gold UPOS " + tb.tags[P.gu[g0 + al]]; }
        if (Rr.h[j] <= -2) { title += "; its head is in " + (Rr.h[j] === -2 ? "an earlier" : "a later") + " gold sentence"; }
        words.push({ x: X(x), w: cw[1] - 4, form: tb.forms[Rr.f[j]], upos: tb.tags[Rr.u[j]], head: Rr.h[j],
                     label: tb.labels[Rr.d[j]], cls: headOk ? "ok" : "bad", lcls: labelOk ? "ok" : "bad",
                     ucls: upw ? "bad" : "", unal: al < 0, title: title, status: STATUS[st] });
        if (Rr.brk[j] && j > a0) { marks.push({ kind: "split", x: X(x - cw[1] / 2 - 8) }); }
      }
      if (a1 > a0 && !Rr.brk[a0]) { marks.push({ kind: "cont", x: X(2) }); }
      if (a1 < Rr.brk.length && a1 > a0 && !Rr.brk[a1]) { marks.push({ kind: "cont", x: X(total - 2) }); }
      trees.appendChild(el("div", { "class": "rowname" }, tb.systems[r] + (words.length ? "" : " (no words)")));
      var edges = withEnhanced ? (enhancedEdges(Rr.e, a0, a1, tb.labels, true) || []) : null;
      if (edges && !edges.length) { trees.lastChild.textContent += " (no enhanced edges)"; }
      tree(drawTree(words, tb.systems[r], r, total, marks, edges, rtl));
    }
    fitTrees(boxes, total);
    view.appendChild(scroller);
    if (rtl) { scroller.scrollLeft = scroller.scrollWidth; }  /* the sentence's start in view */
    view.appendChild(el("p", { "class": "note" },
      "Blue solid: right. Red dashed arc: wrong head; \u2717 after a label or UPOS: wrong; dotted box: word without a partner in the other file; \u00b6 line: a system sentence starts there; \u2026: the system sentence goes on beyond this gold sentence; \u2190 label / label \u2192: the head is in an earlier / a later gold sentence. Hover a word for the gold analysis." +
      (withEnhanced ? " Enhanced graph: the DEPS edges above the words (blue: the gold graph has the edge, same head and label path; red dashed: it has not), the basic tree below; edges of empty nodes are not drawn (nor scored) unless --collapse-empty-nodes." : "")));
  }

  /* ---- events ------------------------------------------------------------------------ */
  [scopeSelect, onlyErrors, relSelect, uposSelect].forEach(function (c) { c.addEventListener("change", function () { apply(false); remember(); }); });
  sortSelect.addEventListener("change", function () { apply(true); remember(); });
  showEnhanced.addEventListener("change", function () { if (state.order.length) { show(); } });
  [search, minLen, maxLen].forEach(function (c) { c.addEventListener("input", function () { apply(false); remember(); }); });
  tbSelect.addEventListener("change", function () { loadTreebank(parseInt(tbSelect.value, 10)); });
  document.addEventListener("keydown", function (e) {
    var t = e.target, tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    var typing = tag === "input" || tag === "select" || tag === "textarea";
    if (typing) { if (e.key === "Escape") { t.blur(); list.focus(); } return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === "/") { search.focus(); e.preventDefault(); return; }
    if (e.key === "e") { if (!showEnhanced.disabled) { showEnhanced.checked = !showEnhanced.checked; show(); } return; }
    if (t !== list) { return; }  /* elsewhere arrows, PgUp/PgDn, Home/End scroll the page */
    var page = Math.max(1, Math.floor(list.clientHeight / ROW) - 1), handled = true;
    switch (e.key) {
      case "ArrowDown": case "j": select(state.sel + 1); break;
      case "ArrowUp": case "k": select(state.sel - 1); break;
      case "PageDown": select(state.sel + page); break;
      case "PageUp": select(state.sel - page); break;
      case "Home": select(0); break;
      case "End": select(state.order.length - 1); break;
      default: handled = false;
    }
    if (handled) { e.preventDefault(); }
  });

  var api = window.conllEvalReport = { apply: apply, select: select, filterMs: 0, shown: 0,
    current: function () { return state.order.length ? state.order[state.sel] : -1; },
    treebank: function (i) { tbSelect.value = String(i); loadTreebank(i); } };
  loadTreebank(0);
  reopen();
  api.startedAt = T0;
  api.parsed = function () { return DATA.treebanks.filter(function (t) { return !!t.record; }).length; };
  api.initMs = performance.now() - T0;
  api.readyAt = performance.now();
  api.ready = true;
}
/* after the first contentful paint (the summary), or 250 ms where none is reported (a
   background tab, an older browser) */
(function () {
  var started = false;
  function start() { if (!started) { started = true; conllEvalBrowser(); } }
  function painted() { return performance.getEntriesByName && performance.getEntriesByName("first-contentful-paint").length > 0; }
  if (window.PerformanceObserver && window.performance && !painted()) {
    try {
      new PerformanceObserver(function (list, observer) {
        if (list.getEntriesByName("first-contentful-paint").length) { observer.disconnect(); setTimeout(start, 0); }
      })
        .observe({ type: "paint", buffered: true });
    } catch (err) { /* no paint timing: the timeout below starts it */ }
    setTimeout(start, 250);
  } else { setTimeout(start, 0); }
})();
