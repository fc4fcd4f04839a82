"""``dragonante serve`` (the game server and web client) and ``dragonante loadtest``.

``serve`` opens the database first (SQLite file by default, PostgreSQL by
URL; migrations run automatically), so a bad ``--db`` or a busy port is one
line on stderr, not a traceback; then it runs the server until Ctrl-C.
Unfinished games in the database resume where they stopped.
"""

from __future__ import annotations

import errno
import json
import os
import socket
from typing import TYPE_CHECKING, Annotated

import typer

from dragonante.engine.abilities.catalog import SYSTEMS
from dragonante.engine.abilities.options import VISIBILITIES
from dragonante.engine.config import RULESETS
from dragonante.engine.decks import PRESETS
from dragonante.i18n import t
from dragonante.interfaces.cli.app import app, fail
from dragonante.interfaces.cli.run_options import (
    FIRST_SEED,
    JSON,
    LANG,
    PLAYERS,
    SECONDS,
    WORKERS,
    JsonOpt,
    LangOpt,
    check_lang,
)
from dragonante.interfaces.cli.table_options import DeckOpt, cli_name, engine_name, helptext

if TYPE_CHECKING:
    from dragonante.interfaces.web.load import LoadReport

#: The log levels uvicorn knows.
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def _check_port(host: str, port: int, lang: str) -> None:
    """Fail early (one line) when the address cannot be bound."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        fail(t("serve.error.resolve", lang, host=host, reason=e.strerror))
        return
    family, kind, proto, _name, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                fail(t("serve.error.port_in_use", lang, port=port, host=host))
            fail(t("serve.error.listen", lang, host=host, port=port, reason=e.strerror))


#: Seconds uvicorn's supervisor waits for a ``--workers`` process to answer
#: its health check before it SIGKILLs and replaces it.  uvicorn's own 5 s
#: killed workers that were busy, not hung (resuming tables at start-up,
#: a long collector pause, two cores shared with PostgreSQL and the load
#: client): every socket and table of the worker dropped, and a worker
#: still starting on a busy machine was killed again and again (issue 22,
#: hole 9; ``tests/web/test_workers.py``).  The cluster does not need the
#: supervisor to be quick: another process takes a silent worker's tables
#: over after the lease (``--lease``), and the worker, back, finds them
#: gone (the fence).  A worker hung for a minute is still replaced.
WORKER_HEALTHCHECK = 60


def _shortest(*seconds: float) -> float:
    """The shortest of the enabled (non-zero) time limits (20 s if none is)."""
    return min((s for s in seconds if s > 0), default=20.0)


def offered_bots(given: list[str], lang: str) -> tuple[tuple[str, str], ...]:
    """``--bot NAME=SPEC`` options, each offered to the clients under ``NAME``
    (``dragonante.bots.registry.offer``: the spec is checked and loaded here,
    from the server's own command line; clients only ever pick the name)."""
    from dragonante.bots import offer

    pairs: list[tuple[str, str]] = []
    for raw in given:
        name, sep, spec = raw.partition("=")
        if not sep or not name.strip() or not spec.strip():
            fail(t("serve.error.bot_form", lang, given=raw))
        try:
            offer(name.strip(), spec.strip())
        except (KeyError, ValueError) as e:
            fail(t("serve.error.bot", lang, given=raw, reason=str(e).strip("'\"")))
        pairs.append((name.strip(), spec.strip()))
    return tuple(pairs)


@app.command("serve", help=helptext("cmd.serve"))
def serve(
    host: Annotated[str, typer.Option(help=helptext("opt.serve_host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=helptext("opt.serve_port"), min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help=helptext("opt.serve_db")),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help=helptext("opt.serve_bot_delay"), min=0, max=30)
    ] = 0.8,
    max_rate: Annotated[
        float,
        typer.Option(help=helptext("opt.serve_max_rate"), min=1),
    ] = 20.0,
    log_level: Annotated[str, typer.Option(help=helptext("opt.serve_log_level"))] = "info",
    ruleset: Annotated[
        str, typer.Option("--ruleset", help=helptext("opt.serve_ruleset"))
    ] = "legendary",
    deck: DeckOpt = "legendary",
    abilities: Annotated[
        str, typer.Option("--abilities", help=helptext("opt.ability_serve"))
    ] = "none",
    ability_visibility: Annotated[
        str | None,
        typer.Option("--ability-visibility", help=helptext("opt.ability_serve_visibility")),
    ] = None,
    limit_tables: Annotated[int, typer.Option(help=helptext("opt.serve_limit_tables"), min=0)] = 20,
    limit_seats: Annotated[int, typer.Option(help=helptext("opt.serve_limit_seats"), min=0)] = 60,
    limit_sockets: Annotated[
        int, typer.Option(help=helptext("opt.serve_limit_sockets"), min=0)
    ] = 120,
    limit_manage: Annotated[
        int, typer.Option(help=helptext("opt.serve_limit_manage"), min=0)
    ] = 120,
    limit_replays: Annotated[
        int, typer.Option(help=helptext("opt.serve_limit_replays"), min=0)
    ] = 120,
    limit_codes: Annotated[int, typer.Option(help=helptext("opt.serve_limit_codes"), min=0)] = 60,
    limit_lookups: Annotated[
        int, typer.Option(help=helptext("opt.serve_limit_lookups"), min=0)
    ] = 300,
    limit_hints: Annotated[int, typer.Option(help=helptext("opt.serve_limit_hints"), min=0)] = 20,
    limit_window: Annotated[
        float, typer.Option(help=helptext("opt.serve_limit_window"), min=1)
    ] = 600.0,
    max_tables: Annotated[int, typer.Option(help=helptext("opt.serve_max_tables"), min=0)] = 2000,
    max_sockets: Annotated[
        int, typer.Option(help=helptext("opt.serve_max_sockets"), min=0)
    ] = 10000,
    max_sockets_per_address: Annotated[
        int, typer.Option(help=helptext("opt.serve_max_sockets_per_address"), min=0)
    ] = 40,
    open_table_ttl: Annotated[
        float, typer.Option(help=helptext("opt.serve_open_table_ttl"), min=0)
    ] = 3600.0,
    finished_grace: Annotated[
        float, typer.Option(help=helptext("opt.serve_finished_grace"), min=0)
    ] = 300.0,
    idle_timeout: Annotated[
        float, typer.Option(help=helptext("opt.serve_idle_timeout"), min=0)
    ] = 3600.0,
    away_after: Annotated[float, typer.Option(help=helptext("opt.serve_away_after"), min=0)] = 60.0,
    away_bot: Annotated[str, typer.Option(help=helptext("opt.serve_away_bot"))] = "medium",
    bot: Annotated[list[str] | None, typer.Option("--bot", help=helptext("opt.serve_bot"))] = None,
    min_turn_timer: Annotated[
        float, typer.Option(help=helptext("opt.serve_min_turn_timer"), min=0.1, max=600)
    ] = 10.0,
    trusted_proxy: Annotated[
        list[str] | None, typer.Option(help=helptext("opt.serve_trusted_proxy"))
    ] = None,
    max_header_bytes: Annotated[
        int, typer.Option(help=helptext("opt.serve_max_header_bytes"), min=1024, max=1048576)
    ] = 8192,
    header_timeout: Annotated[
        float, typer.Option(help=helptext("opt.serve_header_timeout"), min=0.5, max=600)
    ] = 10.0,
    max_connections_per_address: Annotated[
        int, typer.Option(help=helptext("opt.serve_max_connections_per_address"), min=0)
    ] = 64,
    workers: Annotated[int, WORKERS.option("opt.serve_workers", min=1, max=64)] = 1,
    lease: Annotated[float, typer.Option(help=helptext("opt.serve_lease"), min=1, max=600)] = 10.0,
    affinity: Annotated[bool, typer.Option(help=helptext("opt.serve_affinity"))] = False,
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression/--no-ws-compression", help=helptext("opt.serve_ws_compression")
        ),
    ] = False,
    lang: LangOpt = LANG.default,
) -> None:
    """Start the game server: lobby, tables, replays, and the browser client.

    Open http://HOST:PORT/ in a browser, create a table and share its link.
    """
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from dragonante.interfaces.web.cluster.member import ClusterSettings
    from dragonante.interfaces.web.http.app import create_app
    from dragonante.interfaces.web.http.connection_guard import ConnectionLimits, transport_options
    from dragonante.interfaces.web.http.workers import WORKER_ENV, worker_config
    from dragonante.interfaces.web.hub import Settings
    from dragonante.interfaces.web.storage.db import database_url, open_database, refuses_writes

    lang = check_lang(lang)
    if affinity and workers > 1:
        fail(t("serve.error.affinity_workers", lang))
    if log_level not in LOG_LEVELS:
        fail(t("serve.error.log_level", lang, level=log_level, choices=", ".join(LOG_LEVELS)))
    default_ruleset, default_preset = engine_name(ruleset), engine_name(deck)
    if default_ruleset not in RULESETS:
        choices = ", ".join(map(cli_name, RULESETS))
        fail(t("cli.error.ruleset", lang, ruleset=ruleset, choices=choices))
    if default_preset not in PRESETS or default_preset == "custom":
        offered = ", ".join(cli_name(p) for p in PRESETS if p != "custom")
        fail(t("cli.error.deck", lang, deck=deck, choices=offered))
    default_abilities = engine_name(abilities)
    if default_abilities not in (*SYSTEMS, "none"):
        choices = ", ".join((*SYSTEMS, "none"))
        fail(
            t(
                "cli.error.ability_choice",
                lang,
                option="--abilities",
                value=abilities,
                choices=choices,
            )
        )
    default_visibility = engine_name(ability_visibility or "")
    if default_visibility and default_visibility not in VISIBILITIES:
        choices = ", ".join(VISIBILITIES)
        option, value = "--ability-visibility", ability_visibility
        fail(t("cli.error.ability_choice", lang, option=option, value=value, choices=choices))
    if default_visibility and default_abilities == "none":
        fail(t("serve.error.visibility_needs", lang))
    from dragonante.bots import bot_names
    from dragonante.interfaces.web.shared.limits import parse_networks

    offered_names = offered_bots(bot or [], lang)
    if away_bot not in bot_names():
        choices = ", ".join(bot_names())
        fail(
            t(
                "cli.error.ability_choice",
                lang,
                option="--away-bot",
                value=away_bot,
                choices=choices,
            )
        )
    proxies = tuple(trusted_proxy or ())
    try:
        parse_networks(proxies)
    except ValueError as e:
        fail(t("serve.error.proxy", lang, reason=e))
    _check_port(host, port, lang)
    try:
        engine = open_database(db)
    except (SQLAlchemyError, OSError, ValueError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        fail(t("serve.error.database", lang, db=db or database_url(None), reason=first))
        return
    # A server that cannot store a move cannot play: found now, not at the
    # first answer of the first game (issue 32, hole 4).
    refused = refuses_writes(engine)
    if refused is not None:
        engine.dispose()
        fail(t("serve.error.read_only", lang, db=db or database_url(None), reason=refused))
    # With PostgreSQL every process is a cluster member (web/cluster/member.py), so
    # that several ``serve`` on one database share its tables safely.
    shared = engine.dialect.name == "postgresql"
    if workers > 1 and not shared:
        fail(t("serve.error.workers_sqlite", lang))
    if affinity and not shared:
        fail(t("serve.error.affinity_sqlite", lang))
    settings = Settings(
        bot_delay=bot_delay,
        rate=max_rate,
        default_ruleset=default_ruleset,
        default_preset=default_preset,
        default_abilities="" if default_abilities == "none" else default_abilities,
        default_ability_visibility=default_visibility,
        limit_window=limit_window,
        limit_tables=limit_tables,
        limit_seats=limit_seats,
        limit_sockets=limit_sockets,
        limit_manage=limit_manage,
        limit_replays=limit_replays,
        limit_misses=limit_codes,
        limit_lookups=limit_lookups,
        limit_hints=limit_hints,
        max_tables=max_tables,
        max_sockets=max_sockets,
        max_sockets_per_address=max_sockets_per_address,
        open_table_ttl=open_table_ttl,
        finished_grace=finished_grace,
        idle_after=idle_timeout,
        away_after=away_after,
        away_bot=away_bot,
        bots=offered_names,
        turn_min=min_turn_timer,
        trusted_proxies=proxies,
        # Sweep often enough that short settings (tests, demos) are honoured.
        sweep_interval=max(0.05, min(5.0, _shortest(open_table_ttl, away_after, idle_timeout) / 4)),
    )
    cluster = ClusterSettings(lease=lease, affinity=affinity) if shared else None
    database = repr(engine.url)
    if workers > 1:
        typer.echo(
            t(
                "serve.serving_workers",
                lang,
                host=host,
                port=port,
                database=database,
                workers=workers,
            )
        )
    else:
        typer.echo(t("serve.serving", lang, host=host, port=port, database=database))
    limits = ConnectionLimits(
        max_head_bytes=max_header_bytes,
        head_timeout=header_timeout,
        per_address=max_connections_per_address,
        trusted_proxies=proxies,
    )
    transport = transport_options(
        host, port, log_level, ws_compression, limits=limits, by_name=workers > 1
    )
    if workers == 1:
        uvicorn.run(create_app(settings=settings, engine=engine, cluster=cluster), **transport)
        return
    assert cluster is not None
    url = engine.url.render_as_string(hide_password=False)
    engine.dispose()  # each worker opens its own connections
    os.environ[WORKER_ENV] = worker_config(url, settings, cluster, limits)
    uvicorn.run(
        "dragonante.interfaces.web.http.workers:worker_app",
        factory=True,
        workers=workers,
        timeout_worker_healthcheck=WORKER_HEALTHCHECK,
        **transport,
    )


@app.command("loadtest", help=helptext("cmd.loadtest"))
def loadtest(
    tables: Annotated[int, typer.Option(help=helptext("opt.load_tables"), min=1, max=1000)] = 50,
    seconds: Annotated[
        float, SECONDS.option("opt.load_seconds", short=False, min=1, max=900)
    ] = 30.0,
    think_ms: Annotated[float, typer.Option(help=helptext("opt.load_think_ms"), min=0)] = 0.0,
    players: Annotated[
        int, PLAYERS.option("opt.load_players", short=False, min=2, max=6)
    ] = PLAYERS.default,
    url: Annotated[
        str | None,
        typer.Option(help=helptext("opt.load_url")),
    ] = None,
    db: Annotated[str | None, typer.Option(help=helptext("opt.load_db"))] = None,
    warmup: Annotated[
        float,
        typer.Option(help=helptext("opt.load_warmup"), min=0),
    ] = 10.0,
    seed: Annotated[int, FIRST_SEED.option("opt.load_seed")] = 1,
    server_workers: Annotated[
        int, typer.Option(help=helptext("opt.load_server_workers"), min=1, max=16)
    ] = 1,
    compression: Annotated[
        bool, typer.Option("--compression/--no-compression", help=helptext("opt.load_compression"))
    ] = True,
    server_compression: Annotated[
        bool,
        typer.Option(
            "--server-compression/--no-server-compression",
            help=helptext("opt.load_server_compression"),
        ),
    ] = False,
    client_procs: Annotated[
        int, typer.Option(help=helptext("opt.load_client_procs"), min=1, max=16)
    ] = 1,
    affinity: Annotated[bool, typer.Option(help=helptext("opt.load_affinity"))] = False,
    as_json: JsonOpt = JSON.default,
    lang: LangOpt = LANG.default,
) -> None:
    """Play many tables of random bots over real WebSockets; report throughput and latency.

    Every seat is a WebSocket client answering at random; the latency is
    from sending an answer to receiving the update that acknowledges it.
    Traffic stays on this machine: only loopback URLs are accepted.
    """
    from dragonante.interfaces.web.load import LoadError, LoadSettings, run_load

    lang = check_lang(lang)
    if affinity and url:
        fail(t("load.error.affinity_url", lang))
    if affinity and not (db or "").startswith("postgres"):
        fail(t("load.error.affinity_db", lang))
    settings = LoadSettings(
        tables=tables,
        seconds=seconds,
        think_ms=think_ms,
        players=players,
        url=url,
        db=db,
        seed=seed,
        warmup=warmup,
        server_workers=server_workers,
        compression=compression,
        server_compression=server_compression,
        client_procs=client_procs,
        affinity=affinity,
    )
    try:
        report = run_load(settings, progress=None if as_json else typer.echo)
    except LoadError as e:
        fail(str(e))
        return
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=1))
    else:
        typer.echo("\n".join(load_lines(report, lang)))


def load_lines(report: LoadReport, lang: str) -> list[str]:
    """The load test's report for people, in ``lang`` (``--json`` has every number)."""
    d = report.to_dict()
    lat, warm = d["latency_ms"], d["warmup_latency_ms"]
    lines = [
        t(
            "load.tables",
            lang,
            tables=report.tables,
            players=report.players,
            think=f"{report.think_ms:g}",
            seconds=f"{report.seconds:.1f}",
            workers=report.server_workers,
        ),
        t("load.games", lang, started=report.games_started, finished=report.games_finished),
        *(
            [t("load.affinity", lang, workers=report.server_workers, moved=report.moved_tables)]
            if report.affinity
            else []
        ),
        t("load.answers", lang, answers=report.answers, rate=f"{d['answers_per_second']:.0f}"),
        t(
            "load.frames",
            lang,
            frames=report.frames_received,
            rate=f"{d['frames_per_second']:.0f}",
            mb=f"{report.bytes_received / 1e6:.1f}",
        ),
        t(
            "load.latency",
            lang,
            warmup=f"{report.warmup:g}",
            samples=lat["samples"],
            **{q: f"{lat[q]:.1f}" for q in ("p50", "p90", "p99", "max")},
        ),
        t(
            "load.warmup",
            lang,
            p50=f"{warm['p50']:.1f}",
            p99=f"{warm['p99']:.1f}",
            samples=warm["samples"],
        ),
        t("load.refused", lang, errors=report.errors, refused=report.refused)
        if report.refused
        else t("load.errors", lang, errors=report.errors),
        t(
            "load.clients",
            lang,
            cpu=f"{report.client_cpu_s:.1f}",
            per=f"{d['client_cpu_s_per_1000_frames']:.3f}",
            procs=report.client_procs,
            loop=report.client_loop,
            deflate=report.deflate_sockets,
            sockets=report.sockets,
        ),
    ]
    if report.server:
        server = report.server
        commit, lag = server.get("commit_ms", {}), server.get("loop_lag_ms", {})
        lines.append(
            t(
                "load.server",
                lang,
                commits=server.get("commits"),
                writes=server.get("jobs_committed"),
                c50=commit.get("p50"),
                c99=commit.get("p99"),
                cmax=commit.get("max"),
                l50=lag.get("p50"),
                l99=lag.get("p99"),
                lmax=lag.get("max"),
                gc=server.get("gc_pause_ms"),
            )
        )
    return lines
