"""Seed commitment: publish a hash of a race's seed before the first roll, reveal the seed after.

Anyone who kept the published hash can then check that the revealed seed is the one the race
was committed to, and replay every roll from it. The seed must be unguessable (say 128 random
bits as hex) for the hash to hide it; a short seed such as ``7`` can be found by trying.
"""

from __future__ import annotations

import hashlib
import hmac


def seed_text(seed: int | str) -> str:
    """The one text form of a seed that both the dice and the commitment use."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"seed must be int or str, not {type(seed).__name__}")
    return str(seed)


def commit(seed: int | str) -> str:
    """The public commitment: sha256 hex of the seed text in UTF-8.

    Plain on purpose, so anyone can check it without us: ``printf %s SEED | sha256sum``.
    """
    return hashlib.sha256(seed_text(seed).encode("utf-8")).hexdigest()


def verify(seed: int | str, commitment: str) -> bool:
    """True if ``seed`` is the seed behind ``commitment`` (compared in constant time)."""
    return hmac.compare_digest(commit(seed), commitment.strip().lower())
