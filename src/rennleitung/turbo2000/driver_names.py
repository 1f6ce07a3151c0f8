"""Names for the pool of drivers without contracts at the start of a game (data, not rules)."""

from __future__ import annotations

NAMES: tuple[str, ...] = (
    "Lauda", "Piquet", "Prost", "Senna", "Mansell", "Berger", "Alboreto", "Patrese", "Arnoux",
    "Tambay", "Laffite", "Rosberg", "Watson", "Cheever", "deAngelis", "Warwick", "Boutsen",
    "Fabi", "Surer", "Johansson", "Brundle", "Bellof", "Ghinzani", "Nannini", "Capelli",
    "Alliot", "Danner", "Streiff", "Tarquini", "Modena", "Alesi", "Herbert", "Hakkinen",
    "Schumacher", "Frentzen", "Wendlinger", "Barrichello", "Coulthard", "Hill", "Irvine",
    "Panis", "Fisichella", "Trulli", "Villeneuve", "Heidfeld", "Button", "Montoya", "Raikkonen",
    "Webber", "Alonso", "Massa", "Kubica", "Glock", "Vettel", "Rosberg2", "Hulkenberg",
    "Stuck", "Winkelhock", "Bellof2", "Ickx",
)


def driver_names(count: int) -> list[str]:
    """``count`` distinct names; past the list the names get a number ("Lauda3")."""
    names = []
    for index in range(count):
        base = NAMES[index % len(NAMES)]
        lap = index // len(NAMES)
        names.append(base if lap == 0 else f"{base}{lap + 2}")
    return names
