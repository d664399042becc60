"""Rules are data: the bundled ones load, and a bad rule file is one clear error naming
the file and the key."""

from __future__ import annotations

import pytest

from onrecord.errors import InputError
from onrecord.live.rules import bundled_rules, load_rules, parse_rule

GOOD = """
[rule]
name = "any_unit_outside"
subject = "unit"
hold_s = 120
[[when]]
test = "unit_status"
is = ["on_scene"]
[[when]]
test = "shots_within"
seconds = 60
"""


def test_the_bundled_rules_load():
    names = {r.name for r in bundled_rules()}
    assert {"armed_unit_holding_outside", "call_waiting_after_transfer", "camera_view_behind", "unit_not_on_scene",
            "agencies_without_shared_channel", "threat_ended_contradicted"} <= names


def test_a_users_rule_joins_the_bundled_and_replaces_one_of_the_same_name(tmp_path):
    (tmp_path / "mine.toml").write_text(GOOD)
    (tmp_path / "strict.toml").write_text(GOOD.replace("any_unit_outside", "unit_not_on_scene"))
    rules = {r.name: r for r in load_rules(tmp_path)}
    assert rules["any_unit_outside"].hold_s == 120 and rules["unit_not_on_scene"].subject == "unit"


@pytest.mark.parametrize("change, field", [
    (("test = \"shots_within\"", "test = \"shots_nearby\""), "when[2].test"),
    (("seconds = 60", "secs = 60"), "when[2].secs"),
    (("seconds = 60", "seconds = \"soon\""), "when[2].seconds"),
    (("subject = \"unit\"", "subject = \"building\""), "rule.subject"),
    (("hold_s = 120", "hold_s = -5"), "rule.hold_s"),
    (("hold_s = 120", "hold_s = 1\nseverity = \"Bad\""), "rule.severity"),
    (("subject = \"unit\"", "subject = \"call\""), "when[1].test"),
])
def test_a_bad_rule_names_its_file_and_key(change, field):
    with pytest.raises(InputError) as exc:
        parse_rule(GOOD.replace(*change), "mine.toml")
    assert exc.value.file == "mine.toml" and exc.value.field == field


def test_not_toml_and_no_tests():
    with pytest.raises(InputError, match="not valid TOML"):
        parse_rule("[rule", "x.toml")
    with pytest.raises(InputError) as exc:
        parse_rule("[rule]\nname='x'\nsubject='unit'\n", "x.toml")
    assert exc.value.field == "when"
