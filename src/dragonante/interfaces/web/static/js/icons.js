// Small icons drawn as inline SVG: an emoji or a rare symbol is a
// missing-glyph box on a machine without an emoji font (Debian's Chromium
// has none), and SVG looks the same everywhere. Each icon is 1em square,
// takes the text's color unless it has its own, and is decorative (the text
// beside it, or the label of its container, says what it means).

const NS = "http://www.w3.org/2000/svg";

// name -> [viewBox 0 0 24 24 paths as [d, fill]]; "currentColor" follows the text.
const ICONS = {
  // A cup on a stem: the game's winner.
  trophy: [
    ["M7 3h10v5.5a5 5 0 0 1-10 0Z", "#f2c230"],
    ["M7 4.5H3.5V7a4 4 0 0 0 4.1 4l.4-1.6A2.5 2.5 0 0 1 5 7v-1h2Z", "#f2c230"],
    ["M17 4.5h3.5V7a4 4 0 0 1-4.1 4l-.4-1.6A2.5 2.5 0 0 0 19 7v-1h-2Z", "#f2c230"],
    ["M11 13h2v4.5h-2Z", "#d6a520"],
    ["M7.5 18h9v3h-9Z", "#b8891a"],
  ],
  // A three-pointed crown: the leader, a gambit's or the game's winner.
  crown: [["M3 18 2 7l5.5 4.5L12 4l4.5 7.5L22 7l-1 11Z", "currentColor"], ["M3.2 19.5h17.6V21H3.2Z", "currentColor"]],
  // A triangle pointing right: whose turn it is.
  turn: [["M7 4.5v15L20 12Z", "currentColor"]],
  // A lightning bolt: a card of your hand that would trigger if played now.
  bolt: [["M14 2 4 14h6.5L9 22l11-13h-6.8Z", "#ffe066"]],
};

export function icon(name, { cls = "" } = {}) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", `icon icon-${name}${cls ? ` ${cls}` : ""}`);
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [d, fill] of ICONS[name]) {
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", fill);
    svg.append(path);
  }
  return svg;
}
