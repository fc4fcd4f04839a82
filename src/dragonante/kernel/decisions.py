"""Questions a game puts to a seat, and the error for an answer it refuses.

Both games are always either finished or waiting on exactly one
:class:`Decision`: a seat, a kind, and the tuple of legal answers.  Every
answer is a single integer (a card number, a seat, a die face, or a small
negative constant such as :data:`PASS`), so "choose up to N" becomes N single
picks plus a "done" answer and every action space stays small and
JSON-friendly.  The kinds themselves belong to each game
(:mod:`dragonante.engine.decisions`, :mod:`dragonante.dice.decisions`).
"""

from __future__ import annotations

from typing import Final

#: Decline: an optional power, a demand, "pay the gold instead".  Card numbers,
#: seats and die faces are never negative, so it cannot clash with one.
PASS: Final = -1


class IllegalAnswer(ValueError):
    """An answer the current question does not accept; the state is unchanged."""


class Decision:
    """One question: ``seat`` must pick one of ``options``.

    ``id`` is the game's running question number; an answer that names a
    different id is stale.  ``source`` is the card whose power asks (or -1),
    and ``ctx`` carries what the resolver needs (plain ints, so the state
    stays serialisable).
    """

    __slots__ = ("ctx", "id", "kind", "options", "seat", "source")

    def __init__(
        self,
        id: int,
        seat: int,
        kind: str,
        options: tuple[int, ...],
        source: int = -1,
        ctx: tuple[int, ...] = (),
    ) -> None:
        self.id = id
        self.seat = seat
        self.kind = kind
        self.options = options
        self.source = source
        self.ctx = ctx

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "options": list(self.options),
            "source": self.source,
            "ctx": list(self.ctx),
        }

    def __repr__(self) -> str:
        return (
            f"Decision(id={self.id}, seat={self.seat}, kind={self.kind!r}, "
            f"options={self.options}, source={self.source}, ctx={self.ctx})"
        )
