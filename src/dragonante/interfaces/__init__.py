"""Front ends over the engine: the command line (and later the terminal UI and web)."""
