"""A code table says what a value it does not list means: `default` (any other value reads
as it) or `unlisted = "refuse"` (an error naming file, line and table); without either the
value is kept as written and counted. Never silently lost (fictional Tamsin County radio)."""

from __future__ import annotations

import pytest

from onrecord.errors import InputError
from onrecord.sources.mapping import parse_mapping
from tests.sources.test_csv_file import read

RADIO = """
[mapping]
name = "tamsin-radio"
source_kind = "radio"
timezone = "UTC"

[fields]
unit = "Alias"
text = "Words"
agency = {{ column = "TG", codes = "channels" }}

[codes.channels]
"FIRE DISP 1" = "TCFR"
"PATCH TPD 1" = "TPD"
{extra}

[[events]]
kind = "radio_transmission"
time = "At"
format = "%Y-%m-%d %H:%M:%S"
"""

ROWS = """At,TG,Alias,Words
2026-05-02 14:03:22,FIRE DISP 1,E41,engine 41 on scene
2026-05-02 14:03:40,TCSO A1,2-30,2-30 10-23
2026-05-02 14:04:02,PATCH TPD 1,3-K-22,3-king-22 going in
"""


def test_a_default_gives_every_value_the_table_does_not_list_one_meaning():
    p = read(ROWS, RADIO.format(extra='default = "TCSO"'))
    assert p.events["agency"].to_pylist() == ["TCFR", "TCSO", "TPD"]
    assert not p.uncoded  # declared: nothing to warn about


def test_without_a_default_an_unlisted_value_is_kept_as_written_and_counted():
    p = read(ROWS, RADIO.format(extra=""))
    assert p.events["agency"].to_pylist() == ["TCFR", "TCSO A1", "TPD"]
    assert p.uncoded == {("channels", "TCSO A1"): 1}


def test_a_table_that_refuses_unlisted_values_names_the_file_line_and_table():
    with pytest.raises(InputError) as err:
        read(ROWS, RADIO.format(extra='unlisted = "refuse"'))
    e = err.value
    assert (e.file, e.field) == ("test.toml", "codes.channels")
    assert "test.csv line 3" in str(e) and "TCSO A1" in str(e)
    # every value listed: read as usual
    p = read(ROWS.replace("TCSO A1", "FIRE DISP 1"), RADIO.format(extra='unlisted = "refuse"'))
    assert p.events["agency"].to_pylist() == ["TCFR", "TCFR", "TPD"]


def test_a_refused_value_inside_a_packed_column_names_the_row_it_is_on():
    mapping = """
[mapping]
name = "tamsin-summary"
source_kind = "cad"
timezone = "UTC"

[codes.units]
E41 = "E41"
M7 = "M7"
unlisted = "refuse"

[[events]]
kind = "unit_dispatched"
split = { column = "Units", by = ";", pattern = "^(?P<Unit>\\\\w+)@(?P<At>[0-9:]+)$" }
time = ["Day", "At"]
format = "%Y-%m-%d %H:%M:%S"
unit = { column = "Unit", codes = "units" }
"""
    rows = "Call,Day,Units\nT-1,2026-05-02,E41@14:03:22;M7@14:05:10\nT-2,2026-05-02,E41@15:00:00;Q9@15:01:00\n"
    with pytest.raises(InputError) as err:
        read(rows, mapping)
    assert "line 3" in str(err.value) and "Q9" in str(err.value)


@pytest.mark.parametrize("extra, key", [('default = "A"\nunlisted = "refuse"', "codes.channels.unlisted"),
                                        ('unlisted = "drop"', "codes.channels.unlisted"),
                                        ("default = true", "codes.channels.default"),
                                        ('"X" = { a = 1 }', "codes.channels.X")])
def test_settings_of_a_code_table_are_checked_naming_the_key(extra, key):
    with pytest.raises(InputError) as err:
        parse_mapping(RADIO.format(extra=extra), "m.toml")
    assert err.value.field == key


def test_a_code_that_reads_as_nothing_blanks_the_value():
    mapping = RADIO.format(extra="").replace('unit = "Alias"', 'unit = { column = "Alias", codes = "consoles" }')
    mapping += '\n[codes.consoles]\nDISPATCH = ""\n'
    p = read(ROWS.replace(",E41,", ",DISPATCH,"), mapping)
    assert p.events["unit"].to_pylist() == [None, "2-30", "3-K-22"]  # the console's line names no unit
