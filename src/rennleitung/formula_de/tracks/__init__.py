"""The built-in tracks, one TOML file each (our own layouts)."""
