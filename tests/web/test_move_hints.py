"""Know what you choose: three scenes where the page used to mislead a newcomer (issue 23).

- Gears: skipping gears costs fuel, brakes and engine (Masters 13-1, 13-2); from 5th with one
  fuel point and one engine point the page offered 1st to 3rd labelled with die ranges only.
- Corner stops: the exit of a 3-stop corner reached with the first stop was green ("free"),
  though the car can make no more stop there and is certain to be eliminated (Masters 10-1,
  20-1).
- Tests: a destination with a collision test (Masters 14-1) was green and preselected.

Each scene is a race placed where the rule decides (``tests/formula_de/scene.py``), read through
the driver's own view (``play/view_build.local_view``) as the race page reads it.
"""

from __future__ import annotations

from dataclasses import replace

from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import MoveChoice, TurnChoice
from rennleitung.play.view_build import local_view
from rennleitung.play.views import Reader
from rennleitung.web import view
from tests.formula_de.scene import scene
from tests.formula_de.test_race_rules import MONACO, SETUP, go, place, staged, start
from tests.web.conftest import GREEN

RED, ORANGE = view.RISK_COLOURS["eliminated"], view.RISK_COLOURS["test"]


def asked(race: Race, lang: str = "en") -> dict[str, object]:
    ask = race.pending
    assert ask is not None
    seen = local_view(race, Reader.seat(ask.car))
    data = view.question(seen, ask, lang)
    assert data is not None
    data["json"] = seen.question(ask.car).to_json()  # type: ignore[union-attr]
    data["overlay"] = view.overlay(seen, data.get("choices", []), lang)  # type: ignore[arg-type]
    return data


def test_each_skipped_gear_shows_its_cost_and_warns_when_it_strands_the_car() -> None:
    """5th gear, 1 fuel and 1 engine point, two laps to go on Dresden's fuel per lap."""
    made = scene(("a",), [10, 10], ruleset=staged("dresden-2006"), board=MONACO, laps=2)
    made.place("a", "A30", gear=5, wear=replace(SETUP, fuel=1, engine=1))
    data = asked(made.race())
    notes = data["gear_hints"]
    assert isinstance(notes, dict)
    assert notes[4] == {"cost": "", "warnings": []}  # one down is free
    assert notes[3]["cost"] == \
        "skips 1: costs 1 fuel point (Dresden Verschleiß; Masters 13-1, 13-2)"
    assert "1 brake point" in notes[2]["cost"]
    assert "1 engine point" in notes[1]["cost"]
    assert any("the engine fails right after the shift" in w for w in notes[1]["warnings"])
    for gear in (1, 2, 3):
        said = " ".join(notes[gear]["warnings"])
        assert "leaves 0 fuel points for 2 laps to go" in said
        assert "rolls out before the flag" in said
        assert "no more skipping gears" in said
    hints = data["json"]["hints"]  # type: ignore[index]
    assert [h["gear"] for h in hints] == [1, 2, 3, 4, 5, 6]
    assert hints[0]["cost"] == {"fuel": 1, "brakes": 1, "engine": 1}
    assert {w["code"] for w in hints[0]["warnings"]} == {"engine_fails", "fuel_short",
                                                         "fuel_empty"}
    german = asked(made.race(), "de")["gear_hints"]
    assert "kostet 1 Verbrauchspunkt" in german[3]["cost"]  # type: ignore[index]


def test_the_exit_of_a_three_stop_corner_after_one_stop_is_certain_elimination() -> None:
    """Corner 5 of Monaco asks for 3 stops; 10 in 4th from C69 ends on its exit C79."""
    race = start([10, 10, *([10] * 5)], cars=("a",))
    place(race, "a", "C69", gear=4)
    played = go(race)
    played.apply(TurnChoice(4))
    data = asked(played)
    choices = {c.space: c for c in data["choices"]}  # type: ignore[attr-defined]
    exit_ = choices["C79"]
    assert exit_.risk == "eliminated" and exit_.colour == RED
    assert "1 of 3 stops" in exit_.listed and "certain to be eliminated" in exit_.listed
    assert "Masters 10-1, 20-1" in exit_.cost
    # one space short of the exit: one more stop fits, one stays missing (costs tyres)
    assert choices["C78"].risk == "costly" and "one stop short" in choices["C78"].listed
    # deep in the corner: the stop counts and the driver sees how many are made
    assert choices["C74"].risk == "free" and "1 of 3 stops in corner 5" in choices["C74"].listed
    hint = next(h for h in data["json"]["hints"] if h["end"] == "C79")  # type: ignore[index]
    assert (hint["corner"], hint["stops_made"], hint["stops_needed"], hint["room"]) == \
        (5, 1, 3, 0)
    assert f'fill="{GREEN}"' not in _path(str(data["overlay"]), "C79")
    assert f'fill="{RED}"' in _path(str(data["overlay"]), "C79")
    assert data["preselected"] != exit_.key


def test_a_collision_test_is_never_free_nor_preselected() -> None:
    """A behind B on Monaco's first straight; 6 in 3rd puts A right behind B (Masters 14-1)."""
    race = start([10, 2, 6, *([10] * 5)], cars=("a", "b"))
    place(race, "a", "A15", gear=2)
    place(race, "b", "A20", gear=2)
    played = go(race)
    played.apply(TurnChoice(2))
    ask = played.pending
    assert ask is not None and ask.car == "b"
    played.apply(MoveChoice(next(m.path for m in ask.moves if MONACO.name_of(m.end) == "A22")))
    played.apply(TurnChoice(3))
    data = asked(played)
    choices = list(data["choices"])  # type: ignore[call-overload]
    behind = next(c for c in choices if c.space == "A21")
    assert behind.risk == "test" and behind.colour == ORANGE and behind.colour != GREEN
    assert "a test: 95% to pass it" in behind.listed
    assert "1 collision test" in behind.listed
    assert data["preselected"] not in ("", behind.key)
    chosen = next(c for c in choices if c.key == data["preselected"])
    assert chosen.risk == "free"
    svg = _path(str(data["overlay"]), "A21")
    assert f'fill="{ORANGE}"' in svg and "risk-test" in svg
    hint = next(h for h in data["json"]["hints"] if h["end"] == "A21")  # type: ignore[index]
    assert hint["risk"] == "test" and hint["tests"] == 1 and hint["passing"] == 0.95


def _path(svg: str, space: str) -> str:
    """The destination path drawn on ``space`` in an overlay."""
    marker = f'data-space="{space}"'
    assert marker in svg, space
    start = svg.rfind("<path", 0, svg.index(marker))
    return svg[start:svg.index("</path>", start)]
