import json

from onrecord.claims.extract import analyse
from onrecord.claims.rows import claim_row
from onrecord.store.schema import claims as claims_table


def test_rows_fit_the_store_table():
    text = "Two days after the vigil, Chief Mara Quill sent an email saying 12 officers went in."
    analysis = analyse({"e.txt": text})
    names = {e.id: e.name for e in analysis.entities}
    columns = set(claims_table.c.keys())
    for claim in analysis.claims:
        row = claim_row(claim, names)
        assert set(row) <= columns
        assert text[row["span_lo"]:row["span_hi"]] == claim.text
        assert json.loads(row["payload"])["measure"] == row["measure"]
    rows = {r["measure"]: r for r in (claim_row(c, names) for c in analysis.claims)}
    assert rows["time_of_action"]["speaker"] == "author of e.txt"
    assert rows["time_of_action"]["subject"] == "Mara Quill"
    assert json.loads(rows["time_of_action"]["time_ref"])["anchor"] == "the vigil"
