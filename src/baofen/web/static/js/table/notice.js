// Your turn, noticed: when it becomes this player's turn, a short sound (if turned on), the
// tab's title flashing while the tab is hidden, and a short vibration on phones.

import { t } from "../i18n.js";
import { soundOn } from "../prefs.js";

let wasMyTurn = false;
let flashing = null;
let audio = null;

/** A short, soft tone (Web Audio: no sound file to ship). */
export function beep() {
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // no audio on this browser: the title and the vibration still say it
  }
}

function flashTitle() {
  if (flashing) return;
  const title = document.title;
  let on = false;
  flashing = setInterval(() => {
    on = !on;
    document.title = on ? t("turn.title") : title;
  }, 800);
  const stop = () => {
    clearInterval(flashing);
    flashing = null;
    document.title = title;
    document.removeEventListener("visibilitychange", stop);
  };
  document.addEventListener("visibilitychange", stop);
}

/** Called after every state: notice the moment it becomes this player's turn. */
export function noticeTurn(state, mine) {
  if (mine && !wasMyTurn) {
    if (soundOn()) beep();
    if (document.hidden) flashTitle();
    // Browsers refuse (and complain) before the player has touched the page.
    if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(120);
    document.body.dataset.turnNoticed = String(Number(document.body.dataset.turnNoticed ?? 0) + 1);
  }
  wasMyTurn = mine;
}
