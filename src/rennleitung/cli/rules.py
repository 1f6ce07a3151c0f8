"""`rennleitung rules`: list the ruleset presets and print one field by field.

Thin adapter over ``rennleitung.formula_de.ruleset``: every row shows the value the engine uses,
the rule number it comes from and what it means in German and English.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rennleitung.cli.common import Lang, choose_lang, current_lang, pick
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.ruleset import (
    DRESDEN_2006,
    PRESETS,
    Ruleset,
    field_docs,
    get_ruleset,
)

app = typer.Typer(
    name="rules",
    help="Regelwerke / rulesets: list and show the Formula Dé presets.",
    no_args_is_help=True,
    add_completion=False,
)


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _fail(error: RennleitungError) -> None:
    from rennleitung.cli.common import show_error

    show_error(error)
    raise typer.Exit(code=1)


def _load(name: str) -> Ruleset:
    try:
        return get_ruleset(name)
    except RennleitungError as error:
        _fail(error)
        raise  # unreachable: _fail always exits


def _text(value: Any) -> str:
    """A value for a table cell: plain scalars as they are, tables as compact JSON."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return pick("ja", "yes") if value else pick("nein", "no")
    if isinstance(value, str | int):
        return str(value)
    if isinstance(value, dict) and all(
        isinstance(rule, dict) and "overshoot_sun" in rule for rule in value.values()
    ):
        return "\n".join(_tyre_text(tyre, rule) for tyre, rule in value.items())
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


_TYRES = {
    "hard": ("hart", "hard"),
    "soft": ("weich", "soft"),
    "rain": ("Regenreifen", "rain tyres"),
}
_TYRE_WORDS = {
    "sun": ("Sonne", "sun"),
    "rain": ("Regen", "rain"),
    "slide": ("Rutschen", "slide"),
    "lap": ("Runde", "lap"),
}
"""The words of a tyre row, German and English (the row is shown in the chosen language)."""


def _tyre_text(tyre: str, rule: dict[str, Any]) -> str:
    """One tyre row: overshoot per space by set lap in sun and rain, slide, bonus and malus."""

    def laps(values: list[int]) -> str:
        return "/".join(str(v) for v in values)

    def word(key: str) -> str:
        return pick(*_TYRE_WORDS.get(key, (key, key)))

    text = (
        f"{pick(*_TYRES.get(tyre, (tyre, tyre)))}: {word('sun')} {laps(rule['overshoot_sun'])}, "
        f"{word('rain')} {laps(rule['overshoot_rain'])}, {word('slide')} +{rule['rain_slide']}"
    )
    if rule["bonus_laps"]:
        text += f", +1 {word('lap')} {laps(rule['bonus_laps'])}"
    if rule["malus_laps"]:
        text += f", −1 {word('lap')} {laps(rule['malus_laps'])}"
    return text


@app.command("list")
def list_rulesets(
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON statt Tabelle / JSON output")
    ] = False,
) -> None:
    """Alle Regelwerke auflisten / list every ruleset preset."""
    rows = [
        {
            "name": preset.name,
            "title_de": preset.title_de,
            "title_en": preset.title_en,
            "differs_from_dresden_2006": preset.differences(DRESDEN_2006),
        }
        for preset in PRESETS.values()
    ]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    table = Table(title=pick("Regelwerke", "rulesets"))
    table.add_column(pick("Name", "name"), no_wrap=True)
    table.add_column(pick("Titel", "title"))
    table.add_column(pick("Abweichungen von dresden-2006",
                          "fields differing from dresden-2006"))
    for row in rows:
        table.add_row(
            str(row["name"]),
            pick(str(row["title_de"]), str(row["title_en"]), both="\n"),
            str(len(row["differs_from_dresden_2006"])),
        )
    _console().print(table)


@app.command("show")
def show_ruleset(
    name: Annotated[str, typer.Argument(help="Regelwerk / ruleset, e.g. dresden-2006")],
    lang: Annotated[
        Lang | None,
        typer.Option(
            "--lang",
            callback=choose_lang,
            help="Sprache der Tabelle / table language (Vorgabe/default: RENNLEITUNG_LANG, "
            "sonst/else locale; --json: both)",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON statt Tabelle / JSON output")
    ] = False,
) -> None:
    """Ein Regelwerk Feld für Feld zeigen / show one ruleset field by field."""
    ruleset = _load(name)
    rows = ruleset.describe()
    if lang is None:  # a table in the language of every other command; JSON keeps both texts
        lang = Lang.BOTH if as_json else current_lang()
    if as_json:
        data = {
            "name": ruleset.name,
            "fields": [
                {
                    "name": row.name,
                    "value": row.value,
                    "rule": row.rule,
                    **({"de": row.de} if lang in (Lang.DE, Lang.BOTH) else {}),
                    **({"en": row.en} if lang in (Lang.EN, Lang.BOTH) else {}),
                }
                for row in rows
            ],
        }
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    title = {
        Lang.DE: ruleset.title_de,
        Lang.EN: ruleset.title_en,
        Lang.BOTH: f"{ruleset.title_de} / {ruleset.title_en}",
    }[lang]
    table = Table(title=f"{ruleset.name}: {title}", expand=True)
    table.add_column(pick("Feld", "field"), no_wrap=True)
    # the description gets the room: at 80 columns it was squeezed to one word a line
    table.add_column(pick("Wert", "value"), ratio=2)
    table.add_column(pick("Regel", "rule"), ratio=2)
    table.add_column(
        {Lang.DE: "Beschreibung", Lang.EN: "description", Lang.BOTH: "Beschreibung / description"}[
            lang
        ],
        ratio=3,
    )
    for row in rows:
        de, en = escape(row.de), escape(row.en)
        text = {Lang.DE: de, Lang.EN: en, Lang.BOTH: f"{de}\n[dim]{en}[/dim]"}
        table.add_row(row.name, escape(_text(row.value)), escape(row.rule), text[lang])
    _console().print(table)


@app.command("diff")
def diff_rulesets(
    first: Annotated[str, typer.Argument(help="erstes Regelwerk / first ruleset")],
    second: Annotated[str, typer.Argument(help="zweites Regelwerk / second ruleset")],
) -> None:
    """Felder zeigen, in denen zwei Regelwerke abweichen / fields in which two rulesets differ."""
    left, right = _load(first), _load(second)
    docs = {doc.name: doc for doc in field_docs()}
    table = Table(title=f"{left.name} ↔ {right.name}")
    table.add_column(pick("Feld", "field"), no_wrap=True)
    table.add_column(left.name)
    table.add_column(right.name)
    table.add_column(pick("Regel", "rule"))
    left_values, right_values = left.to_dict(), right.to_dict()
    for name in left.differences(right):
        table.add_row(name, _text(left_values[name]), _text(right_values[name]), docs[name].rule)
    _console().print(table)
