// Keyboard play at the table: the number keys 1-9 press the question's
// answers in order (each answer button shows its number); Enter presses the
// focused answer (a button's own behaviour) or chooses the focused card that
// answers the question (cards.js). Typing in a field is never taken over.

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement || (target instanceof HTMLElement && target.isContentEditable);
}

export function bindAnswerKeys(root) {
  const onKey = (e) => {
    if (e.defaultPrevented || e.repeat || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
    if (!/^[1-9]$/.test(e.key)) return;
    const buttons = root.querySelectorAll("#question .answer");
    const button = buttons[Number(e.key) - 1];
    if (!button || button.disabled) return;
    e.preventDefault();
    button.click();
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}

// After the board is redrawn: put the focus back where it was (same answer
// or card), or on the first answer of a new question for this seat when the
// focus was on the board or nowhere, so keyboard play can go on.
export function focusSnapshot(root) {
  const active = document.activeElement;
  if (!active || active === document.body) return { where: "none" };
  if (!root.contains(active)) return { where: "outside" };
  if (active.dataset?.answer !== undefined) return { where: "answer", answer: active.dataset.answer };
  if (active.dataset?.card !== undefined) return { where: "card", card: active.dataset.card };
  return { where: "board" };
}

export function restoreFocus(root, snap, newQuestion) {
  if (snap.where === "outside") return;
  let target = null;
  if (!newQuestion && snap.where === "answer") target = root.querySelector(`#question .answer[data-answer="${CSS.escape(snap.answer)}"]`);
  if (!newQuestion && snap.where === "card") target = root.querySelector(`.card[data-card="${CSS.escape(snap.card)}"]`);
  if (!target && (newQuestion || snap.where !== "none")) target = root.querySelector("#question .answer:not([disabled])");
  if (target && snap.where === "none" && !newQuestion) return;
  target?.focus({ preventScroll: true });
}
