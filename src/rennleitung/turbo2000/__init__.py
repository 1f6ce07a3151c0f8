"""TURBO 2000 engine: order sheets, turn evaluation, reports. Standard library only, no I/O."""
