"""Make ``dragonante/ThreeDragonAnte-v1`` known to Gymnasium in every process.

Gymnasium 1.x dropped the ``gymnasium.envs`` entry-point plugins that older
versions loaded on import, so an id resolves only in a process that has
imported the module registering it.  Libraries that build environments in
fresh worker processes (Stable-Baselines3's ``SubprocVecEnv``, Gymnasium's
``AsyncVectorEnv`` with ``spawn``/``forkserver``) then fail with
``NamespaceNotFound: Namespace dragonante not found``.

The wheel therefore installs ``dragonante_gym.pth``, which Python's ``site``
runs at start-up and which imports this module.  It costs next to nothing:
it imports neither Gymnasium nor the environment.  It adds a finder to
``sys.meta_path`` that, once ``gymnasium`` itself has been imported (by
anyone), registers the id with a string entry point; the environment's module
is imported only when an environment is made.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any

ENV_ID = "dragonante/ThreeDragonAnte-v1"
ENTRY_POINT = "dragonante.agents.gymnasium:ThreeDragonAnteEnv"
#: The retired id: it answers with an error that says what changed.
OLD_ENV_ID = "dragonante/ThreeDragonAnte-v0"
OLD_ENTRY_POINT = "dragonante.agents.gymnasium:retired_v0"


def register() -> None:
    """Register the ids with their string entry points (once; no import of the env)."""
    from gymnasium.envs.registration import register as gym_register
    from gymnasium.envs.registration import registry

    for env_id, entry_point in ((ENV_ID, ENTRY_POINT), (OLD_ENV_ID, OLD_ENTRY_POINT)):
        if env_id not in registry:
            gym_register(id=env_id, entry_point=entry_point)


class _Loader(importlib.abc.Loader):
    """Gymnasium's own loader, then :func:`register` once the package is complete."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self._loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        with contextlib.suppress(Exception):  # never break Gymnasium's import
            register()


class _Finder(importlib.abc.MetaPathFinder):
    """Waits for ``import gymnasium`` and wraps its loader (then steps aside)."""

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Register now if Gymnasium is loaded, else when it is (see the module docstring)."""
    if "gymnasium.envs.registration" in sys.modules:
        register()
    elif not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


install()
