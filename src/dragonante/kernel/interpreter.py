"""The step interpreter both games run on, and its registries.

A game's state holds only data: a stack of small steps (``state.queue``, the
next step at the end) and at most one pending :class:`Decision`.  A
:class:`Registry` maps step names to the functions that carry them out,
decision kinds to the functions that resolve an answer, and power names to
the powers; running the game is popping steps until one of them asks a
question.  Because nothing in the state is a closure or a generator, a
state paused deep inside a chain of powers can still be cloned, hashed,
saved and searched.

A step is a small named record kept as a plain tuple: its name, then its
items, whose names the step declares once where it is registered
(``@step("give_or_pay", "giver", "receiver", "text")``; a last field
``*name`` takes any number of items).  :meth:`Registry.named` reads a step as
that record.  Plain tuples because the queue is the hot path: a tuple is
built and unpacked at C speed and serialises as the list the saved states and
golden digests already hold, where a ``NamedTuple`` costs about nine times
as much to build (``docs/engine.md``, "Steps are named records").

Each game builds its own registry (``dragonante.engine.core.RULES`` for the
card game, ``dragonante.dice.core.RULES`` for the Dice Gambit), so the two
games' step names can never clash, and registers into it with the
decorators :meth:`Registry.step`, :meth:`Registry.resolver` and
:meth:`Registry.power`.  Registering one name twice is an error: a silent
overwrite would make the game depend on import order.

Three ways to answer, one interpreter:

* :attr:`Registry.apply` validates (the game is not over, the id is current,
  the answer is legal) *before* it changes anything, so a refused answer
  leaves the state exactly as it was.  Everything a person or a remote
  client answers goes through it.
* :attr:`Registry.advance` trusts its caller: no validation, no id.  Search
  and self-play call it hundreds of thousands of times with answers taken
  from ``state.pending.options``; it is the whole hot path.
* :meth:`Registry.answered` applies a (validated) answer to a copy and says
  whether it drew on the seeded random stream: the question "does this
  answer draw on chance", asked by the OpenSpiel adapter before it puts
  chance nodes in front of a random step.

Standard library only, like both engines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, Self, TypeVar

from dragonante.kernel.decisions import Decision, IllegalAnswer
from dragonante.kernel.errors import RunawayGame

#: One interpreter step: its name first, then plain data (ints, tuples of ints).
Step = tuple[Any, ...]


class KernelState(Protocol):
    """What the interpreter needs of a game's state."""

    #: The question waiting for an answer; None while steps run or once the game is over.
    pending: Decision | None
    #: Steps still to run; the next one is at the end.
    queue: list[Step]
    #: The seeded random stream (:mod:`dragonante.kernel.rng`): every draw changes it.
    rng: int

    def clone(self) -> Self:
        """An independent copy of the position."""
        ...


S = TypeVar("S", bound=KernelState)
S_contra = TypeVar("S_contra", bound=KernelState, contravariant=True)
P = TypeVar("P")


class Apply(Protocol[S_contra]):
    """The validated answer (:attr:`Registry.apply`)."""

    def __call__(self, s: S_contra, answer: int, decision_id: int | None = None) -> bool: ...


#: Why an answer is refused, worded by the game; None: the generic message.
Explain = Callable[[Decision, object], "str | None"]


class Registry(Generic[S, P]):
    """One game's steps, resolvers and powers, and the interpreter that runs them.

    ``S`` is the game's state class, ``P`` the signature of its powers.
    ``max_steps``: the bound on work per answer: ``run`` and ``advance``
    raise :class:`~dragonante.kernel.errors.RunawayGame` after that many
    steps without a question (None: no bound, for tests of the loop itself).
    ``explain`` words a refusal for the game's own kinds (a die face out of
    range) before the generic message.

    ``run``, ``apply`` and ``advance`` are plain functions made once per
    registry (closures over its tables), not methods: they are the engine's
    hot path and a call through them costs what a module function costs.
    """

    __slots__ = ("advance", "apply", "fields", "name", "powers", "resolvers", "run", "steps")

    def __init__(
        self, name: str, *, max_steps: int | None = None, explain: Explain | None = None
    ) -> None:
        self.name = name
        #: Interpreter steps by name: ``steps[step[0]](state, step)``.
        self.steps: dict[str, Callable[[S, Step], None]] = {}
        #: Each step's field names, after its name (:meth:`named`).
        self.fields: dict[str, tuple[str, ...]] = {}
        #: Answer handlers by decision kind: ``resolvers[d.kind](state, d, answer)``.
        self.resolvers: dict[str, Callable[[S, Decision, int], None]] = {}
        #: Powers by name (the card game's power families; the dice game has none).
        self.powers: dict[str, P] = {}
        self.run: Callable[[S], None]
        self.advance: Callable[[S, int], None]
        self.run, self.advance = _loops(self.steps, self.resolvers, name, max_steps)
        self.apply: Apply[S] = _validated(self.resolvers, self.run, explain)

    # --- registration -----------------------------------------------------------

    def step(
        self, name: str, *fields: str
    ) -> Callable[[Callable[[S, Step], None]], Callable[[S, Step], None]]:
        """Register the function that carries out steps named ``name``, whose
        items after the name are ``fields`` (the last may be ``*rest``)."""
        if any(f.startswith("*") for f in fields[:-1]):
            raise ValueError(f"{self.name} step {name!r}: only the last field may be *starred")

        def register(fn: Callable[[S, Step], None]) -> Callable[[S, Step], None]:
            _add(self.steps, name, fn, f"{self.name} step")
            self.fields[name] = fields
            return fn

        return register

    def named(self, st: Step) -> dict[str, Any]:
        """The step ``st`` as its record: ``{"step": name, field: item, ...}``, a
        ``*rest`` field holding the tuple of the items left.  ``ValueError`` if
        ``st`` is not a registered step or its items do not fit its fields."""
        name = st[0]
        fields = self.fields.get(name) if isinstance(name, str) else None
        if fields is None:
            raise ValueError(f"{st!r} is not a {self.name} step")
        items = st[1:]
        fixed = fields[:-1] if fields and fields[-1].startswith("*") else fields
        if len(items) < len(fixed) or (len(fixed) == len(fields) and len(items) > len(fixed)):
            raise ValueError(f"{st!r} does not fit the step {name}{fields}")
        record: dict[str, Any] = {"step": name, **dict(zip(fixed, items, strict=False))}
        if len(fixed) < len(fields):
            record[fields[-1][1:]] = tuple(items[len(fixed) :])
        return record

    def resolver(
        self, kind: str
    ) -> Callable[[Callable[[S, Decision, int], None]], Callable[[S, Decision, int], None]]:
        """Register the function that resolves answers to questions of ``kind``."""

        def register(fn: Callable[[S, Decision, int], None]) -> Callable[[S, Decision, int], None]:
            _add(self.resolvers, kind, fn, f"{self.name} resolver")
            return fn

        return register

    def power(self, *names: str) -> Callable[[P], P]:
        """Register a power under each of ``names`` (cards that share a text)."""

        def register(fn: P) -> P:
            for name in names:
                _add(self.powers, name, fn, f"{self.name} power")
            return fn

        return register

    # --- chance -------------------------------------------------------------------

    def answered(self, s: S, answer: int, decision_id: int | None = None) -> tuple[S, bool]:
        """A copy of ``s`` after ``answer`` (validated like :attr:`apply`), and
        whether the answer drew on the seeded random stream.

        ``s`` itself never changes.  A caller that keeps the copy when no chance
        was drawn (copy-on-write, like the OpenSpiel adapter) pays one clone and
        one answer, the same as answering a copy it made itself.
        """
        after = s.clone()
        return after, self.apply(after, answer, decision_id)

    def draws_on_chance(self, s: S, answer: int) -> bool:
        """Does ``answer`` to the pending question draw on the random stream
        (a reshuffle, a card taken at random, a seeded die)?  ``s`` is unchanged.

        Only playing it out can tell (a draw reshuffles only when the deck runs
        out), so this answers a copy; :meth:`answered` keeps that copy.
        """
        return self.answered(s, answer)[1]


def _add(table: dict[str, Any], name: str, fn: Any, what: str) -> None:
    if name in table and table[name] is not fn:
        raise ValueError(f"{what} {name!r} is registered twice")
    table[name] = fn


def _loops(
    steps: dict[str, Callable[[S, Step], None]],
    resolvers: dict[str, Callable[[S, Decision, int], None]],
    name: str,
    max_steps: int | None,
) -> tuple[Callable[[S], None], Callable[[S, int], None]]:
    """The interpreter loop and the trusted answer, with or without a step budget.

    ``advance`` repeats the loop instead of calling ``run``: it is the one call
    per answer that self-play and search make, and a call saved there is
    measurable in ``dragonante bench``.
    """
    if max_steps is None:

        def run(s: S) -> None:
            """Interpret queued steps until a question is pending or the game is over."""
            queue = s.queue
            while s.pending is None and queue:
                st = queue.pop()
                steps[st[0]](s, st)

        def advance(s: S, answer: int) -> None:
            """Answer the pending question without checking the answer (search, self-play)."""
            d = s.pending
            if d is None:
                raise IllegalAnswer("the game is over: there is no question to answer")
            s.pending = None
            resolvers[d.kind](s, d, answer)
            queue = s.queue
            while s.pending is None and queue:
                st = queue.pop()
                steps[st[0]](s, st)

        return run, advance

    budget = range(max_steps)
    message = (
        f"the {name} ran {max_steps} steps after one answer without reaching a question"
        " (a chain that does not end: a bug, or a table the engine cannot finish)"
    )

    def run_counted(s: S) -> None:
        """Interpret queued steps until a question is pending or the game is over."""
        queue = s.queue
        for _ in budget:  # cheaper than a counter: the range's iterator counts in C
            if s.pending is not None or not queue:
                return
            st = queue.pop()
            steps[st[0]](s, st)
        if s.pending is None and queue:
            raise RunawayGame(message, "steps", max_steps)

    def advance_counted(s: S, answer: int) -> None:
        """Answer the pending question without checking the answer (search, self-play)."""
        d = s.pending
        if d is None:
            raise IllegalAnswer("the game is over: there is no question to answer")
        s.pending = None
        resolvers[d.kind](s, d, answer)
        queue = s.queue
        for _ in budget:
            if s.pending is not None or not queue:
                return
            st = queue.pop()
            steps[st[0]](s, st)
        if s.pending is None and queue:
            raise RunawayGame(message, "steps", max_steps)

    return run_counted, advance_counted


def _validated(
    resolvers: dict[str, Callable[[S, Decision, int], None]],
    run: Callable[[S], None],
    explain: Explain | None,
) -> Apply[S]:
    def apply(s: S, answer: int, decision_id: int | None = None) -> bool:
        """Answer the pending question; raise :class:`IllegalAnswer` if it cannot be,
        leaving the state unchanged.  True if the answer drew on the random stream."""
        d = s.pending
        if d is None:
            raise IllegalAnswer("the game is over: there is no question to answer")
        if decision_id is not None and decision_id != d.id:
            raise IllegalAnswer(
                f"stale answer: it answers question {decision_id}, the current question is {d.id}"
            )
        if type(answer) is not int or answer not in d.options:
            why = explain(d, answer) if explain is not None else None
            raise IllegalAnswer(
                why or f"{answer!r} is not a legal answer to {d.kind!r}; legal: {list(d.options)}"
            )
        before = s.rng
        s.pending = None
        resolvers[d.kind](s, d, answer)
        run(s)
        return s.rng != before

    return apply
