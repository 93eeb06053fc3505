// Small SVG icons (no icon font or emoji font needed), built as elements.

import { emSize, s } from "./dom.js";

const PATHS = {
  first: "M4 4h3v16H4zM20 4v16L8 12z",
  prevHand: "M12 4v16L2 12zM22 4v16L12 12z",
  // One step is a chevron, so it never looks like play (a solid triangle).
  prev: "M15.5 4 18 6.5 12.5 12l5.5 5.5-2.5 2.5-8-8z",
  play: "M7 4v16l12-8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
  next: "M8.5 4 6 6.5l5.5 5.5L6 17.5 8.5 20l8-8z",
  nextHand: "M2 4v16l10-8zM12 4v16l10-8z",
  last: "M4 4v16l12-8zM17 4h3v16h-3z",
  book: "M2 5c3.5-1.2 7-1 9.2 1.2V20C9 18 5.5 17.8 2 19zM22 5c-3.5-1.2-7-1-9.2 1.2V20c2.2-2 5.7-2.2 9.2-1z",
  key: "M7 7a5 5 0 1 0 4.9 6H14v3h3v-3h2v3h3v-5H11.9A5 5 0 0 0 7 7zm0 3.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 1 1 0-3z",
  person: "M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z",
  bulb: "M12 2a7 7 0 0 0-4 12.7V18h8v-3.3A7 7 0 0 0 12 2zM9 20h6v2H9z",
  flag: "M5 2h2v20H5zM8 3h12l-3 4.5L20 12H8z",
  trophy: "M6 3h12v2h3v3a5 5 0 0 1-4.3 5A5 5 0 0 1 13 15.9V18h3v3H8v-3h3v-2.1A5 5 0 0 1 7.3 13 5 5 0 0 1 3 8V5h3zm0 4H5v1a3 3 0 0 0 1 2.2zm12 0v3.2A3 3 0 0 0 19 8V7z",
  globe:
    "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm6.9 9h-3a15 15 0 0 0-1.3-6 8 8 0 0 1 4.3 6zM12 4c.9 1.2 1.8 3.5 2 7h-4c.2-3.5 1.1-5.8 2-7zM9.4 5a15 15 0 0 0-1.3 6h-3a8 8 0 0 1 4.3-6zM5.1 13h3a15 15 0 0 0 1.3 6 8 8 0 0 1-4.3-6zM12 20c-.9-1.2-1.8-3.5-2-7h4c-.2 3.5-1.1 5.8-2 7zm2.6-1a15 15 0 0 0 1.3-6h3a8 8 0 0 1-4.3 6z",
};

/** An icon as an SVG element; `name` must be one of PATHS (anything else throws). */
export function icon(name, size = "1.2em") {
  if (!Object.hasOwn(PATHS, name)) throw new RangeError(`no icon ${JSON.stringify(String(name))}`);
  return s(
    "svg",
    { class: "icon", viewBox: "0 0 24 24", width: emSize(size), height: emSize(size), "aria-hidden": "true", focusable: "false" },
    s("path", { fill: "currentColor", d: PATHS[name] }),
  );
}
