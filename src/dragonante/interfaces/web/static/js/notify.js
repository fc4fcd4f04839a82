// Your turn, announced (issue 32, part 3): the tab's title and icon say when
// a question waits for you, an optional short sound (made here with the Web
// Audio API: no sound file is shipped) plays when one comes, and a desktop
// notification tells a hidden tab, once you allowed it.  The sound's on/off
// is remembered in localStorage; the notification permission is asked only
// when you press the button offered for it, and the button is offered once.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SOUND_KEY = "dragonante.sound";
const ASKED_KEY = "dragonante.notify.asked";
// The icon of a tab whose question waits: a gold disc (an inline SVG).
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#e0b040" stroke="#7a5a10"/></svg>');
const PLAIN_ICON = "data:,";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

let audio = null;

// Two short rising tones, soft at both ends (no click); a context the
// browser keeps suspended until a gesture is resumed first.
export function chime() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  audio = audio || new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const start = audio.currentTime + 0.01;
  [660, 880].forEach((freq, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const at = start + i * 0.14;
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.13);
  });
  window.dragonanteChimes = (window.dragonanteChimes || 0) + 1; // for the browser tests
  return true;
}

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function canNotify() {
  return typeof Notification !== "undefined";
}

// The table's announcer: ``update`` after every render of the table, ``el``
// the controls for the table's header (sound on/off; allow notifications).
export function turnAnnouncer(code) {
  const plainTitle = () => t("app.title");
  let mine = false;
  const soundButton = h("button", { type: "button", class: "small", id: "sound-toggle", onclick: toggleSound });
  const notifyButton = h("button", { type: "button", class: "small", id: "notify-ask", onclick: askNotify });
  const el = h("span", { class: "announce-controls" }, soundButton, " ", notifyButton);

  function drawControls() {
    const on = soundOn();
    soundButton.textContent = on ? t("notify.sound_on") : t("notify.sound_off");
    soundButton.setAttribute("aria-pressed", String(on));
    notifyButton.textContent = t("notify.ask");
    const offered = canNotify() && Notification.permission === "default" && localStorage.getItem(ASKED_KEY) !== "1";
    notifyButton.hidden = !offered;
    notifyButton.style.display = offered ? "" : "none"; // a button's CSS display outranks [hidden]
  }

  function toggleSound() {
    const on = !soundOn();
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    if (on) chime(); // a sample, and the gesture that lets the page play sound
    drawControls();
  }

  function askNotify() {
    localStorage.setItem(ASKED_KEY, "1"); // asked once: never offered again
    drawControls();
    if (canNotify()) Notification.requestPermission().catch(() => {});
  }

  function notify(text) {
    if (!canNotify() || Notification.permission !== "granted" || !document.hidden) return;
    try {
      const n = new Notification(t("notify.title", { code }), { body: text || "", tag: `dragonante-${code}` });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // a browser that only notifies from a service worker: the title still says it
    }
  }

  drawControls();
  return {
    el,
    // ``yours``: a question waits for this seat; ``fresh``: it just came.
    update(yours, fresh, text) {
      mine = Boolean(yours);
      document.title = mine ? t("notify.your_turn", { code, title: plainTitle() }) : plainTitle();
      setIcon(mine ? TURN_ICON : PLAIN_ICON);
      if (mine && fresh) {
        if (soundOn()) chime();
        notify(text);
      }
    },
    relabel() {
      drawControls();
      document.title = mine ? t("notify.your_turn", { code, title: plainTitle() }) : plainTitle();
    },
    stop() {
      document.title = plainTitle();
      setIcon(PLAIN_ICON);
    },
  };
}
