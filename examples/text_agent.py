"""A language model (or any text agent) at a table against dragonante's bots.

    python examples/text_agent.py --command "llm -s 'You play Three-Dragon Ante.'"
    python examples/text_agent.py --human --lang it --players 3
    python examples/text_agent.py --opponents baseline --games 5 --seed 1 --json
    python examples/text_agent.py --command "ollama run llama3" --join http://HOST/t/CODE

Each time the agent's seat is asked, it is handed what a person at the table
sees (:class:`dragonante.interfaces.text.TextSeat`: what happened since its
last turn, the table, the question and its legal answers, numbered and
named in words) and replies with text: a number, the words of an answer or
a name.  A reply that names no legal answer is answered with a refusal that
lists them again (three tries per question).

The agent is a function ``respond(text) -> reply``.  This example offers two:

* ``--command CMD``: a program run once per question, the text on its
  standard input, the reply on its standard output (the way command-line
  clients of language models, such as ``llm`` or ``ollama run MODEL``, work;
  the network, if any, is theirs);
* ``--human``: you, at the keyboard.

Without either, a stand-in plays: it answers with the first legal answer by
its words (the tests play whole games with it, and with scripted agents).

``--join`` seats the agent at a table of a ``dragonante serve`` instead (the
table's address, or ``#token=...`` to take a seat back), beside people and the
server's bots, over the protocol ``play --join`` speaks
(:mod:`dragonante.interfaces.remote_agent`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
from collections.abc import Sequence

from dragonante.bots import make_bot
from dragonante.bots.base import Bot, SeatView
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.game import call_last_gambit
from dragonante.interfaces.text import LISTED_ANSWER, Respond, TextAgentGaveUp, TextBot

#: Engine decisions after which the time limit (Emperor's Gambit rule 5) is called.
TIME_LIMIT = 2000


def first_answer(text: str) -> str:
    """The stand-in agent: the words of the first listed answer."""
    m = LISTED_ANSWER.search(text)
    return m.group(2) if m else "1"


def command_agent(command: str, timeout: float = 120.0) -> Respond:
    """An agent that is a program: the text on its stdin, the reply from its stdout."""
    argv = shlex.split(command)

    def respond(text: str) -> str:
        done = subprocess.run(  # the command is the user's own
            argv, input=text, capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout.strip()

    return respond


def human_agent(text: str) -> str:
    print(text)
    return input("> ")


def play(
    respond: Respond,
    players: int = 4,
    opponents: str = "heuristic",
    seed: int = 0,
    lang: str = "en",
    seat: int = 0,
    ruleset: str = "legendary",
    deck: str = "legendary",
    show: bool = False,
) -> dict[str, object]:
    """One game: the text agent at ``seat``, ``opponents`` (a bot spec) elsewhere.

    Returns the winners, the hoards, and how many questions the agent answered.
    """
    config = GameConfig(
        players=players, rules=Rules.preset(ruleset), deck=DeckOptions(preset=deck)
    ).validate()
    s = new_game(config, seed)
    agent = TextBot(respond, lang=lang)
    seats: list[Bot] = [
        agent if p == seat else make_bot(opponents, seed * 101 + p) for p in range(players)
    ]
    asked = 0
    while not s.over:
        d = s.pending
        assert d is not None
        if d.seat == seat:
            asked += 1
        apply(s, seats[d.seat].choose(SeatView(s, d.seat)), d.id)
        if s.decision_count >= TIME_LIMIT:
            call_last_gambit(s)
    if show:  # the end of the story, which the agent was never asked about
        print("\n".join(agent.text_seat.story(SeatView(s, seat)) if agent.text_seat else []))
    return {
        "seed": seed,
        "winners": list(s.winners),
        "won": seat in s.winners,
        "hoards": list(s.hoards),
        "questions": asked,
    }


def join_table(
    address: str, name: str, respond: Respond, lang: str, parser: argparse.ArgumentParser
) -> int:
    """Sit the agent at a web table (``--join``) and play it to the end."""
    from dragonante.interfaces.remote_agent import RemoteAgentError, sit, text_agent
    from dragonante.interfaces.tui.lobby import JoinError, join, parse_target

    try:
        seating = join(parse_target(address), name)
        result = sit(seating, text_agent(respond), lang)
    except JoinError as refused:
        parser.exit(1, f"{refused.message(lang)}\n")
    except (RemoteAgentError, TextAgentGaveUp, RuntimeError) as stopped:
        parser.exit(1, f"the game stopped: {stopped}\n")
    print(json.dumps(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--command", help="a program: the text on stdin, the reply on stdout")
    who.add_argument("--human", action="store_true", help="you answer at the keyboard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="heuristic", help="a bot spec (dragonante bots)")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lang", choices=("en", "it"), default="en")
    parser.add_argument("--ruleset", default="legendary")
    parser.add_argument("--deck", default="legendary")
    parser.add_argument("--json", action="store_true", help="one JSON line per game")
    parser.add_argument("--join", help="a web table's address: play there instead")
    parser.add_argument("--name", default="Agent", help="the seat's name at a web table")
    args = parser.parse_args(argv)
    respond: Respond = first_answer
    if args.command:
        respond = command_agent(args.command)
    elif args.human:
        respond = human_agent
    if args.join:
        return join_table(args.join, args.name, respond, args.lang, parser)
    wins = 0
    for g in range(args.games):
        try:
            result = play(
                respond,
                args.players,
                args.opponents,
                args.seed + g,
                args.lang,
                ruleset=args.ruleset,
                deck=args.deck,
                show=args.human,
            )
        except (TextAgentGaveUp, RuntimeError, subprocess.TimeoutExpired) as stopped:
            parser.exit(1, f"game {g + 1} stopped: {stopped}\n")
        wins += bool(result["won"])
        print(json.dumps(result) if args.json else f"game {g + 1}: {result}")
    if not args.json:
        print(f"won {wins} of {args.games}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
