"""A Formula Dé question as a mail: what is asked, the dashboard, the dice, every legal
destination with its cost, how to answer, and the board as SVG (and PNG where ``rsvg-convert``
is installed, for mail readers that show no SVG).

The text reads only what the asked driver may see: his own car in full, the others by place.
"""

from __future__ import annotations

from rennleitung.formula_de.car import Wear, WearArea
from rennleitung.formula_de.dice import gear_range
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race_decisions import Ask, AskKind
from rennleitung.formula_de.race_questions import SetupQuestion
from rennleitung.formula_de.track import Track
from rennleitung.mail import board_tiles
from rennleitung.mail.fd_orders import kind_label, option_cost, order_text
from rennleitung.mail.pictures import BoardPicture
from rennleitung.mail.pictures import png as to_png
from rennleitung.mail.texts import pick
from rennleitung.play import RulesNotice
from rennleitung.play.views import View
from rennleitung.render.board_crop import crop_picture, render_crop
from rennleitung.render.mail_message import Attachment
from rennleitung.render.position_svg import render_position

_AREAS_DE = {"tyres": "Reifen", "brakes": "Bremsen", "fuel": "Verbrauch", "body": "Karosserie",
             "engine": "Motor", "road_holding": "Straßenlage"}
_AREAS_EN = {"tyres": "tyres", "brakes": "brakes", "fuel": "fuel", "body": "body",
             "engine": "engine", "road_holding": "road holding"}


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for number, row in enumerate(rows):
        lines.append(("  " + " | ".join(cell.ljust(widths[i])
                                        for i, cell in enumerate(row))).rstrip())
        if number == 0:
            lines.append("  " + "-+-".join("-" * w for w in widths))
    return lines


def dashboard(seen: View, car: str, language: str) -> list[str]:
    """The driver's own car (from his view: his car in full): place on the track, gear, lap,
    tyres, wear points, karma; the others by place."""
    de = language == "de"
    line = seen.car(car)
    if line is None:
        return []
    own: Wear | None = line.wear
    names = _AREAS_DE if de else _AREAS_EN
    wear = ", ".join(f"{names[a.value]} {own[a]}" for a in WearArea) if own else "-"
    box = own.box if own else "-"
    tyre_de = line.tyre.label_de if line.tyre else "-"
    tyre_en = line.tyre.label_en if line.tyre else "-"
    set_lap = line.tyre_laps + 1
    lap = min(line.laps + 1, seen.laps)
    lines = [
        pick(language, f"Wagen {car} ({line.driver}), Feld {line.space_name}"
             f", Gang {line.gear or '-'}, Runde {lap} von {seen.laps}",
             f"Car {car} ({line.driver}), space {line.space_name}, gear "
             f"{line.gear or '-'}, lap {lap} of {seen.laps}"),
        pick(language, f"Reifen: {tyre_de}, Satzrunde {set_lap}",
             f"Tyres: {tyre_en}, set lap {set_lap}"),
        pick(language, f"Verschleißpunkte: {wear}; Boxenreserve {box}",
             f"Wear points: {wear}; box reserve {box}"),
        pick(language, f"Karma: {line.karma}", f"Karma: {line.karma}"),
    ]
    on_track = {c.car: c for c in seen.cars if c.status.on_track}
    order = [on_track[o.car] for o in seen.order if o.car in on_track]  # the running order
    others = ", ".join(f"{seen.driver(c.car)} ({c.car}) {c.space_name}" for c in order)
    lines.append(pick(language, f"Reihenfolge auf der Strecke: {others}",
                      f"Order on the track: {others}"))
    return lines


def worn_out(seen: View, car: str, language: str) -> list[str]:
    """The warning the gear mail gives when the brakes or the tyres are used up (Masters
    5-1-2, 11-0-4: no brake points, no braking; 5-1-4: the last tyre point spins the car, a
    further one is paid in brakes or ends the race)."""
    line = seen.car(car)
    wear = line.wear if line is not None else None
    if wear is None:
        return []
    lines = []
    if wear.brakes == 0:
        lines.append(pick(language, "Achtung: 0 Bremspunkte. Sie können nicht mehr bremsen "
                          "(Masters 5-1-2, 11-0-4): der Wagen fährt die ganze gewürfelte Zahl, "
                          "wer dabei zu weit kommt, zahlt mit Reifenpunkten oder scheidet aus.",
                          "Warning: 0 brake points. You can no longer brake (Masters 5-1-2, "
                          "11-0-4): the car moves the whole roll; overshooting is paid in tyre "
                          "points or ends the race."))
    if wear.tyres == 0:
        lines.append(pick(language, "Achtung: 0 Reifenpunkte. Wer eine Kurve überschießt, "
                          "scheidet aus, wenn er nicht bremsen kann (Masters 5-1-4).",
                          "Warning: 0 tyre points. Overshooting a corner ends the race unless "
                          "you can brake (Masters 5-1-4)."))
    return ["", *lines] if lines else []


def setup_lines(ask: SetupQuestion, language: str) -> list[str]:
    """What the setup must add up to under the race's ruleset (Dresden "Auto", "Rennen";
    Masters 5-0-2, 5-2, 5-3): the total, the least per area, the most in the box."""
    if ask.fixed is not None:
        return [pick(language, "Das Regelwerk schreibt die Aufstellung vor (so wie im Beispiel "
                     "unten); wählen Sie die Startreifen.", "The ruleset prescribes the setup "
                     "(as in the example below); choose the start tyres.")]
    t_car = pick(language, " (Ersatzwagen: zwei weniger)", " (T-car: two fewer)") \
        if ask.t_car else ""
    return [pick(language, f"Verteilen Sie {ask.points} Verschleißpunkte{t_car} auf die sechs "
                 f"Bereiche und die Boxenreserve: zusammen genau {ask.points}, je Bereich "
                 f"mindestens {ask.area_minimum}, in der Reserve höchstens {ask.box_max}. "
                 "Wählen Sie dazu die Startreifen (hart, weich oder Regen).",
                 f"Distribute {ask.points} wear points{t_car} over the six areas and the box "
                 f"reserve: exactly {ask.points} together, at least {ask.area_minimum} per "
                 f"area, at most {ask.box_max} in the reserve. Choose the start tyres too "
                 "(hard, soft or rain).")]


def _move_rows(track: Track, moves: tuple[MoveOption, ...], language: str) -> list[str]:
    de = language == "de"
    head = (["Ziel", "Weg", "Bremsen", "Reifen", "Verbrauch", "Tests", "Hinweis"] if de else
            ["to", "path", "brakes", "tyres", "fuel", "tests", "note"])
    rows = [head]
    for option in sorted(moves, key=lambda o: (o.end, option_cost(o))):
        tests = []
        if option.dangerous:
            tests.append(f"{len(option.dangerous)}x {'Straßenlage' if de else 'road holding'}")
        if option.contacts:
            tests.append(f"{len(option.contacts)}x {'Kollision' if de else 'collision'}")
        note = ""
        if option.eliminated is not None:
            note = "scheidet aus" if de else "eliminated"
        elif option.stop_corner:
            note = f"{'Stopp Kurve' if de else 'stop corner'} {option.stop_corner}"
        rows.append([track.name_of(option.end),
                     ",".join(track.name_of(s) for s in option.path) or "-",
                     str(option.brakes), str(option.tyres), str(option.fuel),
                     ", ".join(tests) or "-", note or "-"])
    return _table(rows)


def recent_notices(seen: View) -> list[RulesNotice]:
    """The rule fixes that changed the race in the round now played: the question mails of the
    round asked again say why (``RulesNotice``)."""
    return [n for n in seen.info.notices if seen.round <= n.round + 1]


def question_text(seen: View, ask: Ask, language: str, version: int) -> str:
    """The body of a question mail (without greeting and signature), from the asked driver's
    view."""
    de = language == "de"
    lines = [notice.text("de" if de else "en") for notice in recent_notices(seen)]
    lines += [pick(language, f"Gefragt ist: {kind_label(ask.kind, 'de')} für Wagen {ask.car} "
                   f"(Stand {version}).", f"Your question: the {kind_label(ask.kind, 'en')} "
                   f"of car {ask.car} (version {version})."), ""]
    lines += [*dashboard(seen, ask.car, language)]
    legend = picture_legend(seen, language)
    lines += [legend, ""] if legend else [""]
    example = ""
    if ask.kind is AskKind.TURN:
        rows = [["Gang" if de else "gear", "Würfel" if de else "die"]]
        for gear in ask.gears:
            low, high = gear_range(gear)
            rows.append([str(gear), f"{low}–{high}"])
        lines.append(pick(language, "Mögliche Gänge und was der Würfel zeigen kann:",
                          "Possible gears and what the die can show:"))
        lines += _table(rows)
        lines += worn_out(seen, ask.car, language)
        extras = []
        if ask.boost:
            extras.append(pick(language, "\"Boost\" (1 Motorpunkt, +1 Feld)",
                               "\"boost\" (1 engine point, +1 space)"))
        if ask.soft_bonus:
            extras.append(pick(language, "\"Reifenbonus\" (+1 mit weichen Reifen)",
                               "\"soft bonus\" (+1 on soft tyres)"))
        if ask.launch_optional:
            extras.append(pick(language, "\"kein Start\" (Startbonus ablehnen)",
                               "\"no launch\" (decline the launch bonus)"))
        if ask.pit_plans:
            extras.append(pick(language, "\"Box: 8 Punkte, weiche Reifen\" (Boxenstopp ansagen)",
                               "\"pit: 8 points, soft tyres\" (announce a pit stop)"))
        if extras:
            lines += ["", pick(language, "Dazu möglich: ", "Also possible: ") + "; ".join(extras)]
        example = pick(language, f"Gang {ask.gears[-1] if ask.gears else 1}",
                       f"gear {ask.gears[-1] if ask.gears else 1}")
    elif ask.kind is AskKind.MOVE:
        lines.append(pick(language, f"Gewürfelt: {ask.roll}. Alle erlaubten Ziele mit ihren "
                          "Kosten:", f"Rolled: {ask.roll}. Every legal destination with its "
                          "cost:"))
        track = seen.track
        assert track is not None  # a race that asks has its board
        lines += _move_rows(track, ask.moves, language)
        target = track.name_of(min(ask.moves, key=option_cost).end) if ask.moves else "?"
        example = pick(language, f"Ziel {target}   (oder ein Weg: B21,A22,B22)",
                       f"to {target}   (or a path: B21,A22,B22)")
    elif ask.kind is AskKind.PIT:
        lines.append(pick(language, "In der Box: Verbrauchspunkte nachfüllen, Reifen wechseln, "
                          "Bereiche aus der Boxenreserve reparieren.", "In the pit: refill fuel "
                          "points, change tyres, repair areas from the box reserve."))
        example = pick(language, "Box: 8 Punkte, weiche Reifen", "pit: 8 points, soft tyres")
    elif ask.kind is AskKind.KARMA:
        lines.append(pick(language, f"Die Probe {ask.test} ist misslungen. Karma einsetzen?",
                          f"The {ask.test} check failed. Spend karma?"))
        example = pick(language, "Karma +1   (oder: Karma neu würfeln, kein Karma)",
                       "karma +1   (or: karma reroll, no karma)")
    elif ask.kind is AskKind.BID:
        rivals = ", ".join(f"{seen.driver(c)} ({c})" for c in ask.rivals) or "-"
        lines.append(pick(
            language, f"Kopf an Kopf (Dresden \"Kopf an Kopf\"): Sie stehen gleichauf mit "
            f"{rivals}. Alle bieten geheim Karma; wer am meisten bietet, fährt in dieser Runde "
            "zuerst, dann der Nächste (gleiche Gebote: der höhere Gang zuerst). Das Gebot wird "
            f"vom Karma abgezogen. Höchstens {ask.karma}, 0 heißt: nichts bieten.",
            f"Head to head (Dresden \"Kopf an Kopf\"): you are level with {rivals}. Everyone "
            "bids karma in secret; the highest bid moves first this round, then the next "
            "(equal bids: the higher gear first). The bid is taken from your karma. At most "
            f"{ask.karma}; 0 bids nothing."))
        example = pick(language, f"Gebot {min(2, ask.karma)}", f"bid {min(2, ask.karma)}")
    elif ask.kind is AskKind.BOX:
        free = ", ".join(map(str, ask.boxes))
        lines.append(pick(language, f"Freie Boxen: {free}", f"Free boxes: {free}"))
        example = f"Box {ask.boxes[0] if ask.boxes else 1}"
    elif ask.kind is AskKind.ROLL:  # a race at the table (issue 29) is not played by mail
        faces = ", ".join(map(str, ask.faces))
        lines.append(pick(language, f"Würfel {ask.die}: welche Zahl ({faces})?",
                          f"die {ask.die}: which number ({faces})?"))
        example = str(ask.faces[0])
    else:
        lines += setup_lines(ask, language)
        fixed = ask.fixed or ask.suggested
        example = order_text({"kind": "setup", "wear": fixed.as_dict(), "tyre": "hard"},
                             language)
    lines += ["", pick(language, "So antworten Sie (eine Angabe je Zeile, die Mail als Antwort "
                       "auf diese):", "How to answer (one order per line, as a reply to this "
                       "mail):"), "", *("  " + e for e in example.split("\n"))]
    return "\n".join(lines)


PICTURE_SIDE = 560
"""Pixels of the longer side of the picture a question mail carries at most (16 % fewer at
the least: ``crop_picture``'s scale steps); about 120 KB as PNG at most, 165 KB in the mail."""


def board_attachments(seen: View, ask: Ask, png: bool = True) -> list[Attachment]:
    """The part of the board that matters for the question, the offered destinations labelled
    by name (``render/board_crop``): one PNG if ``rsvg-convert`` runs, else the SVG. A question
    mail stays well under 200 KB; the whole board comes by link or on request
    (``whole_board``)."""
    moves = ask.moves if ask.kind is AskKind.MOVE else ()
    if seen.position is None:
        return []
    if png:  # drawn in the background (``pictures``): the mail waits for it when built
        crop = crop_picture(seen.position, ask.car, moves, PICTURE_SIDE)
        return [BoardPicture("board", crop.svg.encode("utf-8"), f"--width={crop.pixels[0]}",
                             lambda: board_tiles.render(crop))]
    svg_text, _width, _height = render_crop(seen.position, ask.car, moves)
    return [Attachment("board.svg", "image/svg+xml", svg_text.encode("utf-8"))]


def whole_board(seen: View, ask: Ask | None, png: bool = True) -> list[Attachment]:
    """The whole board as SVG (and PNG where ``rsvg-convert`` runs), sent on request."""
    moves = ask.moves if ask is not None and ask.kind is AskKind.MOVE else ()
    if seen.position is None:
        return []
    svg = render_position(seen.position, moves).encode("utf-8")
    files = [Attachment("board-full.svg", "image/svg+xml", svg)]
    picture = to_png(svg, "--width=1400") if png else None
    if picture is not None:
        files.append(Attachment("board-full.png", "image/png", picture))
    return files


def picture_legend(seen: View, language: str) -> str:
    """Who is who on the picture: the cars carry their number in the position's list."""
    if seen.position is None:
        return ""
    cars = ", ".join(f"{n} {seen.driver(c.id)} ({c.id})"
                     for n, c in enumerate(seen.position.cars, 1))
    return pick(language, f"Auf dem Bild: {cars}", f"On the picture: {cars}")
