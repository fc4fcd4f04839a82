"""``play --plain`` says, under each card of a play question, why it would trigger or not.

The reason is :func:`~dragonante.interfaces.trigger_hint.trigger_reason`'s
(issue 31): every numbered card of a play question is followed by its
"triggers: ..." or "does not trigger: ..." line, in the table's language.
"""

from __future__ import annotations

from tests.interfaces.conftest import Cli


def play_questions(out: str) -> list[list[str]]:
    """The lines of each play question ("your turn: play a card") the command printed."""
    blocks = []
    for part in out.split("your turn: play a card")[1:]:
        blocks.append(part.split("Your choice (1-")[0].strip().splitlines())
    return blocks


def test_every_card_to_play_says_why_it_would_trigger_or_not(cli: Cli) -> None:
    r = cli(["play", "--plain", "--players", "2", "--seed", "3"], "1\n" * 12 + "q\n")
    assert r.code == 0, r.err
    blocks = play_questions(r.out)
    assert len(blocks) >= 2
    reasons = 0
    for lines in blocks:
        for i, line in enumerate(lines):
            if line.lstrip()[:2].rstrip(")").isdigit() and ") " in line:
                reason = lines[i + 1].strip()
                assert reason.startswith(("triggers: ", "does not trigger: ")), lines
                reasons += 1
    assert reasons >= 5
    assert "triggers: the first card of a round always triggers" in r.out


def test_the_reason_is_in_italian_at_an_italian_table(cli: Cli) -> None:
    r = cli(["play", "--plain", "--players", "2", "--seed", "3", "--lang", "it"], "1\nq\n")
    assert r.code == 0, r.err
    assert "triggers:" not in r.out and "does not trigger" not in r.out
