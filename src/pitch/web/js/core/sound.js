// Short sounds made with Web Audio (no files to load); off when the setting is off.

import * as settings from "./settings.js";

let ctx = null;

function tone(freq, ms, type = "sine", gain = 0.08) {
  if (!settings.get("sound")) return;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.type = type;
    o.frequency.value = freq;
    g.gain.setValueAtTime(gain, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + ms / 1000);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + ms / 1000);
  } catch {
    // No audio device: stay silent.
  }
}

export const click = () => tone(660, 60, "triangle");
export const card = () => tone(320, 90, "triangle", 0.1);
export const turn = () => tone(880, 120, "sine", 0.06);
export const trick = () => tone(520, 140, "sine", 0.06);
export const refuse = () => tone(180, 160, "square", 0.04);
export const win = () => [523, 659, 784].forEach((f, i) => setTimeout(() => tone(f, 200), i * 140));
