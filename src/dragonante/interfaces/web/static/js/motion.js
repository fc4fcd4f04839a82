// Brief animations of what just happened at the table, from the new events:
// a card played into a flight, cards drawn into your hand, gold going to the
// stakes, a completed flight, the ante revealed together. All of them use the
// Web Animations API on the freshly drawn board and last under a second.
// Nothing moves when the system asks for reduced motion (the CSS does the
// same for its own transitions).

const STAKES = -1;
const query = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  return Boolean(query?.matches);
}

function run(el, keyframes, options) {
  if (!el || typeof el.animate !== "function") return null;
  return el.animate(keyframes, { duration: 360, easing: "cubic-bezier(.2,.7,.3,1)", ...options });
}

function seatEl(board, p) {
  return board.querySelector(`.seat[data-seat="${p}"]`);
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// A coin flying from a seat to the stakes (a fixed element, removed at the end).
function flyCoin(from, to, delay) {
  if (!from || !to) return;
  const a = centre(from);
  const b = centre(to);
  const coin = document.createElement("span");
  coin.className = "coin flying";
  coin.setAttribute("aria-hidden", "true");
  coin.style.left = `${a.x - 7}px`;
  coin.style.top = `${a.y - 7}px`;
  document.body.append(coin);
  const anim = run(coin, [
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
    { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.8)`, opacity: 0.9 },
  ], { duration: 520, delay, fill: "both" });
  if (anim) anim.finished.catch(() => {}).finally(() => coin.remove());
  else coin.remove();
}

// Animate `events` (just arrived) on `board` (just drawn).
export function animateEvents(board, events) {
  if (reducedMotion() || !board?.isConnected) return;
  const stakes = board.querySelector("#stakes");
  // Coins land on the pile, beside the word "Stakes", never over it.
  const pile = stakes?.querySelector(".coin.pile") ?? stakes;
  let coins = 0;
  let stakesMoved = false;
  for (const e of events) {
    const d = e.data || {};
    switch (e.kind) {
      case "play": {
        const seat = seatEl(board, d.seat);
        const cards = seat?.querySelectorAll(`.flight .card[data-card="${d.card}"]`);
        run(cards?.[cards.length - 1], [
          { transform: "translateY(-18px) scale(1.25)", opacity: 0 },
          { transform: "none", opacity: 1 },
        ]);
        break;
      }
      case "draw_card": {
        const card = board.querySelector(`#hand .card[data-card="${d.card}"]`);
        run(card, [{ transform: "translateY(-24px)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 420 });
        break;
      }
      case "draw":
      case "kobold_draw":
        run(seatEl(board, d.seat)?.querySelector(".hand-count"), [{ transform: "scale(1.4)" }, { transform: "none" }], { duration: 300 });
        break;
      case "pay":
        if (d.to === STAKES && d.paid > 0) {
          flyCoin(seatEl(board, d.payer)?.querySelector(".hoard"), pile, 90 * coins++);
          stakesMoved = true;
        }
        break;
      case "ante_paid":
        for (const seat of board.querySelectorAll(".seat")) flyCoin(seat.querySelector(".hoard"), pile, 90 * coins++);
        stakesMoved = true;
        break;
      case "color_flight":
      case "strength_flight":
        for (const card of seatEl(board, d.seat)?.querySelectorAll(".flight .card") || []) {
          run(card, [{ transform: "none", filter: "brightness(1)" }, { transform: "translateY(-6px)", filter: "brightness(1.5)" }, { transform: "none", filter: "brightness(1)" }], { duration: 700 });
        }
        break;
      case "ante_reveal": {
        // Every ante card turns over at the same moment.
        const start = document.timeline?.currentTime ?? undefined;
        for (const card of board.querySelectorAll("#ante .card")) {
          const anim = run(card, [{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: 420, easing: "ease-out" });
          if (anim && start !== undefined && start !== null) anim.startTime = start;
        }
        break;
      }
      default:
        break;
    }
  }
  if (stakesMoved) run(stakes, [{ transform: "scale(1.15)" }, { transform: "none" }], { duration: 400, delay: 90 * coins + 300 });
}
