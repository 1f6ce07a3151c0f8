"""The movement cases of ``positions/*.json`` (format in ``positions/README.md``), each roll run
through the move generator, the brute-force reference and the literal checker.

Every roll's expected ends and costs come from the rule its ``about`` names; a failure names the
file, the roll and the implementation that disagrees, with what is missing and what is extra.
"""

from __future__ import annotations

import pytest

from rennleitung.formula_de.movecheck import IllegalMove
from rennleitung.formula_de.moves import check_path

from .position_cases import (
    FIELDS,
    OPTIONS,
    Roll,
    answers,
    case_files,
    choices_of,
    expected,
    load_case,
    position_of,
    project,
    rolls,
    selected,
)

ROLLS = rolls()


@pytest.mark.parametrize("roll", ROLLS, ids=[r.id for r in ROLLS])
def test_position_case(roll: Roll) -> None:
    position, car = position_of(roll.file)
    data = roll.data
    if "expect" in data:
        assert set(data["fields"]) <= FIELDS, roll.id
        assert data.get("options", "alive") in OPTIONS, roll.id
        want = expected(data)
        found = answers(position, car, data)
        if "reference" in found:
            generator = {o.cost_key() for o in found["generator"]}
            assert generator == {o.cost_key() for o in found["reference"]}, roll.id
        for source, options in found.items():
            have = selected(position, data, options)
            if data.get("match", "exactly") == "at least":
                assert want <= have, f"{roll.id} {source}: missing {want - have}"
            else:
                wrong = f"missing {want - have}, extra {have - want}"
                assert have == want, f"{roll.id} {source}: {wrong}"
    if "avoid" in data:
        avoid = {position.track.space(name) for name in data["avoid"]}
        for source, options in answers(position, car, data).items():
            assert options, f"{roll.id} {source}: no option"
            entered = {position.track.name_of(s) for o in options for s in o.path if s in avoid}
            assert not entered, f"{roll.id} {source}: a move enters {sorted(entered)}"
    for item in data.get("paths", []):
        path = item["path"]
        if "rule" in item:
            with pytest.raises(IllegalMove) as error:
                check_path(position, car, data["roll"], path, choices_of(data))
            assert item["rule"] in error.value.where, (roll.id, path)
        else:
            options = check_path(position, car, data["roll"], path, choices_of(data))
            have = {project(position, o, item["fields"]) for o in options}
            assert have == expected(item), (roll.id, path)


def test_every_case_file_reads_and_says_why() -> None:
    """Each file is a valid position with a reason and at least one roll."""
    assert len(case_files()) >= 50
    for path in case_files():
        data = load_case(path)
        assert data["about"].strip() and data["rolls"], path.name
        position_of(path.stem)
