"""`rennleitung track`: list, show, render and check Formula Dé tracks.

Thin adapter over ``formula_de.track*`` and ``render.board_svg``. NAME is a built-in track
(``monaco``, ``monza``, ``oval``, ``short``) or the path of a track file (``*.toml``). The JSON of
``track show --json`` is documented in docs/formula_de/track.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rennleitung.cli.common import (
    Lang,
    current_lang,
    load_track,
    pick,
    read_text,
    say,
    show_error,
)
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import (
    builtin_track_names,
    builtin_track_text,
)
from rennleitung.formula_de.event_text import count
from rennleitung.formula_de.track import LANE_LETTERS, SpaceKind, Track
from rennleitung.formula_de.trackcheck import ERROR, check_track
from rennleitung.inputs import shown, write_text
from rennleitung.render.board_svg import render_board

app = typer.Typer(
    name="track",
    help="Strecken / tracks: list, show, render and check Formula Dé boards.",
    no_args_is_help=True,
    add_completion=False,
)


def _fail(error: RennleitungError) -> None:
    show_error(error)
    raise typer.Exit(code=1)


def _read(path: Path) -> str:
    try:
        return read_text(path)
    except RennleitungError as error:
        _fail(error)
        raise  # unreachable: _fail always exits


def _load(name: str) -> Track:
    try:
        return load_track(name)
    except RennleitungError as error:
        _fail(error)
        raise  # unreachable: _fail always exits


# --- JSON documents ------------------------------------------------------------------------


def _names(track: Track, indices: Any) -> list[str]:
    return [track.name_of(i) for i in indices]


def _corner_json(track: Track, number: int) -> dict[str, Any]:
    corner = track.corners[number - 1]
    return {
        "number": corner.number,
        "stops": corner.stops,
        "longest": corner.longest,
        "shortest": corner.shortest,
        "lane_counts": list(corner.lane_counts),
        "spaces": _names(track, sorted(corner.spaces)),
        "entries": _names(track, corner.entry_spaces),
        "exits": _names(track, corner.exit_spaces),
    }


def track_summary(track: Track) -> dict[str, Any]:
    """One line of `track list --json`: name, spaces per lane and the corners' flags."""
    return {
        "name": track.name,
        "title": track.title,
        "lanes": list(track.lane_lengths()),
        "corners": [
            {"number": c.number, "stops": c.stops, "longest": c.longest, "shortest": c.shortest}
            for c in track.corners
        ],
        "grid_slots": len(track.grid),
        "boxes": len(track.boxes),
        "wall": bool(track.wall),
    }


def _space_json(track: Track, index: int) -> dict[str, Any]:
    space = track.spaces[index]
    straight = track.straight_of[index]
    ahead = track.ahead_in_lane[index]
    behind = track.behind_in_lane[index]
    return {
        "index": index,
        "name": space.name,
        "kind": space.kind.value,
        "lane": LANE_LETTERS[space.lane] if space.lane >= 0 else None,
        "number": space.number,
        "corner": space.corner or None,
        "straight": straight + 1 if straight >= 0 else None,
        "successors": _names(track, track.successors[index]),
        "beside": _names(track, track.beside[index]),
        "behind": track.name_of(behind) if behind >= 0 else None,
        "ahead": track.name_of(ahead) if ahead >= 0 else None,
        "start": round(space.start, 4),
        "end": round(space.end, 4),
        "wall": index in track.wall,
    }


def track_document(track: Track) -> dict[str, Any]:
    """The whole board as JSON for other programs (`track show --json`)."""
    weather = track.weather
    pit = track.pit
    return {
        **track_summary(track),
        "lane_count": track.lanes,
        "lap_rows": round(track.lap_rows, 4),
        "spaces": [_space_json(track, n) for n in range(len(track.spaces))],
        "corners": [_corner_json(track, c.number) for c in track.corners],
        "last_corner": track.last_corner.number if track.corners else None,
        "line": {
            "first_after_line": _names(track, track.first_after_line),
            "crossings": sorted([track.name_of(a), track.name_of(b)] for a, b in track.line_edges),
        },
        "grid": _names(track, track.grid),
        "pit": None
        if pit is None
        else {
            "entry_from": _names(track, pit.entry_from),
            "entry_to": _names(track, pit.entry_to),
            "entry_limit": track.name_of(pit.entry_limit),
            "lane": _names(track, pit.lane),
            "boxes": _names(track, pit.boxes),
            "box_from": _names(track, pit.box_from),
            "exit_to": _names(track, pit.exit_to),
        },
        "wall": _names(track, sorted(track.wall)),
        "weather": {
            "rain": [1, weather.rain_max],
            "changeable": [weather.rain_max + 1, weather.changeable_max],
            "sun": [weather.changeable_max + 1, 20],
        },
    }


# --- commands ------------------------------------------------------------------------------


def summary_table(tracks: list[Track]) -> Table:
    """Rich table of tracks: spaces per lane, stops and flags (shared with `rennleitung main`)."""
    table = Table(title=pick("Strecken", "tracks"))
    table.add_column(pick("Strecke", "track", both="\n"), no_wrap=True)
    table.add_column(pick("Felder je Spur", "spaces per lane", both="\n"))
    table.add_column(pick("Stopps je Kurve", "stops per corner", both="\n"))
    # L/C: the longest and shortest way through a corner, as on its flag (Masters 7-1-1)
    table.add_column(pick("Weg L/C je Kurve", "way L/C per corner", both="\n"))
    table.add_column(pick("Start", "grid", both="\n"), justify="right")
    table.add_column(pick("Boxen", "boxes", both="\n"), justify="right")
    for track in tracks:
        table.add_row(
            track.name,
            "/".join(str(n) for n in track.lane_lengths()),
            " ".join(str(c.stops) for c in track.corners),
            " ".join(f"{c.longest}/{c.shortest}" for c in track.corners),
            str(len(track.grid)),
            str(len(track.boxes)),
        )
    return table


@app.command("list")
def list_tracks(
    as_json: Annotated[bool, typer.Option("--json", help="JSON ausgeben / print JSON")] = False,
) -> None:
    """Eingebaute Strecken auflisten / list the built-in tracks."""
    tracks = [_load(name) for name in builtin_track_names()]
    if as_json:
        typer.echo(json.dumps([track_summary(t) for t in tracks], ensure_ascii=False, indent=2))
        return
    Console(highlight=False).print(summary_table(tracks))


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="Strecke oder Datei / track name or file")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON ausgeben / print JSON")] = False,
) -> None:
    """Eine Strecke ganz zeigen / show a whole track (every space with --json)."""
    track = _load(name)
    if as_json:
        typer.echo(json.dumps(track_document(track), ensure_ascii=False, indent=1))
        return
    console = Console(highlight=False)
    console.print(summary_table([track]))
    corners = Table(title=f"{track.title}: {pick('Kurven', 'corners')}")
    columns = ("Nr.", pick("Stopps", "stops"), pick("L längster", "L longest"),
               pick("C kürzester", "C shortest"), pick("je Spur", "per lane"),
               pick("Felder", "spaces"))
    for column in columns:
        corners.add_column(column)
    for corner in track.corners:
        spaces = sorted(corner.spaces)
        corners.add_row(
            str(corner.number),
            str(corner.stops),
            str(corner.longest),
            str(corner.shortest),
            "/".join(str(n) for n in corner.lane_counts),
            f"{track.name_of(spaces[0])} … {track.name_of(spaces[-1])}",
        )
    console.print(corners)
    console.print(f"{pick('Start', 'grid')}: {' '.join(_names(track, track.grid))}")
    if track.pit is not None:
        pit = track.pit
        lane = f"{track.name_of(pit.lane[0])}…{track.name_of(pit.lane[-1])}"
        entry = " ".join(_names(track, pit.entry_from))
        exit_to = " ".join(_names(track, pit.exit_to))
        boxes = len(pit.boxes)
        console.print(pick(
            f"Boxengasse: {lane}, Einfahrt von {entry}, Ausfahrt nach {exit_to}, {boxes} Boxen",
            f"pit lane: {lane}, entry from {entry}, exit to {exit_to}, {boxes} boxes"))
    if track.wall:
        wall = LANE_LETTERS[track.spaces[min(track.wall)].lane]
        console.print(pick(f"Betonmauer an Spur {wall} (Masters 15)",
                           f"concrete wall along lane {wall} (Masters 15)"))
    w = track.weather
    rain, changeable, sun = (f"1–{w.rain_max}", f"{w.rain_max + 1}–{w.changeable_max}",
                             f"{w.changeable_max + 1}–20")
    console.print(pick(f"Wetter: {rain} Regen, {changeable} wechselhaft, {sun} Sonne",
                       f"weather: {rain} rain, {changeable} changeable, {sun} sun"))
    pit_count = sum(1 for s in track.spaces if s.kind is not SpaceKind.TRACK)
    total = len(track.spaces)
    console.print(pick(f"Felder: {total} ({pit_count} Boxengasse und Boxen)",
                       f"spaces: {total} ({pit_count} pit lane and boxes)"))


@app.command("render")
def render(
    name: Annotated[str, typer.Argument(help="Strecke oder Datei / track name or file")],
    output: Annotated[Path, typer.Option("-o", "--output", help="SVG-Datei / SVG file")],
    names: Annotated[
        bool, typer.Option("--names", help="Feldnamen zeigen / show space names")
    ] = False,
) -> None:
    """Strecke als SVG zeichnen / draw a track as SVG."""
    track = _load(name)
    try:
        write_text(output, render_board(track, names=names))
    except RennleitungError as error:
        _fail(error)
    say(f"{output} geschrieben", f"{output} written")


@app.command("check")
def check(
    file: Annotated[
        Path, typer.Argument(help="Streckendatei oder Strecke / track file (.toml) or name")
    ],
) -> None:
    """Streckendatei prüfen, alle Probleme melden / check a track file, report every problem."""
    name = str(file)
    if not file.exists() and name in builtin_track_names():
        text = builtin_track_text(name)
    else:
        text = _read(file)
    problems = check_track(text, default_name=file.stem)
    console = Console(highlight=False, soft_wrap=True)
    for problem in problems:
        label = pick("Fehler", "error") if problem.severity == ERROR else pick("Warnung", "warning")
        colour = "red" if problem.severity == ERROR else "yellow"
        lang = current_lang()
        texts = {Lang.DE: f"  {problem.de}", Lang.EN: f"  {problem.en}"}.get(
            lang, f"  de: {problem.de}\n  en: {problem.en}")
        console.print(
            f"[{colour}]{escape(f'{file}:{problem.line}: {label} [{problem.kind}]')}[/{colour}] "
            f"{shown(problem.key)}\n{shown(texts, 4000)}",
            markup=True,
        )
    errors = sum(1 for p in problems if p.severity == ERROR)
    warnings = len(problems) - errors
    if not problems:
        console.print(f"{shown(str(file))}: {pick('in Ordnung', 'OK')}")
    else:
        console.print(
            f"{shown(str(file))}: "
            + pick(f"{errors} Fehler, {count(warnings, 'Warnung', 'Warnungen')}",
                   f"{count(errors, 'error', 'errors')}, {count(warnings, 'warning', 'warnings')}")
        )
    if errors:
        raise typer.Exit(code=1)
