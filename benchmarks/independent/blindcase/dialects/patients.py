"""Patient care records (ePCR): times typed on the medics' tablets, to the minute."""

from __future__ import annotations

from ..timeline import Incident
from . import common


def epcr(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["minute_split", "minute_us", "minute_12"])
    split = st.style.columns == 2
    cols = (
        ["PCR_NO", "INCIDENT", "UNIT"]
        + (["DATE", "PT_CONTACT", "DEPART_SCENE"] if split else ["PT_CONTACT", "DEPART_SCENE"])
        + ["DESTINATION", "TRIAGE", "AGE", "SEX"]
    )
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="patient",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col="PCR_NO",
        dialect="patient/epcr",
        title=title,
    )
    fire_inc = inc.notes["created"][agency]
    number = rng.randint(100_000, 900_000)
    for p in sorted(inc.patients, key=lambda p: p.contact):
        number += rng.randint(1, 5)
        r = f"{world.local_date[:4]}-{number}"
        c, d = st.parts(p.contact), st.parts(p.transport)
        row = {
            "PCR_NO": r,
            "INCIDENT": fire_inc,
            "UNIT": world.units[p.medic].cad_id,
            "DESTINATION": p.hospital,
            "TRIAGE": p.triage,
            "AGE": str(rng.randint(14, 55)),
            "SEX": rng.choice("MF"),
        }
        if split:
            row.update({"DATE": c[0], "PT_CONTACT": c[1], "DEPART_SCENE": d[1]})
        else:
            row.update({"PT_CONTACT": c[0], "DEPART_SCENE": d[0]})
        exp.add(row)
        exp.record(r, "patient_contact", p.contact_ev, p.contact, " ".join(c))
        exp.record(r, "patient_transported", p.transport_ev, p.transport, " ".join(d))
        exp.mention(r, "unit", p.medic, row["UNIT"])
    docs = {
        "PCR_NO": "patient care report number",
        "INCIDENT": "fire/EMS incident number",
        "UNIT": "transporting unit",
        "DATE": "date (YYYYMMDD)",
        "PT_CONTACT": "time the crew made contact with the patient",
        "DEPART_SCENE": "time the ambulance left the scene with the patient",
        "DESTINATION": "receiving hospital",
        "TRIAGE": "triage category (RED immediate, YELLOW delayed, GREEN minor)",
        "AGE": "patient age",
        "SEX": "patient sex",
    }
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Patient care reports written by {world.agencies[agency].name} crews, one row per patient.",
        [(c, docs[c]) for c in cols],
        [("Times", common.time_columns_doc(st, zone_stated) + ". Entered by the medic on the tablet, to the minute.")],
        clock_note=f"crew tablets; {clock.statement}.",
    )
    return exp
