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

Actions, observations and information states
--------------------------------------------
Actions are the 219 of :mod:`dragonante.agents.encoding`, the same space for
every question and table size.  Everything a seat is shown comes from the
engine's ``observe`` and nothing else:

* ``observation_tensor``/``observation_string``: the seat's view now,
  ``encode(observe(state, seat))`` (5,560 float32 values) and the view as
  compact JSON.  Not perfect recall: the view forgets (flight order, for one).
* ``information_state_string``: **perfect recall**, the seat's own
  action-observation history: its view after every step of the game so far
  and its own actions, folded in order into a 128-bit BLAKE2b digest (the
  string is ``"p<seat> <digest>"``; see :class:`Recall`).  Two
  histories give one string exactly when the seat saw the same views and
  made the same moves (up to a 2**-128 collision).  CFR-family algorithms
  key their tables on it.
* No information-state *tensor*: a fixed-size vector cannot hold a history
  of unbounded length, and the current view would silently not be perfect
  recall, so ``provides_information_state_tensor`` is False and OpenSpiel's
  RL environment uses the observation tensor instead.

``make_observation`` supports the public view (a spectator's), the seat's
private part alone (what its view adds to the public one), the seat's view
(with or without perfect recall), the public history (perfect recall,
public only), and, as a string, the whole state (every player's private
information); anything else is refused with a one-line error.

Chance
------
The engine's randomness is a SplitMix64 stream kept in the state
(:mod:`dragonante.kernel.rng`); this module turns it into OpenSpiel chance
nodes without changing the engine:

* A **seed** is spelled by ``chance_nodes`` consecutive chance nodes, each
  with ``chance_outcomes`` equally likely outcomes (digits of the seed in
  base ``chance_outcomes``, most significant first).
* The game starts with a seed: the deal is the engine's game for that seed,
  ``new_game(config, seed)``, so a deal can be replayed with the engine.
* Before each player action is applied, the engine's chance query
  (:func:`dragonante.engine.game.answered`: the answer on a copy, and whether
  it drew on the stream) tells whether it is random.  If the step consumes
  randomness (a reshuffle, a card taken at random from a hand, a die, the
  cards of the deck), the action waits: a new seed is spelled by chance
  nodes, the stream is reseeded with it (the new stream state is the
  SplitMix64 output of ``stream XOR seed``, distinct for every seed), and
  then the action is applied.  Steps without randomness never meet a chance
  node, and keep the copy the query made.

So the game is deterministic given the chance outcomes, each chance node has
exactly ``chance_outcomes`` outcomes of probability ``1 / chance_outcomes``,
and every random event has ``chance_outcomes ** chance_nodes`` equally likely
results (2**32 by default).  That is a sample of the true distribution (a
shuffle of 70 cards has far more orders), fine for sampling algorithms; with
few outcomes a seat could learn the deals and so infer hidden cards.

A non-negative ``seed`` parameter is mixed into every seed the chance nodes
spell, so the same chance outcomes make other deals and draws under another
``seed`` (the distribution is the same); it is accepted, as many built-in
games accept one, so that ``rl_environment.Environment(..., seed=0)`` works.

A game in which no hoard empties could go on for ever; after ``time_limit``
engine decisions the time limit (Emperor's Gambit optional rule 5) is called:
the current gambit and one more are played, and the most gold wins.

States are copy-on-write: every step makes a new engine state and never
changes a stored one, so :meth:`ThreeDragonAnteState.clone` shares the
engine state instead of copying it, and the perfect-recall history is a list
of those engine states, folded into each seat's digest only when asked.
"""

from __future__ import annotations

import hashlib
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
from dragonante.agents.state_encoding import encode_into
from dragonante.cards import ALL_CARDS
from dragonante.engine import GameConfig, answered, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.abilities.catalog import ABILITIES, ANCESTRY_COLORS
from dragonante.engine.determinize import determinize
from dragonante.engine.game import call_last_gambit
from dragonante.engine.state import GameState
from dragonante.engine.views import Observation, observe
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.text import text_answers
from dragonante.kernel import rng

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
    "seed": -1,
}

NO_INFOSTATE_TENSOR = (
    "no information-state tensor: a fixed-size vector cannot be perfect recall here; "
    "use observation_tensor (the seat's view now) or information_state_string"
)

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
    provides_information_state_tensor=False,
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
    #: XORed into every seed the chance nodes spell (0 without a ``seed``).
    salt: int

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
    seed = int(p["seed"])
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
        salt=0 if seed < 0 else rng.next64(rng.seed_state(seed))[1],
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

    def information_state_tensor_shape(self) -> list[int]:
        """Refused: see the module docstring (use ``observation_tensor_shape``)."""
        raise ValueError(NO_INFOSTATE_TENSOR)

    def information_state_tensor_size(self) -> int:
        """Refused: see the module docstring (use ``observation_tensor_size``)."""
        raise ValueError(NO_INFOSTATE_TENSOR)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ThreeDragonAnteObserver:
        """The observer behind both tensors and strings (see the module docstring)."""
        return ThreeDragonAnteObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class Recall:
    """Perfect recall: each seat's action-observation history, kept cheaply.

    ``steps`` lists, after the deal and after every step, the new engine state
    with the seat that acted and its action (engine states are never changed
    once stored, so this costs a reference per step).  A seat's history is
    its ``observe`` view of each of those states, with its own action where
    it acted; :meth:`digest` folds the steps not yet folded for that seat
    into a running BLAKE2b digest, so each view is made once per seat, and
    only for seats whose information state is asked for.  ``None`` stands
    for the public (spectator's) history.
    """

    __slots__ = ("engine", "folded", "steps")

    def __init__(self) -> None:
        #: The current engine state (None before the deal), kept here so that
        #: copying a state copies it by reference (see :meth:`__deepcopy__`).
        self.engine: GameState | None = None
        self.steps: list[tuple[GameState, int, int]] = []
        #: seat -> (digest so far, steps folded into it)
        self.folded: dict[int | None, tuple[bytes, int]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Recall:
        """OpenSpiel clones a Python state by copying its C++ part and deep-copying
        its ``__dict__``; engine states are never changed once stored, so a copy
        shares them and copies only the list of steps and the digests."""
        c = Recall.__new__(Recall)
        c.engine = self.engine
        c.steps = self.steps[:]
        c.folded = dict(self.folded)
        return c

    def digest(self, seat: int | None) -> bytes:
        digest, done = self.folded.get(seat, (b"", 0))
        steps = self.steps
        if done < len(steps):
            for engine, actor, action in steps[done:]:
                h = hashlib.blake2b(digest, digest_size=16)
                if actor == seat and seat is not None:
                    h.update(b"a%d;" % action)  # the seat's own move
                h.update(repr(observe(engine, seat, hints=False)).encode())
                digest = h.digest()
            self.folded[seat] = (digest, len(steps))
        return digest


class ThreeDragonAnteState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A game in progress: the engine's state plus the seed being drawn, if any.

    Copy-on-write: a step replaces :attr:`engine` with a new engine state and
    never changes the old one (see the module docstring).
    """

    def __init__(self, game: ThreeDragonAnteGame) -> None:
        super().__init__(game)
        self.table: Table = game.table()
        #: The engine answer that waits for a seed (its step consumes randomness).
        self.waiting: int | None = None
        #: The seed spelled so far, and how many of its digits are drawn.
        self._seed = 0
        self._digits = 0
        #: The engine state and the history behind perfect recall.
        self.recall = Recall()

    @property
    def engine(self) -> GameState | None:
        """The engine's state; None until the deal's seed is drawn.  Never
        changed in place: a step replaces it (copies of this state share it)."""
        return self.recall.engine

    @engine.setter
    def engine(self, s: GameState | None) -> None:
        self.recall.engine = s

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> ThreeDragonAnteState:
        """A state ``player_id`` cannot tell from this one, its hidden part drawn anew.

        The engine's determinizer re-deals every card and ability hidden from
        the seat (and the random stream) from a seed taken from
        ``probability_sampler`` (OpenSpiel's ``UniformProbabilitySampler``
        gives a float in [0, 1)).  The seat's perfect-recall history is kept;
        the other seats' histories are unknown to it, so each is replaced by
        a digest of the seat's history and the other seat's number: the same
        in every resample, hence consistent keys for IS-MCTS's opponent nodes,
        and never a trace of the true hidden state.
        """
        s = self.engine
        if s is None or self.waiting is not None or self.is_chance_node():
            raise ValueError("resample_from_infostate: not at a player's decision")
        seed = int(float(probability_sampler()) * 2**53)
        c: ThreeDragonAnteState = self.clone()
        mine = self.recall.digest(player_id)
        c.recall = Recall()
        c.engine = determinize(s, player_id, seed)
        c.recall.folded[player_id] = (mine, 0)
        for q in [*range(s.n), None]:
            if q != player_id:
                h = hashlib.blake2b(mine, digest_size=16, person=b"resampled")
                h.update(b"%d" % (-1 if q is None else q))
                c.recall.folded[q] = (h.digest(), 0)
        return c

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
        return _uniform(self.table.chance_outcomes)

    # --- moves ------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            self._draw_digit(action)
        else:
            s = self.engine
            assert s is not None and s.pending is not None
            try:
                answer = to_answer(s.pending.kind, action)
                after, chance = answered(s, answer)
            except (KeyError, ValueError) as e:  # this state is left as it was
                raise ValueError(
                    f"action {action} is not legal for seat {player} "
                    f"({s.pending.kind!r}); legal: {self._legal_actions(player)}"
                ) from e
            if chance:
                self.waiting = answer  # the step is random: its seed comes first
            else:
                self._stepped(after, player, action)

    def _draw_digit(self, outcome: int) -> None:
        game = self.table
        if not 0 <= outcome < game.chance_outcomes:
            raise ValueError(f"chance outcome {outcome} is outside 0-{game.chance_outcomes - 1}")
        self._seed = self._seed * game.chance_outcomes + outcome
        self._digits += 1
        if self._digits < game.chance_nodes:
            return
        seed, self._seed, self._digits = self._seed ^ game.salt, 0, 0
        s = self.engine
        if s is None:
            self._stepped(new_game(game.config, seed, log=False), -1, -1)
            return
        answer, self.waiting = self.waiting, None
        assert answer is not None and s.pending is not None
        actor, action = s.pending.seat, to_action(s.pending.kind, answer)
        s = s.clone()  # copy-on-write: the stored state is never changed
        _, s.rng = rng.next64(s.rng ^ seed)
        apply(s, answer)
        self._stepped(s, actor, action)

    def _stepped(self, s: GameState, actor: int, action: int) -> None:
        """Make ``s`` (a new engine state) current and record it for perfect recall;
        call the time limit once a game has run ``time_limit`` decisions."""
        if not s.over and not s.last_gambit and s.decision_count >= self.table.time_limit:
            call_last_gambit(s)
        self.engine = s
        self.recall.steps.append((s, actor, action))

    def _action_to_string(self, player: int, action: int) -> str:
        """``"seat 2: play Red Dragon (8)"``: a legal action of the seat being asked
        in the words of the text interface (:mod:`dragonante.interfaces.text`, in
        English, the players called "Player 0", "Player 1"...); any other action
        by its block (:func:`action_label`: a card's id, "seat 3", "PASS")."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}/{self.table.chance_outcomes}"
        return f"seat {player}: {self._words(player, action) or action_label(action)}"

    def _words(self, player: int, action: int) -> str | None:
        """The text interface's words for ``action`` if it answers ``player``'s question."""
        s = self.engine
        d = None if s is None or self.waiting is not None else s.pending
        if s is None or d is None or d.seat != player:
            return None
        try:
            answer = to_answer(d.kind, action)
        except (KeyError, ValueError):
            return None
        narrator = Narrator(
            default_names(s.n, "en"), me=player, debt_model=s.config.rules.debt_model, you=False
        )
        for a in text_answers(observe(s, player), narrator):
            if a.answer == answer:
                return a.words
        return None

    # --- results and views ------------------------------------------------------

    def returns(self) -> list[float]:
        """Win share (1/k to each of k winners; plus the gold term if asked) at the end."""
        s = self.engine
        if s is None or not self.is_terminal():
            return [0.0] * self.table.config.players
        return final_rewards(s, self.table.gold_reward)

    def view(self, seat: int | None, gm: bool = False) -> Observation | None:
        """What ``seat`` sees (``observe``; None: a spectator), or None before the deal."""
        return None if self.engine is None else observe(self.engine, seat, gm)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Refused: see the module docstring (use ``observation_tensor``)."""
        raise ValueError(NO_INFOSTATE_TENSOR)

    def recall_string(self, seat: int | None) -> str:
        """``seat``'s perfect-recall information state (None: the public history)."""
        who = "public" if seat is None else f"p{seat}"
        pending = "" if self._digits == 0 else f" +{self._digits}"  # chance digits drawn
        return f"{who}{pending} {self.recall.digest(seat).hex()}"

    def __str__(self) -> str:
        """A short summary of the whole state, hidden cards included (for debugging,
        never for a seat; :meth:`engine_json` has everything)."""
        s = self.engine
        if s is None:
            return f"before the deal (seed digits drawn: {self._digits})"
        d = s.pending
        asked = "game over" if d is None else f"seat {d.seat} to answer {d.kind!r}"
        lines = [
            f"gambit {s.gambit} round {s.round} {s.phase}: {asked}"
            + ("" if self.waiting is None else f" (waiting for a seed: {self.waiting})"),
            f"stakes {s.stakes} hoards {s.hoards} winners {s.winners}",
        ]
        for p in range(s.n):
            hand = " ".join(ALL_CARDS[c].id for c in s.hands[p])
            lines.append(f"seat {p}: {hand}")
        return "\n".join(lines)

    def engine_json(self) -> str:
        """The engine's whole state as JSON (long: for debugging only)."""
        s = self.engine
        return "null" if s is None else json.dumps(s.to_dict(), sort_keys=True, default=str)


@lru_cache(maxsize=16)
def _uniform_tuple(k: int) -> tuple[tuple[int, float], ...]:
    return tuple((o, 1.0 / k) for o in range(k))


def _uniform(k: int) -> list[tuple[int, float]]:
    return list(_uniform_tuple(k))


#: The observers :meth:`ThreeDragonAnteGame.make_py_observer` can make, by
#: (perfect recall, public information, private information).
_KINDS: dict[tuple[bool, bool, Any], str] = {
    (False, True, pyspiel.PrivateInfoType.SINGLE_PLAYER): "view",
    (False, True, pyspiel.PrivateInfoType.NONE): "public",
    (False, False, pyspiel.PrivateInfoType.SINGLE_PLAYER): "private",
    (False, True, pyspiel.PrivateInfoType.ALL_PLAYERS): "everything",
    (True, True, pyspiel.PrivateInfoType.SINGLE_PLAYER): "recall",
    (True, True, pyspiel.PrivateInfoType.NONE): "public_recall",
}


class ThreeDragonAnteObserver:
    """Fills OpenSpiel's tensor and strings from ``observe`` views.

    ``kind`` (from the ``IIGObservationType``):

    * ``view``: the seat's view now (tensor and JSON string);
    * ``public``: a spectator's view (``observe(state, None)``), the same for
      every player (tensor and string);
    * ``private``: what the seat's view adds to the spectator's: the tensor is
      the seat's vector where it exceeds the spectator's (0 elsewhere), the
      string the view's entries that differ from the spectator's;
    * ``everything``: the whole state (every player's private information),
      a string only (the game-master's view);
    * ``recall``/``public_recall``: perfect recall of the seat's / the public
      history, a string only (see :class:`Recall`).

    Every other combination is refused: private information without the
    public events that order it has no sensible history, and neither public
    nor private information is nothing at all.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        key = (iig_obs_type.perfect_recall, iig_obs_type.public_info, iig_obs_type.private_info)
        kind = _KINDS.get(key)
        if kind is None:
            raise ValueError(
                f"observer not supported: perfect_recall={key[0]}, public_info={key[1]}, "
                f"private_info={key[2].name}"
            )
        self.kind = kind
        self.tensor: npt.NDArray[np.float32] | None = None
        #: Named views of the tensor's slices (``encoding.SLICES``).
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if kind in ("view", "public", "private"):
            self.tensor = np.zeros(OBS_SIZE, np.float32)
            self.dict = {name: self.tensor[sl] for name, sl in SLICES.items()}

    def set_from(self, state: ThreeDragonAnteState, player: int) -> None:
        tensor = self.tensor
        if tensor is None:
            return
        s = state.engine
        if s is None:
            tensor[:] = 0.0
        elif self.kind == "view":
            encode_into(s, player, tensor)
        elif self.kind == "public":
            tensor[:] = encode(observe(s, None, hints=False))
        else:
            np.maximum(
                encode(observe(s, player, hints=False)) - encode(observe(s, None, hints=False)),
                0.0,
                out=tensor,
            )

    def string_from(self, state: ThreeDragonAnteState, player: int) -> str:
        kind = self.kind
        if kind == "recall":
            return state.recall_string(player)
        if kind == "public_recall":
            return state.recall_string(None)
        s = state.engine
        if s is None:
            return ""
        if kind == "view":
            view = observe(s, player).to_dict()
        elif kind == "public":
            view = observe(s, None).to_dict()
        elif kind == "everything":
            view = observe(s, None, gm=True).to_dict()
            view["hands"] = [list(h) for h in s.hands]
            view["deck"] = list(s.deck)
        else:
            public = observe(s, None).to_dict()
            view = {k: v for k, v in observe(s, player).to_dict().items() if public.get(k) != v}
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


# open_spiel 2.x registers a type and a factory (the sizes depend on the parameters).
pyspiel.register_game(GAME_TYPE, ThreeDragonAnteGame)

__all__ = [
    "DEFAULTS",
    "GAME_TYPE",
    "SHORT_NAME",
    "Recall",
    "Table",
    "ThreeDragonAnteGame",
    "ThreeDragonAnteObserver",
    "ThreeDragonAnteState",
    "action_label",
    "game_info",
    "table_of",
]
