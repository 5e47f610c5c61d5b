"use strict";
// Shows one translation's attention (TranslationAttention.to_dict(), passed to showAttention)
// in the #mode, #kind, #layer and #head controls, the #legend and svg#view.  Three views:
// "lines" (bertviz's head view: a line per query-key pair, its opacity the weight), "matrix"
// (a heatmap of the chosen heads' mean) and "overview" (every layer × head as a small heatmap;
// a click opens that one as a matrix).
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"];
// The lines view: rows of ROW_HEIGHT; a label column at least MIN_LABEL wide on each side (room
// for the axis titles), widened for longer pieces, and LINES_GAP between them for the lines.
const ROW_HEIGHT = 24, TOP = 40, MIN_LABEL = 254, LINES_GAP = 240, MARGIN = 6;
const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 22, THUMB_CELL = 4, THUMB_GAP = 18;
const controls = { mode: byId("mode"), kind: byId("kind"), layer: byId("layer"), head: byId("head") };
const svg = byId("view");
let DATA = null;

function byId(id) { return document.getElementById(id); }

function element(name, attributes, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function fillSelect(select, values, labels) {
  const previous = select.value;
  select.replaceChildren(...values.map((value, i) => new Option(labels[i], value)));
  if (values.includes(previous)) select.value = previous;
}

// The chosen view, from the controls: weights of the chosen heads, [head][row][col].
function chosen() {
  const kind = DATA.kinds[controls.kind.value];
  const layer = kind.weights[Number(controls.layer.value)];
  const heads = controls.head.value === "all" ? layer.map((_, h) => h) : [Number(controls.head.value)];
  return { kind, heads, weights: heads.map(h => layer[h]) };
}

function refreshChoices() {
  const kind = DATA.kinds[controls.kind.value];
  const layers = kind.weights.map((_, i) => String(i));
  fillSelect(controls.layer, layers, layers);
  const heads = kind.weights[0].map((_, h) => String(h));
  fillSelect(controls.head, ["all", ...heads], ["all (overlaid)", ...heads]);
}

function render() {
  const mode = controls.mode.value;
  controls.layer.disabled = controls.head.disabled = mode === "overview";
  if (mode === "matrix") renderMatrix();
  else if (mode === "overview") renderOverview();
  else renderLines();
  const view = `mode=${mode}&kind=${controls.kind.value}&layer=${controls.layer.value}&head=${controls.head.value}`;
  history.replaceState(null, "", "#" + view);
  document.body.dataset.view = view;
}

function showLegend(heads) {
  byId("legend").replaceChildren(...heads.map(h => {
    const span = document.createElement("span");
    span.style.background = COLORS[h % COLORS.length];
    span.textContent = "head " + h;
    return span;
  }));
}

// A heatmap of matrix [row][col] with its top-left corner at (x, y), cells `size` wide.
function heatmap(matrix, x, y, size) {
  const group = element("g", {});
  matrix.forEach((row, i) => row.forEach((w, j) => {
    group.appendChild(element("rect", { x: x + j * size, y: y + i * size, width: size, height: size,
                                        class: "cell", "fill-opacity": w, "data-row": i, "data-col": j }));
  }));
  return group;
}

function renderMatrix() {
  const { kind, heads, weights } = chosen();
  const mean = kind.rows.map((_, i) => kind.cols.map((_, j) =>
    weights.reduce((sum, m) => sum + m[i][j], 0) / weights.length));
  // Room for the row labels on the left and the slanted column labels on top.
  const longest = labels => Math.max(4, ...labels.map(label => label.length));
  const left = 20 + 8.5 * longest(kind.rows), top = 56 + 7.5 * longest(kind.cols);
  svg.setAttribute("width", Math.max(left + CELL * kind.cols.length + 60, 420));
  svg.setAttribute("height", top + CELL * kind.rows.length + 20);
  svg.replaceChildren(
    element("text", { x: 0, y: 16, class: "head" }, "rows: " + kind.row_title),
    element("text", { x: 0, y: 34, class: "head" }, "columns: " + kind.col_title),
    heatmap(mean, left, top, CELL),
    ...kind.rows.map((label, i) => element("text", { x: left - 6, y: top + CELL * i + 16, "text-anchor": "end",
                                                    class: "token row" }, label)),
    ...kind.cols.map((label, j) => element("text", { x: 0, y: 0, class: "token col",
      transform: `translate(${left + CELL * j + 15}, ${top - 6}) rotate(-60)` }, label)));
  showLegend(heads);
}

function renderOverview() {
  const kind = DATA.kinds[controls.kind.value];
  const width = THUMB_CELL * kind.cols.length, height = THUMB_CELL * kind.rows.length;
  const left = 70, top = 56, stepX = Math.max(width, 40) + THUMB_GAP, stepY = height + THUMB_GAP + 14;
  svg.setAttribute("width", Math.max(left + stepX * kind.weights[0].length + 10, 640));
  svg.setAttribute("height", top + stepY * kind.weights.length + 10);
  svg.replaceChildren(element("text", { x: 0, y: 16, class: "head" }, kind.title),
                      element("text", { x: 0, y: 34, class: "head" }, "every layer × head; click one to open it"));
  kind.weights.forEach((layer, l) => {
    svg.appendChild(element("text", { x: 0, y: top + stepY * l + 14, class: "head" }, "layer " + l));
    layer.forEach((matrix, h) => {
      const x = left + stepX * h, y = top + stepY * l;
      const thumb = element("g", { class: "thumb", "data-layer": l, "data-head": h });
      thumb.append(element("text", { x, y: y + 10, class: "head" }, "head " + h),
                   element("rect", { x: x - 1, y: y + 13, width: width + 2, height: height + 2, fill: "none",
                                     stroke: "#ccc", class: "frame" }),
                   heatmap(matrix, x, y + 14, THUMB_CELL));
      thumb.addEventListener("click", () => {
        controls.layer.value = String(l);
        controls.head.value = String(h);
        controls.mode.value = "matrix";
        render();
      });
      svg.appendChild(thumb);
    });
  });
  byId("legend").replaceChildren();
}

// The widest of `labels` as the page draws them: measured, since a piece's characters need not
// be one monospace cell each (CJK takes two, Thai marks none).  8.5 px a character where the
// browser measures nothing.
function widest(labels) {
  const probe = element("text", {});
  svg.appendChild(probe);
  const widths = labels.map(label => {
    probe.textContent = label;
    return probe.getComputedTextLength() || 8.5 * label.length;
  });
  probe.remove();
  return Math.max(0, ...widths);
}

function renderLines() {
  const { kind, heads, weights } = chosen();
  // The label columns fit the longest piece whole, so neither side is cut at the picture's edge.
  const rowsWide = widest(kind.rows), colsWide = widest(kind.cols);
  const leftX = MARGIN + Math.max(MIN_LABEL, rowsWide + MARGIN), rightX = leftX + LINES_GAP;
  const height = TOP + ROW_HEIGHT * Math.max(kind.rows.length, kind.cols.length) + 10;
  svg.setAttribute("width", rightX + Math.max(MIN_LABEL, colsWide + MARGIN) + MARGIN);
  svg.setAttribute("height", height);
  svg.replaceChildren(
    element("text", { x: leftX, y: 16, "text-anchor": "end", class: "head" }, kind.row_title),
    element("text", { x: rightX, y: 16, class: "head" }, kind.col_title));
  const y = i => TOP + ROW_HEIGHT * i;
  const lines = element("g", {});
  weights.forEach((matrix, n) => matrix.forEach((row, i) => row.forEach((w, j) => {
    if (w < 0.005) return;
    lines.appendChild(element("line", {
      x1: leftX + 6, y1: y(i) - 5, x2: rightX - 6, y2: y(j) - 5, stroke: COLORS[heads[n] % COLORS.length],
      "stroke-width": 2.5, "stroke-opacity": w, "data-row": i, "data-col": j }));
  })));
  svg.appendChild(lines);
  const tokens = (labels, side, x, anchor) => labels.map((label, i) => {
    const width = Math.max(134, (anchor === "end" ? rowsWide : colsWide) + 8);
    const highlight = element("rect", { x: anchor === "end" ? x - width + 4 : x - 4, y: y(i) - 18, width,
                                        height: ROW_HEIGHT - 2, fill: "#ff0", "fill-opacity": 0 });
    const text = element("text", { x, y: y(i), "text-anchor": anchor }, label);
    const group = element("g", { class: "token " + side, "data-index": i }, undefined);
    group.append(highlight, text);
    group.addEventListener("mouseenter", () => focus(side, i));
    group.addEventListener("mouseleave", () => focus(null, -1));
    svg.appendChild(group);
    return highlight;
  });
  const rowMarks = tokens(kind.rows, "row", leftX, "end");
  const colMarks = tokens(kind.cols, "col", rightX, "start");
  const mean = (i, j) => weights.reduce((sum, m) => sum + m[i][j], 0) / weights.length;

  // Hovering row i shows its lines and shades each key by its weight; hovering key j the reverse.
  function focus(side, index) {
    for (const line of lines.children) {
      const mine = side === null || Number(line.dataset[side]) === index;
      line.style.display = mine ? "" : "none";
    }
    rowMarks.forEach((mark, i) => mark.setAttribute("fill-opacity",
      side === "col" ? mean(i, index) : side === "row" && i === index ? 0.6 : 0));
    colMarks.forEach((mark, j) => mark.setAttribute("fill-opacity",
      side === "row" ? mean(index, j) : side === "col" && j === index ? 0.6 : 0));
  }

  showLegend(heads);
}

// Applies "#mode=…&kind=…&layer=…&head=…" (each part optional) to the controls.  A kind counts
// only as the data's own key: "constructor" or "__proto__" reach Object.prototype's members,
// which hold no weights.
function applyHash() {
  if (DATA === null) return;
  const wanted = new URLSearchParams(location.hash.slice(1));
  if (Object.prototype.hasOwnProperty.call(DATA.kinds, wanted.get("kind"))) controls.kind.value = wanted.get("kind");
  refreshChoices();
  for (const name of ["mode", "layer", "head"]) {
    const value = wanted.get(name);
    if (value !== null && [...controls[name].options].some(o => o.value === value)) controls[name].value = value;
  }
  render();
}

// Shows new data; the chosen kind, layer and head stay where the new data has them.  The
// first data opens on cross-attention in the last layer, where attention aligns words best.
function showAttention(data) {
  const first = DATA === null;
  DATA = data;
  fillSelect(controls.kind, Object.keys(DATA.kinds), Object.values(DATA.kinds).map(k => k.title));
  if (first && DATA.kinds.cross) controls.kind.value = "cross";
  if (first) {
    refreshChoices();
    controls.layer.value = String(DATA.kinds[controls.kind.value].weights.length - 1);
  }
  applyHash();
}

controls.mode.addEventListener("change", render);
controls.kind.addEventListener("change", () => { refreshChoices(); render(); });
controls.layer.addEventListener("change", render);
controls.head.addEventListener("change", render);
window.addEventListener("hashchange", applyHash);
