"use strict";
// Shows one translation's attention (TranslationAttention.to_dict(), passed to showAttention)
// in the #kind, #layer and #head controls, the #legend and svg#view.
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"];
const ROW_HEIGHT = 24, LEFT_X = 260, RIGHT_X = 500, TOP = 40;
const SVG_NS = "http://www.w3.org/2000/svg";
const controls = { kind: byId("kind"), layer: byId("layer"), head: byId("head") };
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
  const { kind, heads, weights } = chosen();
  const height = TOP + ROW_HEIGHT * Math.max(kind.rows.length, kind.cols.length) + 10;
  svg.setAttribute("width", RIGHT_X + 260);
  svg.setAttribute("height", height);
  svg.replaceChildren(
    element("text", { x: LEFT_X, y: 16, "text-anchor": "end", class: "head" }, kind.row_title),
    element("text", { x: RIGHT_X, y: 16, class: "head" }, kind.col_title));
  const y = i => TOP + ROW_HEIGHT * i;
  const lines = element("g", {});
  weights.forEach((matrix, n) => matrix.forEach((row, i) => row.forEach((w, j) => {
    if (w < 0.005) return;
    lines.appendChild(element("line", {
      x1: LEFT_X + 6, y1: y(i) - 5, x2: RIGHT_X - 6, y2: y(j) - 5, stroke: COLORS[heads[n] % COLORS.length],
      "stroke-width": 2.5, "stroke-opacity": w, "data-row": i, "data-col": j }));
  })));
  svg.appendChild(lines);
  const tokens = (labels, side, x, anchor) => labels.map((label, i) => {
    const highlight = element("rect", { x: anchor === "end" ? x - 130 : x - 4, y: y(i) - 18, width: 134,
                                        height: ROW_HEIGHT - 2, fill: "#ff0", "fill-opacity": 0 });
    const text = element("text", { x, y: y(i), "text-anchor": anchor }, label);
    const group = element("g", { class: "token " + side, "data-index": i }, undefined);
    group.append(highlight, text);
    group.addEventListener("mouseenter", () => focus(side, i));
    group.addEventListener("mouseleave", () => focus(null, -1));
    svg.appendChild(group);
    return highlight;
  });
  const rowMarks = tokens(kind.rows, "row", LEFT_X, "end");
  const colMarks = tokens(kind.cols, "col", RIGHT_X, "start");
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

  byId("legend").replaceChildren(...heads.map(h => {
    const span = document.createElement("span");
    span.style.background = COLORS[h % COLORS.length];
    span.textContent = "head " + h;
    return span;
  }));
  const view = `kind=${controls.kind.value}&layer=${controls.layer.value}&head=${controls.head.value}`;
  history.replaceState(null, "", "#" + view);
  document.body.dataset.view = view;
}

// Applies "#kind=…&layer=…&head=…" (each part optional) to the controls.
function applyHash() {
  if (DATA === null) return;
  const wanted = new URLSearchParams(location.hash.slice(1));
  if (DATA.kinds[wanted.get("kind")]) controls.kind.value = wanted.get("kind");
  refreshChoices();
  for (const name of ["layer", "head"]) {
    const value = wanted.get(name);
    if (value !== null && [...controls[name].options].some(o => o.value === value)) controls[name].value = value;
  }
  render();
}

// Shows new data; the chosen kind, layer and head stay where the new data has them.
function showAttention(data) {
  const first = DATA === null;
  DATA = data;
  fillSelect(controls.kind, Object.keys(DATA.kinds), Object.values(DATA.kinds).map(k => k.title));
  if (first && DATA.kinds.cross) controls.kind.value = "cross";
  applyHash();
}

controls.kind.addEventListener("change", () => { refreshChoices(); render(); });
controls.layer.addEventListener("change", render);
controls.head.addEventListener("change", render);
window.addEventListener("hashchange", applyHash);
