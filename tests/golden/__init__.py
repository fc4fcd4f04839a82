"""Golden games pinned beside the rules versions (see :mod:`tests.golden.games`)."""
