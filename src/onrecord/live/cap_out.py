"""An alert as an OASIS CAP 1.2 message: fired -> Alert, updated -> Update, cleared ->
Cancel (with the reason), each referencing the first. Times carry a numeric offset (the
schema refuses `Z`); the words come from findings/render.py, the values stay parameters.
Built with ElementTree: nothing from a record is ever written as markup, only as text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from onrecord.findings.render import sentence

CAP_NS = "urn:oasis:names:tc:emergency:cap:1.2"
MSG_TYPE = {"fire": "Alert", "update": "Update", "clear": "Cancel"}


def cap_time(ms: float, zone: ZoneInfo) -> str:
    t = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(zone).replace(microsecond=0)
    text = t.isoformat()
    return text[:-6] + "-00:00" if text.endswith("+00:00") else text  # CAP writes UTC as -00:00


def cap_alert(finding, action: str, at_ms: float, case_uid: str, zone: ZoneInfo = ZoneInfo("UTC"),
              sender: str | None = None) -> bytes:
    f = finding
    p = f.payload
    sender = sender or f"onrecord@{case_uid}"
    ident = f"{p['alert']}:{action}:{int(at_ms)}".replace(" ", "_").replace(",", ";")
    root = ET.Element("alert", xmlns=CAP_NS)
    _sub(root, "identifier", ident)
    _sub(root, "sender", sender)
    _sub(root, "sent", cap_time(at_ms, zone))
    _sub(root, "status", "Actual")
    _sub(root, "msgType", MSG_TYPE[action])
    _sub(root, "scope", "Restricted")
    _sub(root, "restriction", "Responders to this incident")
    if action == "clear":
        _sub(root, "note", f"cleared: {p.get('clear_reason')}")
    if action != "fire":  # the schema's order: note, then references
        first = f"{p['alert']}:fire:{int(p['fired_at'])}".replace(" ", "_").replace(",", ";")
        _sub(root, "references", f"{sender},{first},{cap_time(p['fired_at'], zone)}")
    info = ET.SubElement(root, "info")
    _sub(info, "category", "Security")
    _sub(info, "event", p["title"])
    _sub(info, "urgency", "Past" if action == "clear" else p["urgency"])
    _sub(info, "severity", p["severity"])
    _sub(info, "certainty", p["certainty"])
    _sub(info, "effective", cap_time(p["held_since"], zone))
    _sub(info, "senderName", "onrecord live board")
    _sub(info, "headline", f"{p['title']}: {f.subject}"[:160])
    _sub(info, "description", sentence(f, zone))
    for name, value in (("rule", f.name), ("subject", f.subject), ("alert", p["alert"]),
                        ("evidence", " ".join(str(e) for e in f.evidence))):
        par = ET.SubElement(info, "parameter")
        _sub(par, "valueName", name)
        _sub(par, "value", str(value))
    area = ET.SubElement(info, "area")
    _sub(area, "areaDesc", "incident scene")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _sub(parent, tag: str, text: str) -> ET.Element:
    e = ET.SubElement(parent, tag)
    e.text = text
    return e
