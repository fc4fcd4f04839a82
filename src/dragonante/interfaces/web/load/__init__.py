"""The web server's load benchmark (``dragonante loadtest``): see :mod:`.clients`."""

from __future__ import annotations

from dragonante.interfaces.web.load.clients import LoadError, LoadReport, LoadSettings, run_load

__all__ = ["LoadError", "LoadReport", "LoadSettings", "run_load"]
