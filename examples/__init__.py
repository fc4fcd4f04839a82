"""Examples of using dragonante as a library (a package so the tests can import them)."""
