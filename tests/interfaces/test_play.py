"""``dragonante play``: a whole game at the terminal driven by a scripted stdin.

Covers the happy path to the end of a game, bad answers asked again, card
help, Italian, every way of stopping (end of input, ``q``, Ctrl-C), the
game record, bad options (one line, exit 2), and - over several random
games - that the screen never names a card of another seat's hand (or of
the deck) that the seat has not been shown.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dragonante.cards import ALL_CARDS
from dragonante.engine.config import DeckOptions, GameConfig
from dragonante.engine.records import loads, replay
from dragonante.engine.state import GameState
from dragonante.engine.views import events_for, observe, visible_discards
from dragonante.interfaces.cli.local_plain import PlaySession
from dragonante.interfaces.narrate import Narrator, card_label, default_names
from dragonante.interfaces.session import LocalGame
from tests.interfaces.conftest import Cli, assert_one_line_error

SHORT = ["play", "--players", "2", "--gold-per-player", "8", "--seed", "3"]
ONES = "1\n" * 3000


def test_a_short_game_plays_to_the_end_and_bad_answers_are_asked_again(cli: Cli) -> None:
    script = "\n".join(["banana", "0", "99", "", "?1", "?zz", "h", "t", "?druid"]) + "\n" + ONES
    r = cli(SHORT, script)
    assert r.code == 0, r.err
    out = r.out
    assert "'banana' is not an answer: type a number from 1 to 6 (h for help)." in out
    assert "There is no choice 0: type a number from 1 to 6." in out
    assert "There is no choice 99: type a number from 1 to 6." in out
    assert "No card is called 'zz'." in out
    assert "?N      the full text of the card or ability in choice N" in out  # the help
    assert "The Druid (strength 6)" in out and "the weakest flight wins" in out.lower()
    # the ante question was asked again after every bad answer, then answered
    first_question = out.index("Gambit 1: choose your ante card.")
    assert out.count("Your choice (1-6, h for help): ", first_question) >= 10
    assert "You ante " in out
    # the table: stakes, hole, deck, discard, hoards, hands, flights with totals
    assert "Stakes: " in out and "Hole: " in out and "Deck: " in out and "Discard pile: " in out
    assert "  Player  Hoard  Hand  Flight" in out
    assert " = " in out  # a flight total
    assert "(leads)" in out
    assert "* = its power would trigger if you played it now." in out
    assert "--- Game over ---" in out
    assert "Game over. Winner" in out or "Game over. Tied winners" in out
    assert ("You win the game!" in out) or ("Winner: " in out)
    assert r.err == ""


def test_card_help_shows_the_full_text_of_a_choice(cli: Cli) -> None:
    r = cli(SHORT, "?6\n")
    assert r.code == 0
    # seed 3: the strongest card of the first hand, listed last, is a 10
    help_text = r.out.split("Your choice (1-6, h for help): ", 1)[1]
    title = help_text.splitlines()[0]
    assert "(10) - " in title
    assert "Power: " in help_text


def test_italian_names_texts_and_messages(cli: Cli) -> None:
    r = cli([*SHORT, "--lang", "it"], ONES)
    assert r.code == 0, r.err
    out = r.out
    assert "Tre Draghi al Buio: 2 giocatori, seme 3." in out
    assert "Piatto: " in out and "Tana: " in out and "Tesoro" in out and "Stormo" in out
    assert "Drago " in out and " mo" in out
    assert "scegli la tua carta d'apertura" in out
    assert "Stakes" not in out and "Dragon (" not in out and "Your choice" not in out


def test_end_of_input_stops_cleanly_with_exit_0(cli: Cli) -> None:
    r = cli(SHORT, "1\n")
    assert r.code == 0
    assert r.out.rstrip().endswith("The input ended: the game stops here.")
    assert "Traceback" not in r.out + r.err


def test_q_leaves_the_table(cli: Cli) -> None:
    r = cli(SHORT, "q\n")
    assert r.code == 0
    assert "You leave the table." in r.out


class CtrlC:
    def readline(self) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_stops_with_exit_130_and_saves_the_record(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    r = cli([*SHORT, "--record", str(path)], CtrlC())
    assert r.code == 130
    assert "Interrupted: the game stops here." in r.out
    record = loads(path.read_text())
    assert record.answers == [] and record.seed == 3


def test_the_record_replays_to_the_same_game(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    r = cli([*SHORT, "--record", str(path)], ONES)
    assert r.code == 0
    assert f"Game record saved in {path}" in r.out
    record = loads(path.read_text())
    assert record.final_digest is not None and record.config.players == 2
    state = replay(record)  # verifies the digest
    assert state.over
    # the same seed and answers give the same game: the bots are seeded too
    r2 = cli([*SHORT, "--record", str(tmp_path / "again.json")], ONES)
    assert json.loads((tmp_path / "again.json").read_text()) == json.loads(path.read_text())
    assert r2.out == r.out.replace(str(path), str(tmp_path / "again.json"))


def test_opponents_may_differ_by_seat_and_sit_clockwise_from_your_left(cli: Cli) -> None:
    r = cli(
        ["play", "-p", "3", "--seat", "1", "--opponents", "random,baseline", "--seed", "2"], "q\n"
    )
    assert r.code == 0, r.err
    # bots are counted from 1 among the bots: seat 2 (your left) is Bot 2, seat 0 Bot 1
    assert "  Bot 2: random" in r.out and "  Bot 1: baseline" in r.out
    assert "You sit in seat 1." in r.out


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--players", "7"], ["--players must be 2-6, got 7"]),
        (["--players", "2", "--seat", "2"], ["--seat must be 0-1, got 2"]),
        (["--lang", "fr"], ["unknown language 'fr'"]),
        (["--opponents", "nobody"], ["unknown bot 'nobody'", "random"]),
        (["--opponents", "random,"], ["empty bot name"]),
        (["--players", "3", "--opponents", "random,random,random"], ["got 3"]),
        (["--opponents", "ismcts:depth=3"], ["no setting"]),
        (["--gold-per-player", "9"], ["one of 8, 10, 12, 15, got 9"]),
        (["--deck-selection", "lucky"], ["unknown --deck-selection 'lucky'"]),
        (["--include", "L-std-red-12"], ["'L-std-red-12' is not a special card key"]),
        (["--deck-selection", "agreed"], ["cannot set up this table", "agreed"]),
        (["--lang", "it", "--players", "9"], ["--players deve essere tra 2 e 6, non 9"]),
    ],
)
def test_bad_options_are_one_line_errors(cli: Cli, args: list[str], fragments: list[str]) -> None:
    assert_one_line_error(cli(["play", *args], "q\n"), *fragments)


def test_an_unwritable_record_is_a_one_line_error(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "dir" / "game.json"
    assert_one_line_error(cli([*SHORT, "--record", str(path)], "q\n"), "cannot write the record")


# --- nothing secret on screen -------------------------------------------------


def mentioned_cards(events: list) -> set[int]:  # type: ignore[type-arg]
    """Every card number an event names (it was shown to the seat by that event)."""
    found: set[int] = set()
    for _vis, _kind, data in events:
        for name, value in data.items():
            if name in ("card", "old", "new", "gave", "took", "this", "answer"):
                if isinstance(value, int):
                    found.add(value)
            elif name == "cards":
                found.update(value)
    return found


def secret_cards(s: GameState, me: int) -> set[int]:
    """Cards ``me`` may not know the place of: other hands, other face-down antes,
    the deck, the cards set aside, face-down discards it did not see."""
    obs = observe(s, me)
    secret = {c for p in range(s.n) if p != me for c in s.hands[p]}
    secret |= {c for p, c in enumerate(s.ante_choice) if p != me and c >= 0}
    secret |= set(s.deck) | set(s.aside)
    secret |= set(s.discard) - set(visible_discards(s, me))
    secret -= {c for cards in obs.known_in_hands.values() for c in cards}
    if obs.specials:
        secret -= set(obs.specials)
    return secret


class Watcher:
    """A player who answers at random and, before each answer, checks the screen."""

    def __init__(self, capsys: pytest.CaptureFixture[str], seed: int, lang: str) -> None:
        self.capsys = capsys
        self.rng = random.Random(seed)
        self.lang = lang
        self.game: LocalGame | None = None
        self.logged = 0
        self.screens = 0

    def check(self) -> None:
        """What was printed since the last check names no secret card, except
        cards the events printed since then showed to this seat."""
        game = self.game
        assert game is not None
        s = game.state
        shown = self.capsys.readouterr().out
        log = s.log or []
        new = events_for(log, game.human, self.logged)
        self.logged = len(log)
        leaked = secret_cards(s, game.human) - mentioned_cards(new)
        for c in leaked:
            assert card_label(c, self.lang) not in shown, (c, ALL_CARDS[c].id, shown)
        self.screens += 1

    def readline(self) -> str:
        self.check()
        assert self.game is not None
        d = self.game.state.pending
        assert d is not None and d.seat == self.game.human
        if self.rng.random() < 0.1:
            return "t\n"  # show the table again: checked at the next answer
        return f"{self.rng.randint(1, len(d.options))}\n"


@pytest.mark.parametrize(
    ("players", "seat", "deck", "lang"),
    [
        (2, 0, DeckOptions(), "en"),
        (3, 1, DeckOptions(selection="pick_em"), "it"),
        (4, 3, DeckOptions(reveal_specials=True, forced_includes=("L-leg-silver-seer",)), "en"),
        (
            3,
            2,
            DeckOptions(forced_includes=("L-mor-thief", "L-mor-prophet", "L-leg-red-destroyer")),
            "en",
        ),
    ],
)
def test_the_screen_never_shows_a_card_the_seat_has_not_seen(
    capsys: pytest.CaptureFixture[str], players: int, seat: int, deck: DeckOptions, lang: str
) -> None:
    screens = 0
    for seed in range(3):
        config = GameConfig(players=players, gold_per_player=8, deck=deck).validate()
        game = LocalGame(config, seed, seat, ["random"] * (players - 1))
        narrator = Narrator(default_names(players, lang, me=seat), lang, me=seat)
        watcher = Watcher(capsys, seed, lang)
        watcher.game = game
        capsys.readouterr()
        assert PlaySession(game, narrator, None, watcher).run() == 0  # type: ignore[arg-type]
        assert game.over
        watcher.check()  # the end of the game too
        screens += watcher.screens
    assert screens > 30


def test_the_log_command_retells_everything_seen_so_far(cli: Cli) -> None:
    r = cli(SHORT, "1\nl\nq\n")
    assert r.code == 0
    after_l = r.out.split("Your choice (1-", 2)[2]
    assert after_l.count("A new game: 2 players, 16 gold each, 80 cards in the deck.") == 1
    assert "You draw 6 cards: " in after_l and "You ante " in after_l


def test_card_help_refuses_choices_that_are_not_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from dragonante.interfaces.narrate import Option, Prompt

    config = GameConfig(players=2).validate()
    game = LocalGame(config, 1, 0, ["random"])
    session = PlaySession(game, Narrator(["You", "Bot 1"], "en", me=0), None, None)  # type: ignore[arg-type]
    prompt = Prompt(1, "blue_mode", "?", [Option(0, "Each opponent gives you 1 gold")])
    session.card_help("1", prompt)
    session.card_help("2", prompt)
    session.card_help("priest", prompt)
    out = capsys.readouterr().out
    assert "Choice 1 is not a card." in out
    assert "There is no choice 2: type a number from 1 to 1." in out
    assert "The Priest (strength 5)" in out and "The Wyrmpriest (strength 5)" in out
