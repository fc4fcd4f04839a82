// A card's face drawn as SVG from its data (no image files, no web fonts):
// a frame in the dragon's color (striped when the card has several colors,
// or a chromatic / metallic palette for a colorless evil / good dragon),
// the strength in two corners, a mark for good, evil, mortal or dragon god,
// and the trigger mark on a card of your own hand that would trigger now.
// The name is not drawn here: it is HTML laid over the card (cards.js), so
// it wraps between words like any text and screen readers read it.

const NS = "http://www.w3.org/2000/svg";

// Every card is 5 wide by 7 high (the CSS sizes keep that ratio).
export const W = 50;
export const H = 70;

export const COLOR_FILL = {
  red: "#c0392b", blue: "#2e6cc2", black: "#262626", white: "#ecebe4", green: "#3b9149",
  gold: "#d6a520", silver: "#b9c3cc", bronze: "#a8702f", brass: "#cda547", copper: "#bf6536",
  mortal: "#7a5aa6", adamantine: "#5f7463", brown: "#7a5232", earthquake: "#8d6a3f",
  gray: "#858585", iron: "#5f666d", mercury: "#a9b4bf", mithral: "#d3dde8",
  purple: "#7a4bb0", shadow: "#3b3646", steel: "#76889a",
};
const CHROMATIC = ["red", "blue", "green", "black", "white"];
const METALLIC = ["gold", "silver", "bronze", "brass", "copper"];
const LIGHT = new Set(["white", "silver", "mithral", "mercury", "gold", "brass"]);

// The colors the frame is drawn in, from the card's data.
export function frameColors(card) {
  if (card.colors.length) return card.colors;
  if (card.kind === "mortal") return ["mortal"];
  if (card.alignment === "evil") return CHROMATIC;
  if (card.alignment === "good") return METALLIC;
  return ["gray"];
}

// "good", "evil", "mortal", "god" or "" (an unaligned dragon).
export function markKind(card) {
  if (card.kind === "dragon god") return "god";
  if (card.kind === "mortal") return "mortal";
  if (card.alignment === "good" || card.alignment === "evil") return card.alignment;
  return "";
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

// The alignment / kind marks, centred on (0, 0), about 8 units wide.
const MARKS = {
  // A five-pointed star.
  good: () => el("path", { d: "M0-4.6 1.1-1.5 4.4-1.4 1.8.6 2.7 3.8 0 1.9-2.7 3.8-1.8.6-4.4-1.4-1.1-1.5Z", fill: "#fff6c9", stroke: "#6b5300", "stroke-width": 0.5 }),
  // Horns.
  evil: () => el("path", { d: "M-4.4-4 C-3.6-.6-2 .8 0 .8 2 .8 3.6-.6 4.4-4 4.3 1.2 2.4 3.8 0 3.8-2.4 3.8-4.3 1.2-4.4-4Z", fill: "#ff8f7a", stroke: "#4a0c05", "stroke-width": 0.5 }),
  // A person: head and shoulders.
  mortal: () => el("g", { fill: "#efe4ff", stroke: "#2c1a47", "stroke-width": 0.5 }, el("circle", { cx: 0, cy: -1.8, r: 1.9 }), el("path", { d: "M-3.6 4C-3.6 1.2-2 .4 0 .4S3.6 1.2 3.6 4Z" })),
  // A crown.
  god: () => el("path", { d: "M-4.5 3.4-4.5-2.6-2.2-.2 0-4 2.2-.2 4.5-2.6 4.5 3.4Z", fill: "#ffd84d", stroke: "#5a4000", "stroke-width": 0.5 }),
};

// A lightning bolt: this card of your hand would trigger if played now.
function triggerMark() {
  return el("path", { class: "trigger-mark", d: "M1.5-5-3.5 1H0l-1.5 4L3.5-1H0Z", transform: `translate(8 ${H - 8})`, fill: "#ffe066", stroke: "#3a2b00", "stroke-width": 0.6 });
}

function corner(strength, x, y, rotate, ink) {
  return el("text", {
    x, y,
    transform: rotate ? `rotate(180 ${W / 2} ${H / 2})` : "",
    "font-size": strength >= 10 ? 10 : 11,
    "font-weight": 800,
    "font-family": "system-ui, sans-serif",
    fill: ink,
    "text-anchor": "middle",
  }, String(strength));
}

// The SVG for one card (decorative: the button around it carries the label).
export function cardSvg(card, { triggers = false } = {}) {
  const colors = frameColors(card);
  const svg = el("svg", { class: "card-art", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", focusable: "false" });
  // The frame: one band per color, side by side, clipped to a rounded card.
  const frame = el("g", { class: "frame" });
  const band = W / colors.length;
  colors.forEach((c, i) => {
    frame.append(el("rect", { x: i * band, y: 0, width: band + 0.2, height: H, fill: COLOR_FILL[c] || "#999" }));
  });
  svg.append(frame);
  // Parchment inside the frame, and the name's band across the middle.
  svg.append(el("rect", { x: 3.5, y: 3.5, width: W - 7, height: H - 7, rx: 3, fill: "#f1e6cc", stroke: "#00000055", "stroke-width": 0.6 }));
  svg.append(el("rect", { x: 3.5, y: 17, width: W - 7, height: 36, fill: "#fffaf0" }));
  const main = colors[0];
  const ink = "#1b1712";
  // Corner plates in the main color so the strength reads on any frame.
  const plate = COLOR_FILL[main] || "#999";
  const plateInk = LIGHT.has(main) ? ink : "#fff";
  svg.append(el("circle", { cx: 10, cy: 10.5, r: 7, fill: plate, stroke: "#00000066", "stroke-width": 0.6 }));
  svg.append(el("circle", { cx: W - 10, cy: H - 10.5, r: 7, fill: plate, stroke: "#00000066", "stroke-width": 0.6 }));
  svg.append(corner(card.strength, 10, 14.3, false, plateInk));
  svg.append(corner(card.strength, 10, 14.3, true, plateInk));
  const mark = markKind(card);
  if (mark) {
    svg.append(el("circle", { cx: W - 10, cy: 10.5, r: 6, fill: "#1b1712cc" }));
    svg.append(el("g", { class: `mark mark-${mark}`, transform: `translate(${W - 10} 10.5)` }, MARKS[mark]()));
  }
  if (triggers) {
    svg.append(el("circle", { cx: 8, cy: H - 8, r: 6, fill: "#1b1712cc" }));
    svg.append(triggerMark());
  }
  return svg;
}

// The back of a card (another seat's hand).
export function backSvg() {
  const svg = el("svg", { class: "card-art", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, rx: 4, fill: "#7a2a1a" }));
  svg.append(el("rect", { x: 4, y: 4, width: W - 8, height: H - 8, rx: 3, fill: "none", stroke: "#e0a526", "stroke-width": 1.2 }));
  svg.append(el("path", { d: `M${W / 2} 18 ${W - 12} ${H / 2} ${W / 2} ${H - 18} 12 ${H / 2}Z`, fill: "#a33c22", stroke: "#e0a526", "stroke-width": 1 }));
  return svg;
}
