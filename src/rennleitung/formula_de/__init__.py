"""Formula Dé engine: track, movement, race. Standard library only, no I/O."""
