"""Names people choose (accounts, drivers): one spelling of each, nothing invisible, and no name
that looks like another one already taken.

``clean_name`` turns a name into its NFC form (so "Zoë" typed as e + combining diaeresis is the
same name as "Zoë" typed as ë), folds runs of spaces into one and refuses control, format and
direction characters (a right-to-left override turned "Zoë‹RLO›evil" into "Zoëlive" on the page),
zero-width characters and every space but the plain one.

``skeleton`` is what a name looks like, after Unicode TR39 ("Security Mechanisms", section 4,
"confusable detection"): two names with the same skeleton are confusable. This is a compact
version: compatibility decomposition (NFKD: full-width letters, ligatures, superscripts), the
default-ignorable characters dropped, the common Cyrillic and Greek look-alikes of Latin
letters, 0/O and 1/I/l/|, "rn"/"m" and "vv"/"w" mapped to one prototype, case folded. It is
coarser than TR39 in one way (case does not count: names are unique without regard to case)
and knows fewer look-alikes (those of the scripts people here type).
"""

from __future__ import annotations

import unicodedata

from rennleitung.errors import RennleitungError

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
"""Control, format (zero-width, direction marks and overrides), surrogate, private, unassigned,
line and paragraph separators, and spaces (the plain space is let through on its own)."""

_BEFORE_FOLDING = {
    # Cyrillic capitals that look like Latin ones
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # the digit, letter and stroke that look like a capital I or a small l
    "I": "l", "1": "l", "|": "l", "ǀ": "l", "0": "O",
}
_AFTER_FOLDING = {
    # Cyrillic small letters that look like Latin ones
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ѵ": "v", "ɡ": "g",
    # Greek small letters
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "χ": "x",
    # Latin letters that look like others
    "ɑ": "a", "ı": "i", "ȷ": "j", "ℓ": "l",
}
_SEQUENCES = (("rn", "m"), ("vv", "w"))


def clean_name(raw: str, where: str = "name") -> str:
    """``raw`` in NFC with single spaces, or a refusal naming the first character refused."""
    name = " ".join(unicodedata.normalize("NFC", raw).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    for char in name:
        if char != " " and unicodedata.category(char) in _REFUSED_CATEGORIES:
            code = f"U+{ord(char):04X}"
            raise RennleitungError(
                f"Namen dürfen kein unsichtbares oder Steuerzeichen enthalten ({code})",
                f"a name may not hold an invisible or control character ({code})", where)
    return name


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons, confusable names (TR39 section 4)."""
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(_BEFORE_FOLDING.get(c, c) for c in decomposed
                   if unicodedata.category(c) not in ("Cf", "Cc") and not c.isspace())
    folded = "".join(_AFTER_FOLDING.get(c, c) for c in kept.casefold())
    for sequence, prototype in _SEQUENCES:
        folded = folded.replace(sequence, prototype)
    return unicodedata.normalize("NFC", folded)
