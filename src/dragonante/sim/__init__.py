"""Many games at once: random self-play, simulation statistics and benchmarks."""
