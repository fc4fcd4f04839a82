"""The text seat (``dragonante.interfaces.text``): the table as text, answers in words.

Whole games are played by text agents only, at every table size and ruleset,
by a scripted stand-in for a language model: it reads nothing but the text
it is handed, replies by number, by the listed words, by a bare name, in
shouted capitals, echoing the numbered line, or with nonsense first, and must
be refused with the list of legal answers and then understood.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonante.bots.base import SeatView
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine import decisions as D
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.game import call_last_gambit
from dragonante.engine.state import GameState
from dragonante.i18n import t
from dragonante.interfaces.narrate import Narrator, card_label, default_names
from dragonante.interfaces.text import (
    NotAnAnswer,
    TextAgentGaveUp,
    TextAnswer,
    TextBot,
    TextSeat,
    fold,
    read_answer,
    text_answers,
)

#: A listed answer: "  3) play Red Dragon (8) *".
LISTED = re.compile(r"^\s+(\d+)\) (.+?)( \*)?$", re.MULTILINE)


def _config(players: int, ruleset: str) -> GameConfig:
    deck = "eg_full" if ruleset == "emperors_gambit" else "legendary"
    return GameConfig(
        players=players, rules=Rules.preset(ruleset), deck=DeckOptions(preset=deck)
    ).validate()


class ScriptedAgent:
    """A stand-in for a language model: answers from the text alone.

    Picks one of the answers it reads, and says it one of several ways; now
    and then it first says something that is no answer, and checks that the
    refusal lists the same answers again.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.listed: list[tuple[int, str]] = []
        self.replies = 0
        self.refusals = 0
        self.bad_next = False

    def __call__(self, text: str) -> str:
        self.replies += 1
        listed = [(int(m[1]), str(m[2])) for m in LISTED.finditer(text)]
        assert listed, f"no answers in the text:\n{text}"
        if self.bad_next:  # the refusal of the nonsense just said
            self.refusals += 1
            assert listed == self.listed, "the refusal lists the answers again"
        self.listed = listed
        if not self.bad_next and self.rng.random() < 0.1:
            self.bad_next = True
            return self.rng.choice(["I fold", "answer 0", "999", "", "play the best card"])
        self.bad_next = False
        number, words = self.rng.choice(listed)
        way = self.rng.randrange(5)
        if way == 0:
            return str(number)
        if way == 1:
            return f"{number}) {words}"
        if way == 2:
            return words.upper()
        if way == 3:
            return f'"{words}."'
        return words


def _play(config: GameConfig, seed: int, lang: str) -> tuple[GameState, list[ScriptedAgent]]:
    s = new_game(config, seed)
    agents = [ScriptedAgent(seed * 10 + p) for p in range(config.players)]
    bots = [TextBot(agents[p], lang=lang) for p in range(config.players)]
    decisions = 0
    while not s.over:
        d = s.pending
        assert d is not None
        answer = bots[d.seat].choose(SeatView(s, d.seat))
        assert answer in d.options
        apply(s, answer, d.id)
        decisions += 1
        if decisions == 600:
            call_last_gambit(s)  # keep the test short: the time limit ends it
    return s, agents


@pytest.mark.parametrize("ruleset", ["legendary", "emperors_gambit", "original"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_games_through_text(players: int, ruleset: str) -> None:
    lang = "it" if players % 2 else "en"
    s, agents = _play(_config(players, ruleset), seed=players * 7 + len(ruleset), lang=lang)
    assert s.over and s.winners
    assert sum(a.replies for a in agents) > 20
    assert sum(a.refusals for a in agents) > 0


def _asked(players: int, seed: int, kind: str) -> GameState:
    """A real game state (random play) in which a seat is asked ``kind``."""
    rng = random.Random(seed)
    for attempt in range(200):
        s = new_game(GameConfig(players=players), seed + attempt)
        while not s.over:
            d = s.pending
            assert d is not None
            if d.kind == kind and len(d.options) > 1:
                return s
            apply(s, rng.choice(d.options), d.id)
    raise AssertionError(f"no {kind} question in 200 games")


def test_play_answers_name_the_card_with_the_verb() -> None:
    s = _asked(4, 1, D.PLAY)
    d = s.pending
    assert d is not None
    view = SeatView(s, d.seat)
    seat = TextSeat.for_view(view)
    answers = seat.answers(view)
    assert sorted(a.answer for a in answers) == sorted(d.options)
    for a in answers:
        assert a.words == f"play {card_label(a.answer, 'en')}"
    text = seat.read(view)
    assert "Round " in text and "Your hand:" in text
    assert "Reply with the number or the words of one answer." in text
    for a in answers:
        assert a.line(len(str(len(answers)))).rstrip(" *") in text
    italian = TextSeat.for_view(view, "it")
    assert [a.words for a in italian.answers(view)] == [
        f"gioca {card_label(a.answer, 'it')}" for a in answers
    ]


def test_paying_instead_is_named_with_the_gold_and_the_creditor() -> None:
    s = _asked(4, 3, D.GIVE_OR_PAY)
    d = s.pending
    assert d is not None and d.ctx is not None
    view = SeatView(s, d.seat)
    seat = TextSeat.for_view(view)
    pay = [a for a in seat.answers(view) if a.answer == D.PASS]
    creditor = default_names(4, "en", d.seat)[d.ctx[0]]
    assert [a.words for a in pay] == [f"pay {d.ctx[1]} gold to {creditor} instead"]
    assert seat.answer(view, f"Pay {d.ctx[1]} gold to {creditor} instead") == D.PASS
    gives = [a for a in seat.answers(view) if a.answer != D.PASS]
    assert gives and all(a.words.startswith("give ") for a in gives)


def _answers() -> list[TextAnswer]:
    return [
        TextAnswer(1, 10, "play Red Dragon (8)", ("Red Dragon (8)",)),
        TextAnswer(2, 11, "play Drago d'Oro (4)", ("Drago d'Oro (4)",)),
        TextAnswer(3, 12, "play Red Dragon (12)", ("Red Dragon (12)",)),
        TextAnswer(4, -1, "pay 5 gold to Bot 1 instead", ()),
    ]


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("1", 10),
        ("  3 ", 12),
        ("#2", 11),
        ("3)", 12),
        ("3) play Red Dragon (12)", 12),
        ("2. play Drago d'Oro (4)", 11),
        ("play Red Dragon (8)", 10),
        ("PLAY RED DRAGON (8)", 10),
        ("red dragon 12", 12),
        ("`Red Dragon (12)`", 12),
        ("play drago d’oro 4.", 11),
        ("play Drago d'Oro (4)!", 11),
        ("Pay 5 gold to Bot 1 instead", -1),
        ("The stakes are low, so I keep my strong cards.\n\nplay Red Dragon (8)", 10),
        ("Thinking...\n3\n", 12),
    ],
)
def test_replies_by_number_or_words(reply: str, answer: int) -> None:
    assert read_answer(reply, _answers()).answer == answer


@pytest.mark.parametrize(
    ("reply", "key"),
    [
        ("0", "text.refused.number"),
        ("5", "text.refused.number"),
        ("play Red Dragon (9)", "text.refused"),
        ("3) play Red Dragon (8)", "text.refused"),  # the number and words disagree
        ("red dragon", "text.refused"),
        ("", "text.refused"),
        ("1\nbut maybe 3", "text.refused"),
    ],
)
def test_a_reply_that_is_no_answer_is_refused_with_the_list(reply: str, key: str) -> None:
    with pytest.raises(NotAnAnswer) as refused:
        read_answer(reply, _answers())
    message = str(refused.value)
    head = t(key, "en", reply=reply.strip(), answers="").strip()
    assert message.startswith(head)
    for a in _answers():
        assert f"  {a.number}) {a.words}" in message
    assert refused.value.answers == _answers()


def test_a_reply_that_fits_two_answers_is_ambiguous() -> None:
    twins = [
        TextAnswer(1, 3, "choose Bot 1", ("Bot 1",)),
        TextAnswer(2, 4, "take Bot 1", ("Bot 1",)),
    ]
    with pytest.raises(NotAnAnswer, match="fits more than one answer"):
        read_answer("bot 1", twins)
    assert read_answer("take bot 1", twins).answer == 4


def test_refusals_speak_italian() -> None:
    with pytest.raises(NotAnAnswer, match="non è una delle risposte") as refused:
        read_answer("boh", _answers(), "it")
    assert "  4) pay 5 gold to Bot 1 instead" in str(refused.value)


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_any_text_is_an_answer_or_a_refusal(reply: str) -> None:
    """Never a traceback: whatever an agent says is read or refused."""
    message = ""
    try:
        assert read_answer(reply, _answers()) in _answers()
    except NotAnAnswer as refused:
        message = str(refused)
    assert not message or "1) play Red Dragon (8)" in message


def test_fold() -> None:
    assert fold("  Drago d’Oro (4).  ") == "drago d oro 4"
    assert fold("PERCHÉ") == "perche"


def test_an_agent_that_never_answers_gives_up_clearly() -> None:
    s = new_game(GameConfig(players=3), 4)
    d = s.pending
    assert d is not None
    said: list[str] = []

    def stubborn(text: str) -> str:
        said.append(text)
        return "no"

    bot = TextBot(stubborn, tries=3)
    with pytest.raises(TextAgentGaveUp, match="no legal answer in 3 replies"):
        bot.choose(SeatView(s, d.seat))
    assert len(said) == 3
    assert said[1].startswith('"no" is not one of the answers.')
    with pytest.raises(ValueError, match="tries"):
        TextBot(stubborn, tries=0)


def test_the_story_is_told_once() -> None:
    s = new_game(GameConfig(players=3), 9)
    d = s.pending
    assert d is not None
    view = SeatView(s, d.seat)
    seat = TextSeat.for_view(view)
    first = seat.read(view)
    assert first.startswith("Since your last turn:") and "A new game" in first
    again = seat.read(view)
    assert "Since your last turn:" not in again and again.startswith("The table:")


def test_no_answers_when_not_asked() -> None:
    s = new_game(GameConfig(players=3), 2)
    d = s.pending
    assert d is not None
    other = next(p for p in range(3) if p != d.seat)
    view = SeatView(s, other)
    seat = TextSeat(other, 3)
    assert seat.answers(view) == []
    assert text_answers(view.observation(), Narrator(["a", "b", "c"], me=other)) == []
    with pytest.raises(NotAnAnswer, match="nothing is being asked"):
        seat.answer(view, "1")


def _hidden_twin(s: GameState, seat: int) -> GameState:
    """``s`` with another seat's hand card swapped with a deck card: ``seat`` sees no change."""
    twin = s.clone()
    twin.log = list(s.log) if s.log is not None else None
    other = next(p for p in range(s.n) if p != seat and twin.hands[p])
    known = {c for c in twin.hands[other] if (twin.known.get(c, 0) >> seat) & 1}
    i = next(i for i, c in enumerate(twin.hands[other]) if c not in known)
    twin.hands[other][i], twin.deck[0] = twin.deck[0], twin.hands[other][i]
    assert twin.hands != s.hands
    return twin


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_text_shows_nothing_the_seat_cannot_see(seed: int) -> None:
    s = _asked(4, seed, D.PLAY)
    d = s.pending
    assert d is not None
    twin = _hidden_twin(s, d.seat)
    real, other = TextSeat(d.seat, 4), TextSeat(d.seat, 4)
    assert real.read(SeatView(s, d.seat)) == other.read(SeatView(twin, d.seat))


@pytest.mark.parametrize(
    ("players", "ruleset", "deck"),
    [(2, "legendary", "legendary"), (5, "emperors_gambit", "eg_full")],
)
def test_the_example_loop_plays_against_bots(players: int, ruleset: str, deck: str) -> None:
    from examples.text_agent import first_answer, play

    agent = ScriptedAgent(3)
    result = play(agent, players, "baseline", seed=4, ruleset=ruleset, deck=deck)
    assert result["questions"] == agent.replies - agent.refusals > 0
    assert result["winners"]
    again = play(first_answer, players, "baseline", seed=4, lang="it", ruleset=ruleset, deck=deck)
    assert again["winners"] and again["questions"]


def test_the_example_runs_a_program_as_the_agent(capsys: pytest.CaptureFixture[str]) -> None:
    """``--command``: the text on the program's stdin, its stdout the reply."""
    import sys

    from examples.text_agent import main

    program = f"{sys.executable} -c \"import sys; sys.stdin.read(); print('1')\""
    assert main(["--command", program, "--players", "2", "--opponents", "random", "--json"]) == 0
    line = capsys.readouterr().out.strip()
    assert json.loads(line)["questions"] > 0
    with pytest.raises(SystemExit) as stopped:
        main(["--command", f'{sys.executable} -c "print(0)"', "--players", "2"])
    assert stopped.value.code == 1
    assert "stopped: The agent named no legal answer in 3 replies." in capsys.readouterr().err
