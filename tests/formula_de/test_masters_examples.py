"""The worked examples of Masters 7-3 as fixed positions with the rulebook's answers.

The figures (Masters 2002 pp. 12–16) are rebuilt on synthetic straights with the same geometry:
three (or four) lanes, the middle lane half a space ahead. Column k of the figure's outer lanes
is space k+1 of lanes A and C; column m of the middle lane is space m+1 of lane B.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import Elimination, MoveOption, MoveRequest
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file

LONG_STRAIGHT = """
lanes = {lanes}
grid = 2
{wall}
[[segment]]
straight = 16
[[segment]]
stops = 1
spaces = {spaces}
flag = [{longest}, {shortest}]
pattern = "lanes"
[[segment]]
straight = 6
[[segment]]
stops = 2
spaces = [7, 7, 7{extra}]
flag = [7, 7]
pattern = "lanes"
[[segment]]
straight = 4
"""


def straight_track(lanes: int = 3, wall: str = "") -> Track:
    spaces = [3, 5, 7] if lanes == 3 else [3, 5, 7, 9]
    text = LONG_STRAIGHT.format(
        lanes=lanes,
        wall=f'wall = "{wall}"' if wall else "",
        spaces=spaces,
        longest=max(spaces),
        shortest=min(spaces),
        extra="" if lanes == 3 else ", 7",
    )
    return build_track(parse_track_file(text))


def request(
    track: Track, start: str, distance: int, cars: Iterable[str] = (), **kw: object
) -> MoveRequest:
    dangerous = frozenset(track.space(s) for s in kw.pop("dangerous", ()))  # type: ignore[attr-defined]
    return MoveRequest(
        start=track.space(start),
        distance=distance,
        gear=4,
        brakes=kw.pop("brakes", 0),  # type: ignore[arg-type]
        tyres=6,
        occupants={track.space(c): c for c in cars},
        dangerous=dangerous,
    )


def paths_to(track: Track, req: MoveRequest, end: str) -> list[MoveOption]:
    return [o for o in generate_moves(track, req) if track.name_of(o.end) == end and not o.brakes]


def names(track: Track, option: MoveOption) -> list[str]:
    return [track.name_of(s) for s in option.path]


# --- 7-3-2: a busy straight ----------------------------------------------------------------
# Figure: X on A2, green car on A6, blue car on A10; Z on B1, red cars on B4 and B10,
# dangerous space on B8; Y on C2. Letters: A=A4, D=A8, C=B7, F=B9, B=C4, E=C8, G=C11.
BUSY = ("A2", "A6", "A10", "B1", "B4", "B10", "C2")


def busy_request(track: Track, car: str, distance: int) -> MoveRequest:
    others = [c for c in BUSY if c != car]
    return request(track, car, distance, others, dangerous=("B8",))


def test_7_3_2_1_x_to_d_in_seven_via_a_and_c() -> None:
    track = straight_track()
    found = paths_to(track, busy_request(track, "A2", 7), "A8")
    assert found, "A-C-D (7 spaces) must be legal"
    assert all("A4" in names(track, o) and "B7" in names(track, o) for o in found)
    # B-C-D takes 8 spaces: with a roll of 8, A8 is not an end without braking
    assert not paths_to(track, busy_request(track, "A2", 8), "A8")


def test_7_3_2_2_y_to_g_only_along_its_lane() -> None:
    track = straight_track()
    found = paths_to(track, busy_request(track, "C2", 9), "C11")
    assert [names(track, o) for o in found] == [[f"C{n}" for n in range(3, 12)]]


def test_7_3_2_3_y_to_c_in_six_not_seven() -> None:
    track = straight_track()
    assert paths_to(track, busy_request(track, "C2", 6), "B7")
    assert not paths_to(track, busy_request(track, "C2", 7), "B7")


def test_7_3_2_4_x_to_f_avoiding_the_dangerous_space_in_nine() -> None:
    track = straight_track()
    found = [o for o in paths_to(track, busy_request(track, "A2", 9), "B9") if not o.dangerous]
    assert {"A4", "B7"} <= set(names(track, found[0])) or {"C4", "C8"} <= set(
        names(track, found[0])
    )
    ten = busy_request(track, "A2", 10)
    assert not [o for o in paths_to(track, ten, "B9") if not o.dangerous]  # B-C-D-F is 10


def test_7_3_2_5_x_to_f_through_the_dangerous_space_in_eight() -> None:
    track = straight_track()
    found = paths_to(track, busy_request(track, "A2", 8), "B9")
    assert [tuple(track.name_of(s) for s in o.dangerous) for o in found] == [("B8",)]


def test_7_3_2_6_z_to_f_in_nine_via_b_and_e() -> None:
    track = straight_track()
    found = [o for o in paths_to(track, busy_request(track, "B1", 9), "B9") if not o.dangerous]
    assert found
    for option in found:
        assert {"C4", "C8"} <= set(names(track, option))
    ten = busy_request(track, "B1", 10)
    assert not [o for o in paths_to(track, ten, "B9") if not o.dangerous]  # B-C-E-F zig-zags


# --- 7-3-5 and 7-3-6: walls of dangerous spaces -------------------------------------------


@pytest.mark.parametrize(
    ("roll", "crossed"),
    [(6, ("A4",)), (7, ("B4",)), (8, ("C4",))],
)
def test_7_3_5_the_driver_chooses_which_dangerous_spaces_to_avoid(
    roll: int, crossed: tuple[str, ...]
) -> None:
    track = straight_track()
    req = request(track, "A1", roll, dangerous=("A4", "B4", "C4"))
    found = paths_to(track, req, "A7")
    assert sorted(tuple(track.name_of(s) for s in o.dangerous) for o in found) == [crossed]


def test_7_3_6_double_wall_twelve_via_c_and_d_eleven_via_c_e_or_b_d() -> None:
    track = straight_track()
    danger = ("A4", "B4", "C4", "A6", "B6", "C7")
    twelve = paths_to(track, request(track, "A1", 12, dangerous=danger), "C10")
    assert {tuple(track.name_of(s) for s in o.dangerous) for o in twelve} == {("C4", "A6")}
    eleven = paths_to(track, request(track, "A1", 11, dangerous=danger), "C10")
    assert {tuple(track.name_of(s) for s in o.dangerous) for o in eleven} == {
        ("C4", "B6"),
        ("B4", "A6"),
    }


# --- 7-3-7: along the concrete wall (oval, four lanes, wall on lane A) ----------------------


def test_7_3_7_round_a_car_past_the_wall_or_a_dangerous_space() -> None:
    track = straight_track(lanes=4, wall="A")
    seven = paths_to(track, request(track, "B1", 7, ["B5"], dangerous=("C5",)), "B7")
    kinds = sorted((o.wall_tests, len(o.dangerous)) for o in seven)
    assert kinds == [(0, 1), (1, 0)]  # through B (wall test) or through C (road holding)
    eight = paths_to(track, request(track, "B1", 8, ["B5"], dangerous=("C5",)), "B7")
    assert [(o.wall_tests, o.dangerous) for o in eight] == [(0, ())]
    assert "D4" in names(track, eight[0])


# --- 7-3-9: through a 2-stop corner --------------------------------------------------------


def test_7_3_9_eight_in_third_before_a_seven_space_two_stop_corner() -> None:
    track = straight_track()
    # the car stands on the middle lane's last straight space: every space ahead is in the
    # 2-stop corner of 7 spaces per lane
    start = track.behind_in_lane[track.corners[1].entry_spaces[1]]
    assert all(track.in_corner(s) for s in track.successors[start])
    req = MoveRequest(start=start, distance=8, gear=3, brakes=2, tyres=6)
    options = generate_moves(track, req)
    full = [o for o in options if o.brakes == 0]
    assert full and all(o.eliminated is Elimination.MISSED_STOPS for o in full)
    braked = [o for o in options if o.brakes == 1 and o.eliminated is None]
    assert braked and all(o.stop_corner == 2 and o.corner_stops == 1 for o in braked)
