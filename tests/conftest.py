"""Settings every test shares.

The commands speak the language of the locale when ``--lang`` is not given,
and their ``--help`` texts are fixed when the command modules are imported,
so the locale is pinned here, before any test module imports them: the
suite then gives the same results on an Italian desktop as in CI.  Tests of
the locale itself set it explicitly (``monkeypatch`` or a subprocess).
"""

from __future__ import annotations

import os

for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
