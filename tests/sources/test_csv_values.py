"""Every value checked, not coerced: dates, years, DST, coordinates, headers, record sizes."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from onrecord.errors import InputError
from onrecord.sources.csv_file import MAX_RECORD_BYTES, read_csv
from onrecord.sources.mapping import parse_mapping
from tests.helpers import CAD_MAPPING, CAD_ROWS


def read(rows: str | bytes, mapping: str = CAD_MAPPING):
    data = rows.encode() if isinstance(rows, str) else rows
    return read_csv(data, parse_mapping(mapping, "m.toml"), "t.csv", None, None)


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp() * 1000)


def one_reject(p):
    assert len(p.rejects) == 1, p.rejects
    r = p.rejects[0]
    return r.line, r.column, r.value


@pytest.mark.parametrize("written", ["02/30/2026 09:31:40", "04/31/2026 09:31:40", "02/29/2026 09:31:40"])
def test_a_day_the_month_does_not_have_is_refused_not_moved(written):
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", written))
    assert one_reject(p) == (3, "Dispatched", written)
    assert "does not exist" in p.rejects[0].reason


def test_a_leap_day_is_read():
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", "02/29/2028 09:31:40"))
    assert p.rejects == [] and ms("2028-02-29T15:31:40") in p.events["t_src_lo"].to_pylist()


def test_impossible_date_in_a_dashed_format_and_a_twelve_hour_clock():
    mapping = CAD_MAPPING.replace("%m/%d/%Y %H:%M:%S", "%Y-%m-%d %I:%M:%S %p")
    rows = CAD_ROWS.replace("03/14/2026 09:31:40", "2026-04-31 9:31:40 AM")
    for old in ("09:30:05", "09:31:10", "09:40:00", "10:02:00", "10:03:30", "10:11:15"):
        rows = rows.replace(f"03/14/2026 {old}", f"2026-03-14 {old} AM")
    p = read(rows, mapping)
    assert one_reject(p) == (3, "Dispatched", "2026-04-31 9:31:40 AM")


@pytest.mark.parametrize("year", ["0000", "9999", "1899", "2101"])
def test_years_outside_the_plausible_range_are_refused(year):
    written = f"03/14/{year} 09:31:40"
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", written))
    assert one_reject(p) == (3, "Dispatched", written)
    assert "1900-2100" in p.rejects[0].reason


def test_the_plausible_years_are_set_by_the_mapping():
    mapping = CAD_MAPPING.replace('layout = "row-per-unit"', 'layout = "row-per-unit"\nyears = [1850, 2100]')
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", "03/14/1899 09:31:40"), mapping)
    assert p.rejects == []
    with pytest.raises(InputError) as err:
        parse_mapping(CAD_MAPPING.replace('layout = "row-per-unit"', 'layout = "row-per-unit"\nyears = [2100]'), "m")
    assert err.value.field == "mapping.years"


def test_a_time_in_the_dst_gap_is_refused_by_default():
    # 2026-03-08 02:31 does not happen in Chicago: clocks go from 02:00 CST to 03:00 CDT
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", "03/08/2026 02:31:40"))
    assert one_reject(p) == (3, "Dispatched", "03/08/2026 02:31:40")
    assert "daylight-saving" in p.rejects[0].reason and "dst_gap" in p.rejects[0].reason


@pytest.mark.parametrize("rule, utc", [("old_offset", "2026-03-08T08:31:40"), ("new_offset", "2026-03-08T07:31:40")])
def test_a_dst_gap_rule_reads_the_time_and_notes_it(rule, utc):
    mapping = CAD_MAPPING.replace('layout = "row-per-unit"', f'layout = "row-per-unit"\ndst_gap = "{rule}"')
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", "03/08/2026 02:31:40"), mapping)
    assert p.rejects == []
    assert [(n.line, n.column) for n in p.notes] == [(3, "Dispatched")]
    assert ms(utc) in p.events["t_src_lo"].to_pylist()


def test_a_repeated_hour_is_read_as_the_earlier_and_noted_or_refused_by_rule():
    written = "11/01/2026 01:31:40"  # Chicago's clocks go back from 02:00 CDT to 01:00 CST
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", written))
    assert p.rejects == [] and [(n.line, n.value) for n in p.notes] == [(3, written)]
    assert ms("2026-11-01T06:31:40") in p.events["t_src_lo"].to_pylist()
    # the note travels with the record's events; the other rows carry none
    attrs = [json.loads(a) for a in p.events["attrs"].to_pylist()]
    noted = [i for i, a in zip(p.events["record_index"].to_pylist(), attrs) if "time_note" in a]
    assert noted == [2] and "Dispatched" in attrs[3]["time_note"] and attrs[3]["priority"] == "3"
    later = CAD_MAPPING.replace('layout = "row-per-unit"', 'layout = "row-per-unit"\ndst_overlap = "later"')
    assert ms("2026-11-01T07:31:40") in read(CAD_ROWS.replace("03/14/2026 09:31:40", written),
                                              later).events["t_src_lo"].to_pylist()
    refuse = CAD_MAPPING.replace('layout = "row-per-unit"', 'layout = "row-per-unit"\ndst_overlap = "refuse"')
    assert one_reject(read(CAD_ROWS.replace("03/14/2026 09:31:40", written), refuse)) == (3, "Dispatched", written)


LOCATED = CAD_MAPPING.replace('place = "Address"', 'place = "Address"\nlat = "Lat"\nlon = "Lon"')


@pytest.mark.parametrize("lat, lon, column", [("999", "-87.6", "Lat"), ("41.8", "NaN", "Lon"), ("41.8", "-181", "Lon"),
                                              ("north", "-87.6", "Lat")])
def test_coordinates_off_the_globe_or_not_numbers_are_refused(lat, lon, column):
    rows = CAD_ROWS.replace(",Pri,", ",Pri,Lat,Lon,").replace(",3,", ",3,41.8,-87.6,").replace(
        ",2,", f",2,{lat},{lon},")
    p = read(rows, LOCATED)
    assert one_reject(p)[:2] == (4, column)
    assert p.events["lat"].to_pylist()[0] == 41.8


def test_a_duplicate_header_name_is_refused():
    with pytest.raises(InputError) as err:
        read(CAD_ROWS.replace("Pri,", "Nature,"))
    assert (err.value.line, err.value.field) == (1, "Nature")


def test_a_bare_quote_in_an_unquoted_field_is_read_as_written():
    p = read(CAD_ROWS.replace("Welfare check,14", "SUSPECT 6'2\" TALL,14"))
    assert p.rejects == []
    assert p.events["text"].to_pylist()[0] == "SUSPECT 6'2\" TALL"
    assert p.events["record_index"].to_pylist() == [1, 1, 1, 2, 3, 3, 3]


def test_every_event_cites_its_own_line_around_a_multi_line_field_with_bare_quotes():
    rows = CAD_ROWS.replace("Welfare check,14", "HEIGHT 6'2\",14").replace(
        '"Alarm, commercial"', '"Alarm at\nREAR"').replace("S14,Welfare check", "S14,AGE 5'9\"")
    rows += "C-1003,S30,Fire,1 Elm St,1,03/14/2026 11:00:00,03/14/2026 11:01:00,\n"
    p = read(rows)
    assert p.rejects == []
    lines = [p.records.ordinals[i] for i in p.events["record_index"].to_pylist()]
    calls = p.events["call"].to_pylist()
    assert list(zip(calls, lines)) == [("C-1001", 2)] * 3 + [("C-1001", 3)] + [("C-1002", 4)] * 3 + [("C-1003", 6)] * 2


def test_an_unterminated_quote_is_a_row_refused_with_its_line():
    p = read(CAD_ROWS + 'C-1003,S1,"never closed,1 Elm St,1,03/14/2026 11:00:00,03/14/2026 11:01:00,\nC-1004,S2\n')
    assert one_reject(p)[0] == 5 and "never closed" in p.rejects[0].reason and "line 6" in p.rejects[0].reason
    assert "C-1003" not in p.events["call"].to_pylist()


def test_a_truncated_last_line_is_a_row_refused_with_its_line():
    p = read(CAD_ROWS + "C-1003,S1,Fire,1 El")
    assert one_reject(p)[0] == 5 and "4 fields where 8" in p.rejects[0].reason
    assert len(p.events) == 7


def test_a_huge_field_is_a_short_refusal_naming_its_line():
    rows = CAD_ROWS.replace("Welfare check,14", "W" * (MAX_RECORD_BYTES + 10) + ",14", 1)
    p = read(rows)
    assert one_reject(p)[0] == 2 and len(p.rejects[0].reason) < 200


def test_a_huge_header_is_a_short_error():
    with pytest.raises(InputError) as err:
        read("H" * (50 << 20) + "\n" + CAD_ROWS)
    assert err.value.line == 1 and len(str(err.value)) < 300


def test_a_long_value_is_quoted_short():
    p = read(CAD_ROWS.replace("03/14/2026 09:31:40", "9" * 100_000))
    assert len(p.rejects[0].value) < 300
    assert len(str(InputError("x", file="f", value="y" * 100_000))) < 300


def test_a_format_that_reads_nothing_is_blamed_once_on_the_mapping():
    with pytest.raises(InputError) as err:
        read(CAD_ROWS, CAD_MAPPING.replace('format = "%m/%d/%Y %H:%M:%S"\nonce_per_call', 'format = "%d.%m.%Y %H:%M"'
                                           '\nonce_per_call'))
    assert (err.value.file, err.value.field) == ("m.toml", "events[1].format")


def test_a_nul_byte_in_a_value_is_refused_with_line_and_field():
    p = read(CAD_ROWS.replace("900 Quarry Ave", "900 Quarry\x00Ave"))
    assert one_reject(p)[:2] == (4, "Address")


def test_a_splitter_that_disagrees_with_the_field_reader_refuses_the_file(monkeypatch):
    """The cross-check: were the splitter wrong (here, the quote-counting one this project
    once had), the file is refused at the first line the two readers disagree on, rather
    than every later event citing the line before its own."""
    from onrecord.sources import csv_file
    from onrecord.sources.lines import Records

    def quote_parity(data: bytes, quote: bytes = b'"', delimiter: bytes = b",") -> Records:
        raws, ordinals, parts, inside, start = [], [], [], False, 1
        for number, line in enumerate(data.splitlines(keepends=True), start=1):
            if not parts:
                start = number
            parts.append(line)
            inside ^= bool(line.count(quote) & 1)
            if not inside:
                raws.append(b"".join(parts))
                ordinals.append(start)
                parts = []
        if parts:
            raws.append(b"".join(parts))
            ordinals.append(start)
        return Records(raws, ordinals)

    monkeypatch.setattr(csv_file, "split_records", quote_parity)
    with pytest.raises(InputError) as err:
        read(CAD_ROWS.replace("Welfare check,14", "SUSPECT 6'2\" TALL,14", 1))
    assert err.value.line == 2 and "disagree" in str(err.value)


def test_an_epoch_of_too_many_digits_is_a_row_refused_not_a_crash():
    mapping = CAD_MAPPING.replace('format = "%m/%d/%Y %H:%M:%S"\noptional', 'format = "epoch"\noptional')
    rows = CAD_ROWS.replace("03/14/2026 09:40:00", "1773500400").replace("03/14/2026 10:11:15", "9" * 25)
    p = read(rows, mapping)
    assert one_reject(p) == (4, "OnScene", "9" * 25)
