"""Writing the statements and press pieces, and telling truth what they hold."""

from __future__ import annotations

import random
from pathlib import Path

from onrecord.scenario.sources.press import all_press
from onrecord.scenario.sources.statements import all_statements
from onrecord.scenario.sources.textdoc import TextDoc, write_doc
from onrecord.scenario.story import Story
from onrecord.scenario.truth import TruthBook


def write_texts(story: Story, book: TruthBook, root: Path, rng: random.Random) -> list[Path]:
    docs = all_statements(story, rng) + all_press(story, rng)
    return [_write(story, book, root, d) for d in docs]


def _write(story: Story, book: TruthBook, root: Path, doc: TextDoc) -> Path:
    tz = story.world.tz
    key = "Written" if doc.kind == "statement" else "Published"
    path = write_doc(root, doc, book, tz, key)
    event = "statement" if doc.kind == "statement" else "report_filed"
    eid = f"statement-{doc.rid[3:]}" if doc.kind == "statement" else f"press-{doc.rid[3:]}"
    book.record(doc.name, doc.rid, event, eid, story.at(eid), doc.header[key])
    if doc.kind == "statement":
        unit = next(u for u in story.world.units if u.cad_id == doc.header["Unit"])
        book.mention(doc.name, doc.rid, "unit", unit.uid)
        book.mention(doc.name, doc.rid, "actor", unit.crew[0])
        book.forms[f"{doc.name}#{doc.rid}#unit"] = doc.header["Unit"]
        book.forms[f"{doc.name}#{doc.rid}#actor"] = doc.header["Author"]
    for s in doc.spans:
        where = {"source": doc.name, "rid": doc.rid, "span": s["span"], "quote": s["quote"]}
        if s["type"] == "mention":
            what = f"text@{s['span'][0]}-{s['span'][1]}"
            book.mention(doc.name, doc.rid, what, s["entity"])
            book.forms[f"{doc.name}#{doc.rid}#{what}"] = s["name"]
        elif s["type"] == "press_error":
            book.press_errors.append({**where, "measure": s["measure"], "claimed": s["claimed"], "true": s["true"]})
        elif s["type"] == "contradiction":
            book.contradictions.append({"id": f"contradiction-{len(book.contradictions) + 1:02d}", **where,
                                        "measure": s["measure"], "claimed": s["claimed"], "true": s["true"],
                                        "evidence": s["evidence"]})
        else:
            book.approximations.append({**where, "measure": s["measure"], "true": s["true"],
                                        "evidence": s["evidence"]})
    return path
