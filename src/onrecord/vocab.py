"""The shared vocabulary: source kinds and event kinds (see docs/events.md).

Add a kind when a real source needs it; never overload an existing one.
"""

SOURCE_KINDS = frozenset(
    {
        "cad", "radio", "call911", "sensor", "avl", "roster", "statement",
        "press", "tip", "contact", "eido", "cap", "camera",
        # An EMS agency's patient care records (ePCR, NEMSIS): patient contact, transport,
        # destination, written by the crew from its own device's clock.
        "patient",
    }
)

EVENT_KINDS = frozenset(
    {
        "call_received", "call_transferred", "call_answered", "incident_created",
        "unit_dispatched", "unit_enroute", "unit_arrived", "unit_position",
        "entry", "exit", "shots_reported", "shots_detected", "radio_transmission",
        "camera_observation", "door_event", "alarm", "patient_transported",
        "incident_closed", "tip_received", "contact", "report_filed", "statement",
        # Real CAD exports record when a unit cleared the call and became free
        # again (SF Fire "AvailableDtTm"); it is not the incident's closing.
        "unit_available",
        # A unit's status change whose meaning the export does not say.
        "unit_status",
        # A roster line: which officer works which unit (no time of its own).
        "roster_entry",
        # A patient care record's "patient contact" time (NEMSIS "arrived at patient"):
        # when a medic unit reached or was handed a casualty. Not a transport.
        "patient_contact",
        # A unit reached its staging point near the scene ("at staging", "staged"): for the
        # response measures, its arrival at the incident.
        "staging",
        # The threat ended: the attacker in custody, down, or gone ("suspect in custody",
        # "Code 4"); a CAD or a log may record it as a time of its own.
        "threat_ended",
        # A note written on the incident record: a CAD narrative line, an EIDO notes component.
        "note",
        # An incident status other than closed (an EIDO incident's status registry value).
        "incident_status",
        # A public alert (OASIS CAP): sent; in effect (per <info>); the expected onset of its hazard.
        "alert_sent", "alert_effective", "alert_onset",
        # A 911 call's end: the caller hung up before anyone answered (a phone log's
        # "abandoned"), or the line was released after the call ("released", "disconnect").
        "call_abandoned", "call_ended",
        # A device's state other than what it detects: a door closed or secured, a fire
        # panel's trouble, supervisory, silence or reset. Door logs and panels write many;
        # none is an opening or an alarm, and without a kind they were left out as raw records.
        "device_status",
    }
)
