"""The gambit history: real games folded round by round, as each seat may see them.

Every gambit of random games (both rulesets, 2-5 players) is folded at its
end and checked against the engine's own log: the plays of each round in
turn order with their triggers, the next leader, the flights and what they
paid, the winner.  Hidden information: a card taken at random is named to
the taker and the victim only, whatever log the caller passes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dragonante.engine.config import GameConfig, Rules
from dragonante.engine.state import Event
from dragonante.i18n import LANGS
from dragonante.interfaces.gambit_history import (
    GambitHistory,
    gambit_history,
    history_dict,
    history_lines,
)
from dragonante.interfaces.narrate import Narrator, card_label
from dragonante.sim.selfplay import play_random

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def games() -> Iterator[tuple[GameConfig, list[Event]]]:
    for seed in range(12):
        players = 2 + seed % 4
        rules = Rules.preset("emperors_gambit") if seed % 3 == 2 else Rules()
        config = GameConfig(players=players, rules=rules)
        state, _ = play_random(config, seed, log=True)
        assert state.log is not None
        yield config, state.log


GAMES = list(games())


def gambit_ends(log: list[Event]) -> list[int]:
    return [i + 1 for i, e in enumerate(log) if e[1] in ("gambit_won", "no_winner")]


def test_nothing_before_the_first_gambit() -> None:
    _, log = GAMES[0]
    first = next(i for i, e in enumerate(log) if e[1] == "gambit_start")
    assert gambit_history(log[:first], 0) is None
    lines = history_lines(None, Narrator(NAMES, "en", 0))
    assert lines == ["No gambit yet"]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_gambit_matches_the_engine_log(index: int) -> None:
    config, log = GAMES[index]
    ends = gambit_ends(log)
    assert ends
    for end in ends:
        start = max(i for i in range(end) if log[i][1] == "gambit_start")
        part = log[start:end]
        h = gambit_history(log[:end], 0)
        assert h is not None and h.gambit == part[0][2]["gambit"]
        starts = [e[2] for e in part if e[1] == "round_start"]
        closes = [e[2] for e in part if e[1] == "round_end"]
        assert [(r.number, r.leader) for r in h.rounds] == [
            (d["round"], d["leader"]) for d in starts
        ]
        assert [r.next_leader for r in h.rounds][: len(closes)] == [d["leader"] for d in closes]
        plays = [(d["seat"], d["card"], d["triggered"]) for _, k, d in part if k == "play"]
        got = [(p.seat, p.card, p.triggered) for r in h.rounds for p in r.plays if p.card >= 0]
        assert got == plays
        colors = [(d["seat"], d["amount"]) for _, k, d in part if k == "color_flight"]
        assert [(w.seat, w.gold) for r in h.rounds for w in r.rewards if w.kind == "color"] == (
            colors
        )
        strengths = [d["seat"] for _, k, d in part if k == "strength_flight"]
        assert [w.seat for r in h.rounds for w in r.rewards if w.kind == "strength"] == strengths
        won = [d for _, k, d in part if k == "gambit_won"]
        if won:
            assert (h.winner, h.won) == (won[0]["winner"], won[0]["amount"])
        else:
            assert h.no_winner and h.winner is None
        ante = next(d["cards"] for _, k, d in reversed(part) if k == "ante_reveal")
        assert h.ante == ante
        for lang in LANGS:
            lines = history_lines(h, Narrator(NAMES[: config.players], lang, 0))
            assert len(lines) >= 2 + len(h.rounds)
            assert not any("{" in line for line in lines)


def test_a_strength_flight_says_what_it_stole_and_took() -> None:
    found = 0
    for _, log in GAMES:
        for end in gambit_ends(log):
            h = gambit_history(log[:end], None)
            assert h is not None
            for r in h.rounds:
                for w in r.rewards:
                    if w.kind == "strength" and w.gold:
                        found += 1
                        assert 1 <= w.gold <= w.strength
                        assert 0 <= w.ante_cards <= 3
    assert found


def test_a_copper_dragon_shows_its_replacement_and_whether_it_triggered() -> None:
    seen = 0
    for _, log in GAMES:
        for end in gambit_ends(log):
            h = gambit_history(log[:end], 0)
            assert h is not None
            for r in h.rounds:
                for p in r.plays:
                    for card, triggered in p.replaced:
                        seen += 1
                        assert isinstance(card, int) and isinstance(triggered, bool)
    assert seen


def random_takes() -> Iterator[tuple[list[Event], int, dict[str, int]]]:
    for config, log in GAMES:
        if config.players < 3:
            continue
        for i, (vis, kind, data) in enumerate(log):
            if kind == "take_random_card":
                assert vis is not None and set(vis) == {data["taker"], data["victim"]}
                yield log, i, data


def test_a_card_taken_at_random_is_named_only_to_the_taker_and_the_victim() -> None:
    checked = 0
    for log, i, data in random_takes():
        end = i  # the history just after the take: it is the round's last
        players = len(log[0][2].get("names", [])) or log[0][2]["players"]
        others = [p for p in range(players) if p not in (data["taker"], data["victim"])]
        label = card_label(data["card"], "en")
        for seat in (data["taker"], data["victim"]):
            h = gambit_history(log[: end + 1], seat)
            assert h is not None
            take = h.rounds[-1].takes[-1]
            assert (take.taker, take.victim, take.card) == (
                data["taker"],
                data["victim"],
                data["card"],
            )
            text = "\n".join(history_lines(h, Narrator(NAMES, "en", seat)))
            assert f"{label} at random" in text
        outside: list[int | None] = [*others, None]
        for viewer in outside:
            h = gambit_history(log[: end + 1], viewer)
            assert h is not None
            take = h.rounds[-1].takes[-1]
            assert take.card == -1
            text = "\n".join(history_lines(h, Narrator(NAMES, "en", viewer)))
            assert f"{label} at random" not in text
            assert "a random card from" in text
        checked += 1
    assert checked


def test_a_client_holding_only_its_own_events_gets_the_same_history() -> None:
    """The online terminal keeps the server's events for its seat, visibility dropped."""
    from dragonante.engine.views import events_for

    _, log = GAMES[4]
    end = gambit_ends(log)[1]
    own = [(None, k, d) for _, k, d in events_for(log[:end], 1)]
    assert gambit_history(own, 1) == gambit_history(log[:end], 1)


def test_a_gambit_in_progress_has_an_open_round_and_no_result() -> None:
    _, log = GAMES[1]
    cut = next(i for i, e in enumerate(log) if e[1] == "round_start" and e[2]["round"] == 2) + 2
    h = gambit_history(log[:cut], 0)
    assert isinstance(h, GambitHistory) and not h.over
    assert h.rounds[-1].number == 2 and h.rounds[-1].next_leader is None
    worded = history_dict(h, Narrator(NAMES, "it", 0))
    assert worded["result"] is None and worded["title"] == "Sfida 1"
    assert worded["rounds"][0]["title"].startswith("Round 1, comandato da")


def test_kinds_names_every_event_the_history_reads() -> None:
    """The web server resends the history only after these: a kind read but not
    listed would leave the browser's history behind."""
    from dragonante.interfaces import gambit_history as module

    handlers = {
        name.removeprefix("_")
        for name in vars(module._Reader)
        if name.startswith("_") and not name.startswith("__") and name != "_play_of"
    }
    assert handlers | {"gambit_start"} == module.KINDS
