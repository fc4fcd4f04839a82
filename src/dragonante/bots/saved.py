"""Saved policies as bots: the ``policy:PATH`` bot spec.

A policy saved by a learning pipeline plays wherever a bot plays.  It sees
what every learning agent sees, the seat's observation vector and the action
mask (:mod:`dragonante.agents.encoding`, from the seat's
:class:`~dragonante.bots.base.SeatView` only), and its action is turned back
into the engine's answer.  The format is told by the file's suffix
(:data:`FORMATS`):

* ``.npz``: a linear softmax policy, arrays ``w`` (observation x actions) and
  ``b`` (actions), as ``examples/reinforce.py`` writes; it plays its likeliest
  legal action.  Needs numpy (the ``agents`` extra).
* ``.zip``: a MaskablePPO checkpoint (sb3-contrib, ``examples/maskable_ppo.py``);
  its deterministic prediction under the mask.  Needs the ``rl`` extra.

A policy whose shapes do not fit today's observation or action space (one
trained on an older layout) is refused with a clear error, never played as
silent nonsense.  Loaded policies are cached by path and modification time.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from dragonante.bots.base import SeatView
from dragonante.bots.errors import BotSpecError
from dragonante.extras import MissingExtra, require

#: A loaded policy: (observation vector, int8 mask) -> action.
Policy = Callable[[Any, Any], int]


def _numpy_policy(path: Path) -> Policy:
    import numpy as np

    from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE

    try:
        with np.load(path) as data:
            w, b = data["w"], data["b"]
    except (OSError, ValueError, KeyError) as exc:
        raise BotSpecError(f"policy {path}: not a linear policy (w and b): {exc}") from None
    if w.shape != (OBS_SIZE, N_ACTIONS) or b.shape != (N_ACTIONS,):
        raise BotSpecError(
            f"policy {path}: weights {w.shape} / {b.shape} do not fit today's observation "
            f"({OBS_SIZE} values) and actions ({N_ACTIONS}): trained on another layout"
        )
    w64, b64 = w.astype(np.float64), b.astype(np.float64)

    def choose(observation: Any, mask: Any) -> int:
        rows = np.flatnonzero(observation)
        legal = np.flatnonzero(mask)
        logits = observation[rows].astype(np.float64) @ w64[np.ix_(rows, legal)] + b64[legal]
        return int(legal[int(np.argmax(logits))])

    return choose


def _maskable_ppo(path: Path) -> Policy:
    if importlib.util.find_spec("sb3_contrib") is None:
        missing = MissingExtra("rl", f"policy:{path} (a MaskablePPO checkpoint)", "sb3_contrib")
        raise BotSpecError(str(missing))
    from sb3_contrib import MaskablePPO

    from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE

    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except Exception as exc:  # a foreign file's failure: one message
        raise BotSpecError(f"policy {path}: not a MaskablePPO checkpoint: {exc}") from None
    space = model.observation_space
    shape = getattr(space, "spaces", {}).get("observation")
    if shape is None or shape.shape != (OBS_SIZE,) or model.action_space.n != N_ACTIONS:
        raise BotSpecError(
            f"policy {path}: its spaces do not fit today's observation ({OBS_SIZE} values) "
            f"and actions ({N_ACTIONS}): trained on another layout"
        )

    def choose(observation: Any, mask: Any) -> int:
        obs = {"observation": observation, "action_mask": mask}
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return choose


#: Loaders by file suffix.  A new format adds its loader here.
FORMATS: dict[str, Callable[[Path], Policy]] = {".npz": _numpy_policy, ".zip": _maskable_ppo}


@lru_cache(maxsize=8)
def _load(path: Path, mtime: float) -> Policy:
    return FORMATS[path.suffix](path)


def load_policy(raw: str) -> Policy:
    """The policy saved at ``raw``; :class:`BotSpecError` saying why not (a
    missing extra too: the message names it)."""
    path = Path(raw).expanduser()
    if path.suffix not in FORMATS:
        formats = ", ".join(FORMATS)
        raise BotSpecError(f"policy {raw!r}: unknown format {path.suffix!r}; formats: {formats}")
    if not path.is_file():
        raise BotSpecError(f"policy {raw!r}: no such file")
    try:
        require("agents", f"policy:{raw}")
    except MissingExtra as missing:
        raise BotSpecError(str(missing)) from None
    path = path.resolve()
    return _load(path, path.stat().st_mtime)


def check_policy(raw: str) -> None:
    """Load the policy once (cached), so a bad spec fails before any game."""
    load_policy(raw)


class PolicyBot:
    """A saved policy at a seat: the seat's observation and mask in, its answer out."""

    def __init__(self, seed: int = 0, path: str = "") -> None:
        self.name = f"policy:{path}"
        self.policy = load_policy(path)

    def choose(self, view: SeatView) -> int:
        from dragonante.agents.encoding import action_mask, encode, to_answer

        d = view.decision
        mask = action_mask(d)
        action = self.policy(encode(view.observation()), mask)
        if not 0 <= action < len(mask) or not mask[action]:
            raise BotSpecError(f"{self.name} chose action {action}, which is not legal now")
        return to_answer(d.kind, action)


__all__ = ["FORMATS", "Policy", "PolicyBot", "check_policy", "load_policy"]
