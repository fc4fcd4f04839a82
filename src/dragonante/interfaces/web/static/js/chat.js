// Table chat: the messages (seats by their public names, spectators by the
// number the server gave them), a line to type in, and for the host a mute
// button on each other author.  Every text goes in through h(), that is as a
// text node: what someone types is shown as typed, never read as markup.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// opts: {send(msg), mute(target, muted) or null for non-hosts, max}
export function chatPanel(opts) {
  const list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const input = h("input", { id: "chat-input", maxlength: String(opts.max || 300), autocomplete: "off", "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder") });
  const form = h(
    "form",
    { class: "chat-form", id: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      opts.send({ type: "chat", text });
      input.value = "";
    } },
    input,
    h("button", { type: "submit", class: "small", id: "chat-send" }, t("chat.send")),
  );
  const title = h("h2", { id: "chat-title" }, t("chat.title"));
  const el = h("section", { class: "chat-box", id: "chat", "aria-labelledby": "chat-title" }, title, list, form);
  const mutedSeats = new Set();
  const mutedSpectators = new Set();
  let me = { seat: null, spectator: null };
  let messages = [];

  function author(m) {
    return m.seat !== null && m.seat !== undefined ? m.name || `#${m.seat + 1}` : t("chat.spectator", { n: m.spectator });
  }

  function isMuted(m) {
    return m.seat !== null && m.seat !== undefined ? mutedSeats.has(m.seat) : mutedSpectators.has(m.spectator);
  }

  function mine(m) {
    return m.seat !== null && m.seat !== undefined ? m.seat === me.seat : m.spectator === me.spectator;
  }

  function line(m) {
    if (m.system) return h("li", { class: "chat-msg system" }, m.system);
    const muted = isMuted(m);
    const target = m.seat !== null && m.seat !== undefined ? { seat: m.seat } : { spectator: m.spectator };
    return h(
      "li",
      { class: muted ? "chat-msg muted" : "chat-msg", dataset: { id: String(m.id) } },
      h("strong", { class: "chat-author" }, author(m)),
      muted ? h("span", { class: "tag" }, t("chat.muted_tag")) : null,
      ": ",
      h("span", { class: "chat-text" }, m.text),
      opts.mute && !mine(m)
        ? h("button", { type: "button", class: "small chat-mute", onclick: () => opts.mute(target, !muted) }, muted ? t("chat.unmute") : t("chat.mute"))
        : null,
    );
  }

  function redraw() {
    list.replaceChildren(...messages.map(line));
    list.scrollTop = list.scrollHeight;
  }

  return {
    el,
    setMe(seat, spectator) {
      me = { seat, spectator };
      redraw();
    },
    history(msg) {
      messages = msg.messages.slice();
      mutedSeats.clear();
      mutedSpectators.clear();
      msg.muted_seats.forEach((p) => mutedSeats.add(p));
      msg.muted_spectators.forEach((s) => mutedSpectators.add(s));
      redraw();
    },
    add(msg) {
      messages.push(msg);
      if (messages.length > 200) messages.shift();
      list.append(line(msg));
      list.scrollTop = list.scrollHeight;
    },
    // A line of the table's own (a bot answered for someone, a mute) in the chat.
    system(text) {
      this.add({ system: text, id: `s${messages.length}` });
    },
    mute(msg) {
      const set = msg.seat !== null && msg.seat !== undefined ? mutedSeats : mutedSpectators;
      const key = msg.seat !== null && msg.seat !== undefined ? msg.seat : msg.spectator;
      if (msg.muted) set.add(key);
      else set.delete(key);
      redraw();
    },
    relabel() {
      title.textContent = t("chat.title");
      input.placeholder = t("chat.placeholder");
      input.setAttribute("aria-label", t("chat.placeholder"));
      form.querySelector("#chat-send").textContent = t("chat.send");
      redraw();
    },
  };
}

// Who a mute frame names, as a sentence.
export function muteText(msg, table) {
  const who = msg.seat !== null && msg.seat !== undefined ? table?.seats?.[msg.seat]?.name ?? `#${msg.seat + 1}` : t("chat.spectator", { n: msg.spectator });
  return t(msg.muted ? "chat.muted" : "chat.unmuted", { name: who });
}
