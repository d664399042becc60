"""Reading a mapping: every key known, every wrong one named with its file and key."""

from __future__ import annotations

import pytest

from onrecord.errors import InputError
from onrecord.sources.mapping import bundled_names, load_mapping, parse_mapping
from tests.helpers import CAD_MAPPING


def fails(text: str) -> InputError:
    with pytest.raises(InputError) as err:
        parse_mapping(text, "eastvale.toml")
    assert err.value.file == "eastvale.toml"
    return err.value


def test_every_bundled_mapping_reads():
    from onrecord.sources.mapping import SELF_DESCRIBED

    for name in bundled_names():
        m = load_mapping(name)
        assert m.events or m.format in SELF_DESCRIBED  # EIDO and CAP: the adapter knows the standard


@pytest.mark.parametrize("change, key, hint", [
    (("optional = true", "optinal = true"), "events[3].optinal", "optional"),
    (("[attributes]", "[atributes]"), "atributes", "attributes"),
    (('layout = "row-per-unit"', 'layout = "row-per-unit"\ntimezon = "UTC"'), "mapping.timezon", "timezone"),
    (('required = ["CallNo", "Unit"]', 'required = ["CallNo", "Unit"]\ndelimeter = ";"'), "file.delimeter",
     "delimiter"),
    (('kind = "unit_arrived"', 'kind = "unit_arived"'), "events[3].kind", "unit_arrived"),
    (('unit = "Unit"', 'unti = "Unit"'), "fields.unti", "unit"),
    (('text = "Nature"', 'text = { column = "Nature", defualt = "none" }'), "fields.text.defualt", "default"),
])
def test_a_misspelt_key_or_kind_is_one_error_naming_it(change, key, hint):
    err = fails(CAD_MAPPING.replace(*change))
    assert err.field == key and hint in str(err)


def test_a_bad_time_pattern_is_an_error_of_the_mapping_not_of_every_row():
    err = fails(CAD_MAPPING.replace('format = "%m/%d/%Y %H:%M:%S"\nonce_per_call',
                                    'format = "%m/%d/%Y %Q"\nonce_per_call'))
    assert err.field == "events[1].format" and "%Q" in str(err)


def test_an_attribute_must_name_a_column():
    err = fails(CAD_MAPPING.replace('priority = "Pri"', "priority = 3"))
    assert err.field == "attributes.priority"


WIDE = """
[mapping]
name = "wide"
source_kind = "cad"
timezone = "UTC"
date = 2026-05-02

[fields]
call = "Call"

[[events]]
kind = "unit_dispatched"
wide = [1, 2, 3]
time = "Time{n}"
format = "%H:%M:%S"
unit = "Unit{n}"
"""


def test_a_wide_block_becomes_one_block_per_slot():
    m = parse_mapping(WIDE, "wide.toml")
    assert [(e.time, e.fields["unit"].column, e.slot) for e in m.events] == [
        (("Time1",), "Unit1", ("Time1", "Unit1")), (("Time2",), "Unit2", ("Time2", "Unit2")),
        (("Time3",), "Unit3", ("Time3", "Unit3"))]
    assert m.columns_used() == ["Call", "Time1", "Unit1", "Time2", "Unit2", "Time3", "Unit3"]


def test_a_time_of_day_alone_needs_the_day():
    assert parse_mapping(WIDE, "w.toml").events[0].date == "2026-05-02"
    err = fails(WIDE.replace("date = 2026-05-02\n", ""))
    assert err.field == "events[1].format" and "mapping] date" in str(err)
    assert fails(WIDE.replace("date = 2026-05-02", 'date = "May 2"')).field == "mapping.date"
    assert "year" in str(fails(WIDE.replace('format = "%H:%M:%S"', 'format = "%m/%d %H:%M:%S"')))


def test_a_wide_block_must_number_its_columns():
    assert fails(WIDE.replace("{n}", "1")).field == "events[1].wide"
    assert fails(WIDE.replace("wide = [1, 2, 3]", 'wide = "1-3"')).field == "events[1].wide"


@pytest.mark.parametrize("split, key", [
    ('{ column = "Units", into = ["Unit"] }', "events[1].split.by"),
    ('{ column = "Units", by = ";", into = ["Unit", "At"] }', "events[1].split.sep"),
    ('{ column = "Units", by = ";", pattern = "[^@]+@.+" }', "events[1].split.pattern"),
    ('{ column = "Units", by = ";", pattern = "(?P<Unit>[^@]+" }', "events[1].split.pattern"),
    ('{ column = "Units", by = ";", into = ["Unit"], pattern = "(?P<Unit>.+)" }', "events[1].split"),
    ('{ column = "Units", by = ";", as = "Unit" }', "events[1].split.as"),
    ('{ column = "Units", by = ";", into = ["Unit"], sep = "@" }', "events[1].split.sep"),
])
def test_a_split_that_cannot_be_read_names_its_key(split, key):
    text = WIDE.replace('wide = [1, 2, 3]\ntime = "Time{n}"', f"split = {split}\ntime = \"At\"").replace(
        'unit = "Unit{n}"', 'unit = "Unit"')
    assert fails(text).field == key


@pytest.mark.parametrize("when, key", [
    ('{ column = "Type" }', "rows.when"),
    ('{ column = "Type", equals = "A", in = ["B"] }', "rows.when"),
    ('{ column = "Type", matches = "(" }', "rows.when.matches"),
    ('{ column = "Type", blank = "no" }', "rows.when.blank"),
    ('{ column = "Type", equal = "A" }', "rows.when.equal"),
    ('[{ column = "Type", blank = false }, { equals = "A" }]', "rows.when[2].column"),
])
def test_a_row_filter_that_cannot_be_read_names_its_key(when, key):
    assert fails(WIDE + f"\n[rows]\nwhen = {when}\n").field == key


HEAD = '[mapping]\nname = "doc"\nsource_kind = "cad"\ntimezone = "UTC"\n'
EVENT = '\n[[events]]\nkind = "call_received"\ntime = "At"\nformat = "iso"\n'


def doc_examples() -> list[str]:
    from tests.conftest import REPO

    text = (REPO / "docs" / "mappings.md").read_text(encoding="utf-8")
    return [b.split("```", 1)[0] for b in text.split("```toml\n")[1:]]


@pytest.mark.parametrize("block", [b for b in doc_examples() if b.lstrip().startswith("[")])
def test_every_table_in_the_docs_reads_as_written(block):
    """A user writes a mapping from docs/mappings.md alone: each example must read."""
    if "[mapping]" in block:
        text = block
    elif block.lstrip().startswith("[[events]]"):
        text = HEAD + block
    else:
        text = HEAD + block + EVENT
    m = parse_mapping(text, "doc.toml")
    assert m.events or m.text


@pytest.mark.parametrize("extra, key", [
    ('[columns]\nDay = "Created"\n', "columns.Day"),
    ('[columns]\nDay = { column = "Created", pattern = "(" }\n', "columns.Day.pattern"),
    ('[attributes]\narmed = { column = "Armed", codes = "nope" }\n', "attributes.armed.codes"),
    ('[attributes]\narmed = { colum = "Armed" }\n', "attributes.armed.colum"),
])
def test_a_made_column_that_cannot_be_read_names_its_key(extra, key):
    assert fails(WIDE.replace("[fields]", extra + "\n[fields]")).field == key


def test_made_columns_are_not_looked_for_in_the_file():
    made = ('[columns]\nDay = { column = "Created", pattern = "^(\\\\S+)" }\n\n'
            '[attributes]\narmed = { column = "Armed", default = "no" }\n\n[fields]')
    m = parse_mapping(WIDE.replace("[fields]", made).replace('time = "Time{n}"', 'time = ["Day", "Time{n}"]'), "m.toml")
    used = m.columns_used()
    assert "Created" in used and "Armed" in used and "Day" not in used
    assert not any(c.startswith("\x00") for c in used)


@pytest.mark.parametrize("after, says", [("1", "first"), ("true", "earlier"), ("0", "earlier")])
def test_after_must_name_an_earlier_block(after, says):
    err = fails(WIDE.replace("wide = [1, 2, 3]", f"wide = [1, 2, 3]\nafter = {after}"))
    assert err.field == "events[1].after" and says in str(err)


def test_after_cannot_name_a_wide_block():
    text = WIDE + '\n[[events]]\nkind = "unit_arrived"\ntime = "Back"\nformat = "%H:%M:%S"\nafter = 1\n'
    assert "no wide" in str(fails(text))


def test_unit_false_in_fields_says_it_belongs_in_an_events_block():
    err = fails(CAD_MAPPING.replace('unit = "Unit"', "unit = false"))
    assert err.field == "fields.unit"
    assert "[[events]]" in err.message and "unit = false" in err.message and "leaves `unit` out" in err.message


def test_a_true_or_false_other_than_an_events_unit_is_refused_not_dropped():
    err = fails(CAD_MAPPING.replace("once_per_call = true\nunit = false", "once_per_call = true\nplace = false"))
    assert err.field == "events[1].place" and "[[events]]" in err.message


@pytest.mark.parametrize("table, says", [
    ('{ value = "dispatcher", column = "Unit" }', "give one of column, template, value"),
    ("{ value = true }", "the text every row reads as"),
    ('{ codes = "x" }', "needs column, template or value"),
])
def test_a_fixed_value_is_given_alone_and_as_text(table, says):
    err = fails(CAD_MAPPING.replace('priority = "Pri"', f"entered_by = {table}"))
    assert err.field.startswith("attributes.entered_by") and says in err.message
