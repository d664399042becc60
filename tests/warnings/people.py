"""Fictional people for the linkage tests. Every name and address here is invented."""

from __future__ import annotations

# Orla Brennick appears at four agencies with spelling, format and address variants;
# Tobias and Wren Quillfeather share a surname and a street but are different people.
AGENCY_ROWS: list[dict] = [
    {"record_id": "sheriff-101", "agency": "sheriff", "full_name": "BRENNICK, Orla J.",
     "dob": "14/03/2001", "address": "1412 N Maple Ave, Lakeview, OR 97630",
     "phone": "(541) 555-0142"},
    {"record_id": "school-7", "agency": "school", "first_name": "Orla",
     "middle_name": "Jane", "last_name": "Brenick", "dob": "2001-03-14",
     "street_number": "1412", "street": "North Maple Avenue", "city": "Lakeview",
     "postcode": "97630", "state": "OR"},
    {"record_id": "tipline-33", "agency": "tipline", "first_name": "Orla",
     "last_name": "Brennick", "dob": "2001-03-14", "phone": "541-555-0142",
     "city": "Lakeview", "state": "OR"},
    {"record_id": "social-5", "agency": "social", "first_name": "Orla",
     "last_name": "Brennick", "dob": "2001-03-41", "street_number": "1412",
     "street": "Maple Ave", "city": "Lakeview", "postcode": "97630", "state": "OR",
     "id_number": "OR-7731902"},
    {"record_id": "sheriff-102", "agency": "sheriff", "full_name": "Quillfeather, Tobias",
     "dob": "02/11/1968", "address": "88 Harrow Lane, Lakeview, OR 97630"},
    {"record_id": "school-9", "agency": "school", "first_name": "Wren",
     "last_name": "Quillfeather", "dob": "2004-06-19", "street_number": "88",
     "street": "Harrow Lane", "city": "Lakeview", "postcode": "97630", "state": "OR"},
    {"record_id": "tipline-40", "agency": "tipline", "first_name": "Tobias",
     "last_name": "Quillfeather", "dob": "1968-11-02", "phone": "541 555 0199",
     "city": "Lakeview", "state": "OR"},
    {"record_id": "social-8", "agency": "social", "first_name": "Marguerite",
     "last_name": "Osterlund", "dob": "1979-08-30", "street_number": "7",
     "street": "Cinder Court", "city": "Pine Hollow", "postcode": "97641", "state": "OR"},
    {"record_id": "sheriff-103", "agency": "sheriff", "full_name": "Dace Albrightson",
     "dob": "21/01/1990", "address": "305 Kestrel Rd, Pine Hollow, OR 97641"},
    {"record_id": "school-12", "agency": "school", "first_name": "Ilse",
     "last_name": "Vantongeren", "dob": "2003-12-05", "street_number": "19",
     "street": "Fernbrook Way", "city": "Lakeview", "postcode": "97630", "state": "OR"},
    # No usable name: must be dropped, never linked on the shared address.
    {"record_id": "tipline-41", "agency": "tipline", "first_name": "  ",
     "last_name": None, "dob": "2001-03-14", "street_number": "1412",
     "street": "North Maple Avenue", "city": "Lakeview", "postcode": "97630"},
]

# The sheriff exports dates day-first; everyone else writes ISO.
DATE_FORMATS = {"sheriff": "%d/%m/%Y"}
ORLA = ["sheriff-101", "school-7", "tipline-33", "social-5"]
