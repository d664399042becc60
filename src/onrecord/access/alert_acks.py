"""The board's acknowledgements of alerts, kept in the store (`alert_acknowledgements`,
revision 0015): who acknowledged an alert and when, so that a restarted live process (which
replays the feeds' events through the rules and so finds the same alerts under the same
ids, live/engine.py) shows them again. The first acknowledgement of an alert is the one
kept: another person's press of the button later is answered with it.
"""

from __future__ import annotations

from sqlalchemy import Engine, insert, select

from onrecord.store.engine import write_transaction
from onrecord.store.schema_access import alert_acknowledgements as acks

MAX_ID = 300  # an alert's id as kept (its subject may be long: the id is cut, as the route cuts it)


def load(engine: Engine, case_id: int) -> dict[str, dict]:
    """Every acknowledgement kept for the case: alert id -> {"by", "at"} (UTC ms)."""
    with engine.connect() as conn:
        rows = conn.execute(select(acks.c.alert_id, acks.c.acknowledged_by, acks.c.at_ms)
                            .where(acks.c.case_id == case_id)).all()
    return {r.alert_id: {"by": r.acknowledged_by, "at": int(r.at_ms)} for r in rows}


def keep(engine: Engine, case_id: int, alert_id: str, by: str, at_ms: int) -> dict:
    """The alert's acknowledgement in the store: this one, or the one kept before it."""
    alert_id = alert_id[:MAX_ID]
    with write_transaction(engine) as conn:
        found = conn.execute(select(acks.c.acknowledged_by, acks.c.at_ms).where(
            acks.c.case_id == case_id, acks.c.alert_id == alert_id)).first()
        if found is not None:
            return {"by": found.acknowledged_by, "at": int(found.at_ms)}
        conn.execute(insert(acks).values(case_id=case_id, alert_id=alert_id, acknowledged_by=by, at_ms=at_ms))
    return {"by": by, "at": at_ms}
