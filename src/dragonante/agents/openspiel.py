"""Three-Dragon Ante as an OpenSpiel game: ``python_three_dragon_ante``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel

    import dragonante.agents.openspiel  # registers python_three_dragon_ante

    game = pyspiel.load_game("python_three_dragon_ante", {"players": 4})

Sequential, imperfect information, general-sum, terminal rewards, explicit
chance.  The players are the seats; the player to move is the seat the
engine asks, in the engine's order (not round the table).  Questions with a
single legal answer are applied by the engine itself, as in the PettingZoo
environment.

Actions and tensors
-------------------
Actions are the 219 of :mod:`dragonante.agents.encoding`, the same space for
every question and table size.  The information-state and observation
tensors are both ``encode(observe(state, seat))`` (5,547 float32 values) and
the strings are the same view as compact JSON: a seat sees what the engine's
``observe`` shows it and nothing else.  The view is the seat's knowledge
now (its hand, public zones, cards it has seen leave or enter hands), not a
record of every past move, so information states are not perfect recall.

Chance
------
The engine's randomness is a SplitMix64 stream kept in the state
(:mod:`dragonante.engine.rng`); this module turns it into OpenSpiel chance
nodes without changing the engine:

* A **seed** is spelled by ``chance_nodes`` consecutive chance nodes, each
  with ``chance_outcomes`` equally likely outcomes (digits of the seed in
  base ``chance_outcomes``, most significant first).
* The game starts with a seed: the deal is the engine's game for that seed,
  ``new_game(config, seed)``, so a deal can be replayed with the engine.
* Before each player action is applied, it is tried on a copy of the state.
  If the step consumes randomness (a reshuffle, a card taken at random from
  a hand, a die, the cards of the deck), the action waits: a new seed is
  spelled by chance nodes, the stream is reseeded with it (the new stream
  state is the SplitMix64 output of ``stream XOR seed``, distinct for every
  seed), and then the action is applied.  Steps without randomness never
  meet a chance node.

So the game is deterministic given the chance outcomes, each chance node has
exactly ``chance_outcomes`` outcomes of probability ``1 / chance_outcomes``,
and every random event has ``chance_outcomes ** chance_nodes`` equally likely
results (2**32 by default).  That is a sample of the true distribution (a
shuffle of 70 cards has far more orders), fine for sampling algorithms; with
few outcomes a seat could learn the deals and so infer hidden cards.

A game in which no hoard empties could go on for ever; after ``time_limit``
engine decisions the time limit (Emperor's Gambit optional rule 5) is called:
the current gambit and one more are played, and the most gold wins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from dragonante.agents.encoding import (
    ABILITY_ACTIONS,
    ALL_ACTION,
    CHOICE_ACTIONS,
    COLOR_ACTIONS,
    DONE_ACTION,
    N_ACTIONS,
    OBS_SIZE,
    PASS_ACTION,
    SEAT_ACTIONS,
    SLICES,
    encode,
    to_action,
    to_answer,
)
from dragonante.agents.pettingzoo import final_rewards, make_config
from dragonante.cards import ALL_CARDS
from dragonante.engine import GameConfig, apply, new_game, rng
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.abilities.catalog import ABILITIES, ANCESTRY_COLORS
from dragonante.engine.game import call_last_gambit
from dragonante.engine.state import GameState
from dragonante.engine.views import observe

SHORT_NAME = "python_three_dragon_ante"

#: The game's parameters and their defaults (``abilities``: "" for none,
#: "disks" or "skills").
DEFAULTS: dict[str, Any] = {
    "players": 4,
    "ruleset": "legendary",
    "deck": "legendary",
    "abilities": "",
    "gold_reward": False,
    "chance_outcomes": 256,
    "chance_nodes": 4,
    "time_limit": 1000,
}

#: Engine decisions that the time limit leaves at most (the current gambit
#: and the last one); games of 2-6 random players take at most ~300 in all.
_LAST_GAMBITS_MARGIN = 1000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Three-Dragon Ante",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def game_info(params: dict[str, Any]) -> pyspiel.GameInfo:
    """Sizes and bounds of a game with ``params`` (all keys of :data:`DEFAULTS`)."""
    nodes = int(params["chance_nodes"])
    decisions = int(params["time_limit"]) + _LAST_GAMBITS_MARGIN
    gold = bool(params["gold_reward"])
    return pyspiel.GameInfo(
        num_distinct_actions=N_ACTIONS,
        max_chance_outcomes=int(params["chance_outcomes"]),
        num_players=int(params["players"]),
        # Win share in [0, 1]; the gold term adds (final - start) / total gold.
        min_utility=-1.0 if gold else 0.0,
        max_utility=2.0 if gold else 1.0,
        utility_sum=None,
        # The deal's seed, then per decision the decision and perhaps a seed.
        max_game_length=nodes + decisions * (1 + nodes),
    )


def action_label(action: int) -> str:
    """A readable name for ``action``: the blocks are disjoint, so no kind is needed."""
    if action < SEAT_ACTIONS:
        return ALL_CARDS[action].id
    if action < ABILITY_ACTIONS:
        return f"seat {action - SEAT_ACTIONS}"
    if action < COLOR_ACTIONS:
        return f"ability {ABILITIES[action - ABILITY_ACTIONS].key}"
    if action < CHOICE_ACTIONS:
        return f"color {ANCESTRY_COLORS[action - COLOR_ACTIONS]}"
    if action < PASS_ACTION:
        return f"choice {action - CHOICE_ACTIONS}"
    return {PASS_ACTION: "PASS", DONE_ACTION: "DONE", ALL_ACTION: "ALL"}[action]


@dataclass(frozen=True)
class Table:
    """What a game's parameters mean to the engine and to the chance nodes."""

    config: GameConfig
    gold_reward: bool
    chance_outcomes: int
    chance_nodes: int
    time_limit: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """Immutable: OpenSpiel clones states by deep copy, and all copies share one."""
        return self


@lru_cache(maxsize=64)
def _table(items: tuple[tuple[str, Any], ...]) -> Table:
    p = {**DEFAULTS, **dict(items)}
    unknown = set(p) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    if int(p["chance_outcomes"]) < 2 or int(p["chance_nodes"]) < 1:
        raise ValueError("chance_outcomes must be at least 2 and chance_nodes at least 1")
    if int(p["time_limit"]) < 1:
        raise ValueError("time_limit must be positive")
    system = str(p["abilities"])
    return Table(
        config=make_config(
            int(p["players"]),
            str(p["ruleset"]),
            str(p["deck"]),
            AbilityOptions(system=system) if system else None,
        ),
        gold_reward=bool(p["gold_reward"]),
        chance_outcomes=int(p["chance_outcomes"]),
        chance_nodes=int(p["chance_nodes"]),
        time_limit=int(p["time_limit"]),
    )


def table_of(params: dict[str, Any]) -> Table:
    """The :class:`Table` of ``params`` (missing keys take :data:`DEFAULTS`)."""
    return _table(tuple(sorted(params.items())))


class ThreeDragonAnteGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game for one set of parameters (see :data:`DEFAULTS`).

    It keeps no attributes of its own: OpenSpiel rebuilds games from their
    parameters (copies made without ``__init__``), so everything is derived
    from ``get_parameters()``.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        table_of(params or {})  # refuse bad parameters before OpenSpiel sees them
        super().__init__(GAME_TYPE, game_info({**DEFAULTS, **(params or {})}), params or {})

    def table(self) -> Table:
        return table_of(self.get_parameters())

    def new_initial_state(self) -> ThreeDragonAnteState:
        """A game before the deal: the first chance nodes spell its seed."""
        return ThreeDragonAnteState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ThreeDragonAnteObserver:
        """The observer behind both tensors and strings (see the module docstring)."""
        return ThreeDragonAnteObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class ThreeDragonAnteState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A game in progress: the engine's state plus the seed being drawn, if any."""

    def __init__(self, game: ThreeDragonAnteGame) -> None:
        super().__init__(game)
        self.table: Table = game.table()
        #: The engine's state; None until the deal's seed is drawn.
        self.engine: GameState | None = None
        #: The engine answer that waits for a seed (its step consumes randomness).
        self.waiting: int | None = None
        #: The seed spelled so far, and how many of its digits are drawn.
        self._seed = 0
        self._digits = 0

    # --- whose turn -------------------------------------------------------------

    def current_player(self) -> int:
        s = self.engine
        if s is None or self.waiting is not None:
            return int(pyspiel.PlayerId.CHANCE)
        d = s.pending
        if d is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return d.seat

    def is_terminal(self) -> bool:
        return self.engine is not None and self.waiting is None and self.engine.pending is None

    def _legal_actions(self, player: int) -> list[int]:
        s = self.engine
        d = None if s is None or self.waiting is not None else s.pending
        if d is None or d.seat != player:
            return []
        return sorted(to_action(d.kind, a) for a in d.options)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every digit of the seed being drawn, equally likely."""
        k = self.table.chance_outcomes
        return [(o, 1.0 / k) for o in range(k)]

    # --- moves ------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._draw_digit(action)
            return
        s = self.engine
        assert s is not None and s.pending is not None
        answer = to_answer(s.pending.kind, action)
        trial = s.clone()
        apply(trial, answer)  # raises, leaving this state as it was, if illegal
        if trial.rng != s.rng:
            self.waiting = answer  # the step is random: its seed comes first
        else:
            self.engine = trial
            self._stepped()

    def _draw_digit(self, outcome: int) -> None:
        game = self.table
        if not 0 <= outcome < game.chance_outcomes:
            raise ValueError(f"chance outcome {outcome} is outside 0-{game.chance_outcomes - 1}")
        self._seed = self._seed * game.chance_outcomes + outcome
        self._digits += 1
        if self._digits < game.chance_nodes:
            return
        seed, self._seed, self._digits = self._seed, 0, 0
        s = self.engine
        if s is None:
            self.engine = new_game(game.config, seed, log=False)
            return
        answer, self.waiting = self.waiting, None
        assert answer is not None
        _, s.rng = rng.next64(s.rng ^ seed)
        apply(s, answer)
        self._stepped()

    def _stepped(self) -> None:
        """Call the time limit once a game has run ``time_limit`` decisions."""
        s = self.engine
        assert s is not None
        if not s.over and not s.last_gambit and s.decision_count >= self.table.time_limit:
            call_last_gambit(s)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}/{self.table.chance_outcomes}"
        return f"seat {player}: {action_label(action)}"

    # --- results and views ------------------------------------------------------

    def returns(self) -> list[float]:
        """Win share (1/k to each of k winners; plus the gold term if asked) at the end."""
        s = self.engine
        if s is None or not self.is_terminal():
            return [0.0] * self.table.config.players
        return final_rewards(s, self.table.gold_reward)

    def view(self, seat: int) -> dict[str, Any] | None:
        """What ``seat`` sees (``observe``), or None before the deal."""
        return None if self.engine is None else observe(self.engine, seat)

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging, not for a seat)."""
        s = self.engine
        if s is None:
            return f"before the deal (seed digits drawn: {self._digits})"
        head = "" if self.waiting is None else f"waiting for a seed to apply {self.waiting}\n"
        return head + json.dumps(s.to_dict(), sort_keys=True, default=str)


class ThreeDragonAnteObserver:
    """Fills OpenSpiel's tensor and strings from one seat's ``observe`` view.

    Only the seat's own view exists: an observer of every hand (private
    information of all players) or of public information alone is refused
    rather than approximated.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        if (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("only a seat's own view (public and its private information)")
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBS_SIZE, np.float32)
        #: Named views of the tensor's slices (``encoding.SLICES``).
        self.dict = {name: self.tensor[sl] for name, sl in SLICES.items()}

    def set_from(self, state: ThreeDragonAnteState, player: int) -> None:
        view = state.view(player)
        self.tensor[:] = 0.0 if view is None else encode(view)

    def string_from(self, state: ThreeDragonAnteState, player: int) -> str:
        view = state.view(player)
        return "" if view is None else json.dumps(view, sort_keys=True, separators=(",", ":"))


# open_spiel 2.x registers a type and a factory (the sizes depend on the parameters).
pyspiel.register_game(GAME_TYPE, ThreeDragonAnteGame)

__all__ = [
    "DEFAULTS",
    "GAME_TYPE",
    "SHORT_NAME",
    "Table",
    "ThreeDragonAnteGame",
    "ThreeDragonAnteObserver",
    "ThreeDragonAnteState",
    "action_label",
    "game_info",
    "table_of",
]
