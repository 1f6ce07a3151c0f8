"""Command-line adapters: parse arguments, call an engine, render, store."""
