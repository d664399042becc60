"""Campus video: the review log an investigator made from recorded footage (times are
the overlay the recorder burns in), and the monitoring log kept at the command post,
where the "live" view was really the recorder replaying minutes behind."""

from __future__ import annotations

from .. import names
from ..timefmt import time_only
from ..timeline import Incident
from . import common

WHAT = {
    "male with long gun enters": [
        "Subject enters carrying long gun",
        "Male, dark clothing, rifle, enters through door",
    ],
    "subject firing in hallway": ["Subject firing in hallway", "Muzzle flash visible, subject shooting down hall"],
    "officers enter": ["Officers enter building", "LE team (3-4) enters through door"],
    "officers and fire crew enter": ["Officers with fire crew enter", "Rescue task force enters"],
    "subject exits with students": [
        "Subject exits with fleeing students",
        "Subject leaves building among students, rifle no longer visible",
    ],
    "officers take subject to the floor": [
        "Officers take subject to the floor",
        "Subject on floor, officers detaining",
    ],
    "students run out": ["Students running out", "Students exit at a run"],
}


def review_log(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["dayfirst", "us24", "monname", "local_plain", "dayfirst_dots"])
    cols = rng.choice(
        [
            ["Entry", "Camera", "Camera Name", "Video Timestamp", "Observation", "Reviewer"],
            ["LINE", "CAM_ID", "CAM_DESC", "OVERLAY_TIME", "NOTES", "BY"],
        ]
    )
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="camera",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col=cols[0],
        dialect="camera/review",
        title=title,
    )
    cams = {c["id"]: c for c in inc.cameras}
    reviewer = f"Det. {rng.choice(names.LAST_NAMES)}"
    for i, s in enumerate(inc.sightings, 1):
        r = str(i)
        p = st.parts(s.t)
        exp.add(dict(zip(cols, [r, s.camera, cams[s.camera]["where"], p[0], rng.choice(WHAT[s.what]), reviewer])))
        exp.record(r, "camera_observation", s.event, s.t, p[0], seen=s.kind)
    exp.dictionary = common.dictionary(
        exp,
        world,
        f"Video review log for {world.school}: what the reviewing detective saw on the recorded footage of each "
        "camera, with the time stamp burned into the video by the district's recorder.",
        list(
            zip(
                cols,
                [
                    "entry number",
                    "camera id",
                    "camera location",
                    "time shown in the video overlay",
                    "what is seen",
                    "who reviewed",
                ],
            )
        ),
        [("Times", common.time_columns_doc(st, zone_stated) + ". The overlay is the network video recorder's clock.")],
        clock_note=f"network video recorder clock; {clock.statement}.",
    )
    return exp


def monitor_log(world, inc: Incident, agency, rng, clock, name, folder, title):
    st = common.stamp(rng, world, clock, ["us24", "local_plain", "us12"])
    cols = ["Row", "Screen Clock", "Mode", "Camera", "Frame Time", "What Was Seen", "Operator"]
    zone_stated = common.zone_words(rng, world, st)
    exp = common.new_export(
        world,
        name=name,
        folder=folder,
        kind="camera",
        agency=agency,
        clock=clock,
        st=st,
        zone_stated=zone_stated,
        columns=cols,
        rid_col="Row",
        dialect="camera/monitor",
        title=title,
    )
    op = f"{rng.choice(names.LAST_NAMES)} (district IT)"
    for i, v in enumerate(inc.live_views, 1):
        r = str(i)
        p = st.parts(v.shown)
        frame = time_only(clock.written(v.footage), world.zone)
        exp.add(dict(zip(cols, [r, p[0], "LIVE", v.camera, frame, rng.choice(WHAT[v.what]), op])))
        exp.record(
            r,
            "camera_observation",
            v.event,
            v.footage,
            frame,
            shown_true=v.shown,
            shown_written=p[0],
            written_as="time_only:%H:%M:%S",
            note="time written in 'Frame Time' stands for the footage; 'Screen Clock' is when it was shown",
        )
    exp.dictionary = common.dictionary(
        exp,
        world,
        "Log kept by the district's camera operator at the command post while watching the video management "
        "client, which showed the cameras in its LIVE mode.",
        [
            ("Row", "line"),
            ("Screen Clock", "the recorder's clock shown in the corner of the client when the note was made"),
            ("Mode", "view mode the client displayed"),
            ("Camera", "camera id"),
            (
                "Frame Time",
                "time stamp in the video overlay of the frame being watched, HH:MM:SS on the date of `Screen Clock`",
            ),
            ("What Was Seen", "operator's note"),
            ("Operator", "who kept the log"),
        ],
        [("Times", common.time_columns_doc(st, zone_stated) + ". Both columns are the video recorder's clock.")],
        clock_note=f"network video recorder clock; {clock.statement}.",
    )
    return exp
