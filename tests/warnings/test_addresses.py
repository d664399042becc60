"""One-line addresses split with usaddress; street words agree across agencies."""

from __future__ import annotations

from onrecord.warnings.addresses import clean_address, clean_street, parse_one_line


def test_one_line_address_is_split_into_linkage_fields():
    parts = clean_address(parse_one_line("305 Kestrel Rd Apt 2, Pine Hollow, OR 97641"))
    assert parts == {"street_number": "305", "street": "kestrel road", "city": "pine hollow",
                     "postcode": "97641", "state": "or"}


def test_abbreviations_spelled_out_and_leading_st_is_saint():
    assert clean_street("N. Maple Ave.") == "north maple avenue"
    assert clean_street("St Brigid St") == "saint brigid street"


def test_line_usaddress_cannot_label_is_kept_whole_as_street():
    # Two PO boxes repeat a label; usaddress refuses, and nothing is invented.
    assert parse_one_line("PO Box 9 PO Box 10") == {"street": "PO Box 9 PO Box 10"}
