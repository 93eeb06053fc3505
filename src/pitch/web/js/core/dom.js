// Tiny DOM helpers: build elements from plain data, no framework. Nothing here parses
// markup: every element is made with createElement(NS) and every text is a text node,
// so no name, card or server field can ever become HTML or script.

const SVG_NS = "http://www.w3.org/2000/svg";

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) {
      // A string would become an inline handler (script from text): functions only.
      if (typeof v !== "function") throw new TypeError(`h(): ${k} must be a function`);
      el.addEventListener(k.slice(2), v);
    } else if (k === "class") el.setAttribute("class", String(v));
    else if (k === "html") throw new TypeError("h(): no html option: pass elements as children");
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") {
      // CSSOM only (allowed by the Content-Security-Policy); never a style attribute.
      if (typeof v !== "object") throw new TypeError("h(): style must be an object");
      for (const [prop, val] of Object.entries(v)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, String(val));
        else el.style[prop] = val;
      }
    } else el.setAttribute(k, v === true ? "" : String(v));
  }
}

/** h("button", {class: "x", onclick: fn}, "text", child) -> HTMLElement */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** s("path", {d: "M0 0"}) -> SVGElement, built like h() (the client's own shapes). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** A size such as "1.6em" for an icon's width and height (our own constants only). */
export function emSize(size) {
  const text = String(size);
  if (!/^\d{1,2}(\.\d{1,2})?em$/.test(text)) throw new RangeError(`bad icon size ${JSON.stringify(text)}`);
  return text;
}

/** Append children: nodes as they are, anything else as a text node. */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

let toastTimer = 0;
let toastFrom = null; // the page that showed the toast now up, if it said (see dismissToast)
/** A short message in the shared live region (read by screen readers too): a text, or
 * texts and nodes (a refusal's link to its rule). `from` names a page whose toasts
 * mean nothing once it is left (dismissToast). */
export function toast(content, kind = "info", from = null) {
  const box = document.getElementById("toast");
  if (!box) return;
  append(clear(box), [content]);
  box.className = `toast show ${kind}`;
  toastFrom = from;
  hideToast(box, kind === "error" ? 5000 : 3000);
}

/** Take the toast off the screen if `from` showed it: a table's news ("Bot 3 made the
 * bid") would otherwise cover the next page's top bar. */
export function dismissToast(from) {
  const box = document.getElementById("toast");
  if (box && toastFrom === from) {
    clearTimeout(toastTimer);
    box.className = "toast";
    toastFrom = null;
  }
}

/** Take a refusal off the screen once the move it refused is behind us (the state
 * moved on): it would read as false of the next trick. */
export function dismissError() {
  const box = document.getElementById("toast");
  if (box?.classList.contains("error")) {
    clearTimeout(toastTimer);
    box.className = "toast";
  }
}

function hideToast(box, ms) {
  clearTimeout(toastTimer);
  // Not while the pointer or focus is on it: it may hold a link being reached for.
  toastTimer = setTimeout(() => (box.matches(":hover, :focus-within") ? hideToast(box, 1500) : (box.className = "toast")), ms);
}

/** Announce to screen readers without showing anything. */
export function announce(text) {
  // A log: each announcement is a new line, so a quick one does not cut off the last
  // before it was read (a replaced text is); only the last few are kept.
  const box = document.getElementById("announcer");
  if (!box) return;
  box.append(h("p", {}, text));
  while (box.childElementCount > 5) box.firstElementChild.remove();
}
