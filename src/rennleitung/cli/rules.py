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

from rennleitung.cli.common import Lang, pick
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


def _tyre_text(tyre: str, rule: dict[str, Any]) -> str:
    """One tyre row: overshoot per space by set lap in sun and rain, slide, bonus and malus."""

    def laps(values: list[int]) -> str:
        return "/".join(str(v) for v in values)

    text = (
        f"{tyre}: sun {laps(rule['overshoot_sun'])}, rain {laps(rule['overshoot_rain'])}, "
        f"slide +{rule['rain_slide']}"
    )
    if rule["bonus_laps"]:
        text += f", +1 lap {laps(rule['bonus_laps'])}"
    if rule["malus_laps"]:
        text += f", −1 lap {laps(rule['malus_laps'])}"
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
            f"{row['title_de']}\n{row['title_en']}",
            str(len(row["differs_from_dresden_2006"])),
        )
    _console().print(table)


@app.command("show")
def show_ruleset(
    name: Annotated[str, typer.Argument(help="Regelwerk / ruleset, e.g. dresden-2006")],
    lang: Annotated[Lang, typer.Option("--lang", help="Sprache / language")] = Lang.BOTH,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON statt Tabelle / JSON output")
    ] = False,
) -> None:
    """Ein Regelwerk Feld für Feld zeigen / show one ruleset field by field."""
    ruleset = _load(name)
    rows = ruleset.describe()
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
    table = Table(title=f"{ruleset.name}: {title}")
    table.add_column(pick("Feld", "field"), no_wrap=True)
    table.add_column(pick("Wert", "value"))
    table.add_column(pick("Regel", "rule"))
    table.add_column(
        {Lang.DE: "Beschreibung", Lang.EN: "Description", Lang.BOTH: "Beschreibung / description"}[
            lang
        ]
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
