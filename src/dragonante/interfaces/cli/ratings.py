"""``dragonante ratings``: the web server's player ratings, rebuilt from its records.

    dragonante ratings rebuild                 # the default SQLite database
    dragonante ratings rebuild --db web.sqlite3
    dragonante ratings rebuild --db postgresql://...

The server rates a game as it finishes (``web/players/ratings.py``); the
ratings are derived data, so this command throws them away and rates every
finished game again, oldest first, from what the database keeps of each
(config, seed and answers, replayed through the engine).  Run it after
changing the rating model or the bots' fixed ratings, or to check that the
stored ratings are what the games give.  It works beside a running server
(one transaction); a game finishing meanwhile is rated by the server.
"""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from dragonante.i18n import t
from dragonante.interfaces.cli.app import app, fail
from dragonante.interfaces.cli.run_options import LANG, LangOpt, check_lang
from dragonante.interfaces.cli.table_options import helptext

ratings_app = typer.Typer(help=helptext("cmd.ratings"), no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")


@ratings_app.command("rebuild", help=helptext("cmd.ratings_rebuild"))
def rebuild_command(
    db: Annotated[str | None, typer.Option(help=helptext("opt.serve_db"))] = None,
    lang: LangOpt = LANG.default,
) -> None:
    from dragonante.interfaces.web.players.ratings import rebuild
    from dragonante.interfaces.web.storage.db import database_url, open_database
    from dragonante.interfaces.web.storage.sql import SqlTransaction

    lang = check_lang(lang)
    try:
        engine = open_database(db)
        with Session(engine) as s, s.begin():
            done = rebuild(SqlTransaction(s))
    except (SQLAlchemyError, OSError, ValueError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        fail(t("serve.error.database", lang, db=db or database_url(None), reason=first))
        return
    typer.echo(t("ratings.rebuilt", lang, games=done.games, people=done.people))
    if done.skipped:
        typer.echo(t("ratings.skipped", lang, codes=", ".join(done.skipped)))
