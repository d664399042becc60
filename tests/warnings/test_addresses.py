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


def test_plain_one_line_addresses_split_as_usaddress_splits_them():
    """The fast path for 'number street type [unit]' gives usaddress's answer."""
    import random

    import usaddress

    from onrecord.warnings.addresses import _PLAIN_ADDRESS, _STREET_LABELS

    rng = random.Random(5)
    streets = ["Juniper", "Cypress Bend", "Old Quarry", "N Maple", "Palmetto Glen", "Heron"]
    types = ["St", "Street", "Ave", "Avenue", "Dr", "Drive", "Ln", "Ct", "Way", "Blvd", "Ter",
             "Terrace", "Pl", "Place", "Rd"]
    plain = 0
    for _ in range(600):
        line = f"{rng.randint(1, 9899)} {rng.choice(streets)} {rng.choice(types)}"
        line = line.upper() if rng.random() < 0.3 else line
        line += rng.choice(["", "", ", Apt 2", " #B", ", Unit 1", " Apt 4C"])
        assert _PLAIN_ADDRESS.fullmatch(line), line
        plain += 1
        tagged, _ = usaddress.tag(line)
        expected = clean_address({"street_number": tagged.get("AddressNumber"),
                                  "street": " ".join(tagged[k] for k in _STREET_LABELS if k in tagged),
                                  "city": tagged.get("PlaceName"), "postcode": tagged.get("ZipCode"),
                                  "state": tagged.get("StateName")})
        assert clean_address(parse_one_line(line)) == expected, line
    # Anything more (a city, a postcode, a post-directional) is left to usaddress.
    for line in ("305 Kestrel Rd Apt 2, Pine Hollow, OR 97641", "12 Maple Ave NE", "Highway 41"):
        assert not _PLAIN_ADDRESS.fullmatch(line)
