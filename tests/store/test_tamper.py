"""The tamper suite: every kind of change to a built case after the fact, made as a hostile
tester would (by hand, in the store, most with every hash and chain value recomputed so
the database agrees with itself), is found by `onrecord verify` against the signed
receipts and named; the untampered case passes. On SQLite and on PostgreSQL.

One case is imported and built once per store; each trial tampers with a copy of it (the
case folder copied, and on PostgreSQL the database cloned from it as a template).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete, func, insert, select, text, update

from onrecord.store.case import open_case
from onrecord.store.engine import DATABASE_URL_ENV
from onrecord.store.evidence import GENESIS
from onrecord.store.schema import (
    aligned_events,
    cases,
    clock_estimates,
    entities,
    events,
    findings,
    fused_events,
    raw_records,
    sources,
)
from tests.conftest import IN_CI, PG_ADMIN_URL
from tests.helpers import CAD_ROWS, write_cad

# ---- the case every trial starts from


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def built(request, tmp_path_factory):
    """(store, case folder, template database URL or None): two CAD exports imported, built."""
    from onrecord.cli import main

    root = tmp_path_factory.mktemp(f"tamper-{request.param}")
    url = None
    if request.param == "postgres":
        url = _create_database(f"onrecord_tamper_{uuid.uuid4().hex[:10]}")
        request.addfinalizer(lambda: _drop_database(url))
    saved = os.environ.pop(DATABASE_URL_ENV, None)
    try:
        case = root / "case"
        data, mapping = write_cad(root / "in")
        data2, _ = write_cad(root / "in2", CAD_ROWS.replace("C-10", "C-20"), "second.csv")
        for args in (["init", case] + (["--database-url", url] if url else []),
                     ["import", case, data, "--mapping", mapping], ["import", case, data2, "--mapping", mapping],
                     ["build", case]):
            try:
                main([str(a) for a in args])
            except SystemExit as exc:
                assert not exc.code, args
        open_case(case).engine.dispose()
    finally:
        if saved is not None:
            os.environ[DATABASE_URL_ENV] = saved
    return request.param, case, url


def _admin():
    return create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")


def _create_database(name: str, template: str | None = None) -> str:
    from sqlalchemy.exc import OperationalError

    admin = _admin()
    try:
        with admin.connect() as conn:
            if template:
                conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :d"),
                             {"d": template})
            conn.execute(text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")))
    except OperationalError as exc:
        if IN_CI:
            pytest.fail(f"PostgreSQL is required in CI and is not reachable: {exc}")
        pytest.skip(f"PostgreSQL not reachable at {PG_ADMIN_URL}: {exc.orig}")
    finally:
        admin.dispose()
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def _drop_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    admin = _admin()
    with admin.connect() as conn:
        conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :d"), {"d": name})
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.fixture
def copy(built, tmp_path, monkeypatch, request):
    """A copy of the built case to tamper with: its folder, and the case opened on it."""
    store, case, url = built
    folder = tmp_path / "case"
    shutil.copytree(case, folder)
    if store == "postgres":
        clone = _create_database(f"onrecord_trial_{uuid.uuid4().hex[:10]}", template=url.rsplit("/", 1)[1])
        request.addfinalizer(lambda: _drop_database(clone))
        monkeypatch.setenv(DATABASE_URL_ENV, clone)
    else:
        monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    c = open_case(folder)
    request.addfinalizer(c.engine.dispose)
    return folder, c


def _verify(cli, folder, *extra):
    code, out, err = cli("verify", folder, *extra)
    assert "Traceback" not in out + err
    return code, out, err


# ---- the tampering, done as an insider with write access to the store would


def _rechain(conn, case) -> None:
    """Recompute every record's SHA-256 and chain value, each source's file digest and
    count, and the case's head: the database then agrees with itself in every way the
    chain inside it can check."""
    r = raw_records.c
    rows = conn.execute(select(r.id, r.source_id, r.raw, r.sha256, r.chain).where(r.case_id == case.id)
                        .order_by(r.seq)).all()
    previous = GENESIS
    for seq, row in enumerate(rows, 1):
        sha = hashlib.sha256(bytes(row.raw)).digest()
        previous = hashlib.sha256(previous + sha).digest()
        conn.execute(update(raw_records).where(r.id == row.id).values(seq=-seq))  # no clash with the unique seq
        conn.execute(update(raw_records).where(r.id == row.id).values(sha256=sha, chain=previous))
    for seq, row in enumerate(rows, 1):
        conn.execute(update(raw_records).where(r.id == row.id).values(seq=seq))
    conn.execute(update(cases).where(cases.c.id == case.id).values(record_count=len(rows), chain_head=previous))
    for (sid,) in conn.execute(select(sources.c.id).where(sources.c.case_id == case.id)).all():
        raws = conn.execute(select(r.raw).where(r.source_id == sid).order_by(r.ordinal)).scalars().all()
        digest = hashlib.sha256(b"".join(bytes(x) for x in raws)).hexdigest()
        conn.execute(update(sources).where(sources.c.id == sid).values(file_sha256=digest, record_count=len(raws)))


def _record(conn, case, seq):
    return conn.execute(select(raw_records).where(raw_records.c.case_id == case.id,
                                                  raw_records.c.seq == seq)).one()


def _first(conn, table, case, order):
    return conn.execute(select(table).where(table.c.case_id == case.id).order_by(order).limit(1)).one()


def _next_id(conn, table):
    return (conn.execute(select(func.max(table.c.id))).scalar() or 0) + 1


def _src(conn, case, name):
    return conn.execute(select(sources).where(sources.c.case_id == case.id, sources.c.file_name == name)).one()


def edit_record_bytes(conn, case):
    rec = _record(conn, case, 3)
    conn.execute(update(raw_records).where(raw_records.c.id == rec.id).values(raw=rec.raw.replace(b"S14", b"S41")))


def rewrite_record_consistently(conn, case):
    rec = _record(conn, case, 2)
    conn.execute(update(raw_records).where(raw_records.c.id == rec.id)
                 .values(raw=rec.raw.replace(b"09:40:00", b"09:35:00")))
    _rechain(conn, case)


def rewrite_newest_record_consistently(conn, case):
    rec = _record(conn, case, 8)
    conn.execute(update(raw_records).where(raw_records.c.id == rec.id).values(raw=rec.raw.replace(b"10:11", b"10:01")))
    _rechain(conn, case)


def delete_middle_record_rechained(conn, case):
    rec = _record(conn, case, 3)
    conn.execute(delete(aligned_events).where(aligned_events.c.event_id.in_(
        select(events.c.id).where(events.c.raw_record_id == rec.id))))
    conn.execute(delete(events).where(events.c.raw_record_id == rec.id))
    conn.execute(delete(raw_records).where(raw_records.c.id == rec.id))
    _rechain(conn, case)


def delete_newest_record_roll_back_head(conn, case):
    rec = _record(conn, case, 8)
    conn.execute(delete(aligned_events).where(aligned_events.c.event_id.in_(
        select(events.c.id).where(events.c.raw_record_id == rec.id))))
    conn.execute(delete(events).where(events.c.raw_record_id == rec.id))
    conn.execute(delete(raw_records).where(raw_records.c.id == rec.id))
    _rechain(conn, case)


def delete_newest_source_roll_back_head(conn, case):
    sid = _src(conn, case, "second.csv").id
    ev = select(events.c.id).where(events.c.source_id == sid)
    conn.execute(delete(aligned_events).where(aligned_events.c.event_id.in_(ev)))
    conn.execute(delete(clock_estimates).where(clock_estimates.c.source_id == sid))
    conn.execute(delete(events).where(events.c.source_id == sid))
    conn.execute(delete(raw_records).where(raw_records.c.source_id == sid))
    conn.execute(delete(sources).where(sources.c.id == sid))
    _rechain(conn, case)


def fabricate_source(conn, case):
    """A source that was never imported, its records chained on after the last, the head moved."""
    first = _src(conn, case, "eastvale.csv")
    sid = conn.execute(insert(sources).values(
        case_id=case.id, kind="cad", agency="EVSO", file_name="planted.csv", file_sha256="0" * 64,
        mapping_name=first.mapping_name, mapping_text=first.mapping_text, timezone=first.timezone,
        record_count=1, event_count=1, rejected_count=0, imported_at=first.imported_at)
        .returning(sources.c.id)).scalar()
    raw = b"C-3001,S99,Shots fired,1 Mill Ln,1,03/14/2026 09:29:00,03/14/2026 09:29:30,03/14/2026 09:33:00\n"
    rid = _next_id(conn, raw_records)
    conn.execute(insert(raw_records).values(id=rid, case_id=case.id, source_id=sid, seq=9, ordinal=1, raw=raw,
                                            sha256=bytes(32), chain=bytes(32)))
    conn.execute(insert(events).values(id=_next_id(conn, events), case_id=case.id, source_id=sid,
                                       raw_record_id=rid, kind="unit_arrived", t_src_lo=1773498780000,
                                       t_src_hi=1773498780999, unit="S99", call="C-3001"))
    _rechain(conn, case)


def fabricate_source_in_the_middle(conn, case):
    """A planted source put before the second import: every later chain value recomputed."""
    first = _src(conn, case, "eastvale.csv")
    sid = conn.execute(insert(sources).values(
        case_id=case.id, kind="cad", agency="EVSO", file_name="planted.csv", file_sha256="0" * 64,
        mapping_name=first.mapping_name, mapping_text=first.mapping_text, timezone=first.timezone,
        record_count=1, event_count=0, rejected_count=0, imported_at=first.imported_at)
        .returning(sources.c.id)).scalar()
    r = raw_records.c
    for seq in range(8, 4, -1):
        conn.execute(update(raw_records).where(r.case_id == case.id, r.seq == seq).values(seq=seq + 1))
    conn.execute(insert(raw_records).values(id=_next_id(conn, raw_records), case_id=case.id, source_id=sid, seq=5,
                                            ordinal=1, raw=b"planted\n", sha256=bytes(32), chain=bytes(32)))
    _rechain(conn, case)


def shift_line_numbers(conn, case):
    sid = _src(conn, case, "eastvale.csv").id
    conn.execute(update(raw_records).where(raw_records.c.source_id == sid)
                 .values(ordinal=raw_records.c.ordinal + 1))


def swap_two_line_numbers(conn, case):
    a, b = _record(conn, case, 2), _record(conn, case, 3)
    conn.execute(update(raw_records).where(raw_records.c.id == a.id).values(ordinal=b.ordinal))
    conn.execute(update(raw_records).where(raw_records.c.id == b.id).values(ordinal=a.ordinal))


def repoint_event_to_another_line(conn, case):
    ev = _first(conn, events, case, events.c.id)
    other = _record(conn, case, 3)
    conn.execute(update(events).where(events.c.id == ev.id).values(raw_record_id=other.id))


def edit_event_time(conn, case):
    ev = _first(conn, events, case, events.c.id.desc())
    conn.execute(update(events).where(events.c.id == ev.id).values(t_src_lo=ev.t_src_lo - 300_000,
                                                                   t_src_hi=ev.t_src_hi - 300_000))


def edit_event_unit(conn, case):
    ev = conn.execute(select(events).where(events.c.case_id == case.id, events.c.unit == "S14")).first()
    conn.execute(update(events).where(events.c.id == ev.id).values(unit="S41"))


def delete_event(conn, case):
    ev = _first(conn, events, case, events.c.id.desc())
    conn.execute(delete(aligned_events).where(aligned_events.c.event_id == ev.id))
    conn.execute(delete(events).where(events.c.id == ev.id))
    conn.execute(update(sources).where(sources.c.id == ev.source_id).values(event_count=sources.c.event_count - 1))


def insert_event(conn, case):
    ev = _first(conn, events, case, events.c.id)
    row = {k: v for k, v in ev._mapping.items()} | {"id": _next_id(conn, events), "kind": "unit_arrived",
                                                   "time_text": "03/14/2026 09:33:00"}
    conn.execute(insert(events).values(**row))


def edit_mapping_text(conn, case):
    src = _src(conn, case, "eastvale.csv")
    conn.execute(update(sources).where(sources.c.id == src.id)
                 .values(mapping_text=src.mapping_text.replace("America/Chicago", "America/Denver")))


def edit_source_timezone(conn, case):
    conn.execute(update(sources).where(sources.c.id == _src(conn, case, "eastvale.csv").id)
                 .values(timezone="America/Denver"))


def rename_source(conn, case):
    conn.execute(update(sources).where(sources.c.id == _src(conn, case, "second.csv").id)
                 .values(file_name="third.csv"))


def edit_aligned_time(conn, case):
    a = _first(conn, aligned_events, case, aligned_events.c.event_id)
    conn.execute(update(aligned_events).where(aligned_events.c.event_id == a.event_id)
                 .values(t_lo=a.t_lo + 3_300_000, t_hi=a.t_hi + 3_300_000))


def delete_aligned_time(conn, case):
    a = _first(conn, aligned_events, case, aligned_events.c.event_id.desc())
    conn.execute(delete(aligned_events).where(aligned_events.c.event_id == a.event_id))


def edit_finding(conn, case):
    f = _first(conn, findings, case, findings.c.id)
    conn.execute(update(findings).where(findings.c.id == f.id).values(status="established", value_lo=60.0,
                                                                      value_hi=60.0))


def edit_finding_payload(conn, case):
    f = _first(conn, findings, case, findings.c.id.desc())
    payload = json.loads(f.payload or "{}") | {"reason": "established_by_hand"}
    conn.execute(update(findings).where(findings.c.id == f.id).values(payload=json.dumps(payload)))


def delete_finding(conn, case):
    f = _first(conn, findings, case, findings.c.id)
    conn.execute(delete(findings).where(findings.c.id == f.id))


def fabricate_finding(conn, case):
    conn.execute(insert(findings).values(id=_next_id(conn, findings), case_id=case.id, kind="metric",
                                         name="first_entry", status="established", value_lo=1.0, value_hi=1.0,
                                         unit="s", payload="{}", evidence='{"events": []}'))


def edit_clock_estimate(conn, case):
    c = _first(conn, clock_estimates, case, clock_estimates.c.source_id)
    conn.execute(update(clock_estimates).where(clock_estimates.c.source_id == c.source_id)
                 .values(status="pinned", offset_s=(c.offset_s or 0.0) + 55 * 60))


def edit_fused_event(conn, case):
    f = _first(conn, fused_events, case, fused_events.c.id)
    conn.execute(update(fused_events).where(fused_events.c.id == f.id).values(t_best=f.t_best + 60_000))


def edit_entity(conn, case):
    e = _first(conn, entities, case, entities.c.id)
    conn.execute(update(entities).where(entities.c.id == e.id).values(name="Someone Else"))


def rewrite_head_only(conn, case):
    conn.execute(update(cases).where(cases.c.id == case.id).values(chain_head=bytes(32)))


def mark_withdrawn_by_hand(conn, case):
    src = _src(conn, case, "second.csv")
    conn.execute(delete(aligned_events).where(aligned_events.c.event_id.in_(
        select(events.c.id).where(events.c.source_id == src.id))))
    conn.execute(delete(events).where(events.c.source_id == src.id))
    conn.execute(update(sources).where(sources.c.id == src.id).values(
        withdrawn_at=src.imported_at, withdrawn_reason="by hand", event_count=0))


# (trial, what verify must name)
STORE_TRIALS = [
    (edit_record_bytes, "line 3, chain position 3) was altered"),
    (rewrite_record_consistently, "raw record at chain position 2 (now line 2) of eastvale.csv was altered"),
    (rewrite_newest_record_consistently, "raw record at chain position 8 (now line 4) of second.csv was altered"),
    (delete_middle_record_rechained, "raw record at chain position 3"),
    (delete_newest_record_roll_back_head, "records 8 to 8 were deleted and the head rolled back"),
    (delete_newest_source_roll_back_head, "source 2 (second.csv) of receipt #3"),
    (fabricate_source, "(planted.csv) is on no receipt"),
    (fabricate_source_in_the_middle, "(planted.csv) is on no receipt"),
    (shift_line_numbers, "raw record at chain position 1 (now line 2) of eastvale.csv was altered"),
    (swap_two_line_numbers, "raw record at chain position 2 (now line 3) of eastvale.csv was altered"),
    (repoint_event_to_another_line, "(citing line 3) of eastvale.csv was altered"),
    (edit_event_time, "of second.csv was altered"),
    (edit_event_unit, "of eastvale.csv was altered"),
    (delete_event, "of second.csv was removed"),
    (insert_event, "of eastvale.csv was added"),
    (edit_mapping_text, "source 1 (eastvale.csv): its mapping text was changed"),
    (edit_source_timezone, "source 1 (eastvale.csv): its timezone was changed"),
    (rename_source, "source 2 (third.csv): its file name was changed"),
    (edit_aligned_time, "aligned time of event"),
    (delete_aligned_time, "was removed since receipt #4 (build"),
    (edit_finding, "finding"),
    (edit_finding_payload, "finding"),
    (delete_finding, "was removed since receipt #4 (build"),
    (fabricate_finding, "was added since receipt #4 (build"),
    (edit_clock_estimate, "clock estimate of source"),
    (edit_fused_event, "fused event"),
    (edit_entity, "entity"),
    (rewrite_head_only, "chain head"),
    (mark_withdrawn_by_hand, "marked withdrawn, but no removal receipt says so"),
]


def test_the_untampered_copy_verifies(copy, cli):
    folder, _ = copy
    code, out, err = _verify(cli, folder)
    assert code == 0, err
    assert "intact: 8 records in 2 sources" in out and "matches 4 signed receipts" in out


@pytest.mark.parametrize("trial,named", STORE_TRIALS, ids=[t.__name__ for t, _ in STORE_TRIALS])
def test_a_change_in_the_store_is_found_and_named(copy, cli, trial, named):
    folder, case = copy
    with case.engine.begin() as conn:
        trial(conn, case)
    case.engine.dispose()
    code, _, err = _verify(cli, folder)
    assert code == 1, f"{trial.__name__} passed verify"
    assert named in err, err


def test_derived_changes_name_the_row(copy, cli):
    folder, case = copy
    with case.engine.begin() as conn:
        f = _first(conn, findings, case, findings.c.id)
        a = _first(conn, aligned_events, case, aligned_events.c.event_id)
        edit_finding(conn, case)
        edit_aligned_time(conn, case)
    case.engine.dispose()
    code, _, err = _verify(cli, folder)
    assert code == 1
    assert f"finding {f.id} was altered since receipt #4 (build" in err
    assert f"aligned time of event {a.event_id} was altered since receipt #4 (build" in err


# ---- changes to the receipts themselves


def _lines(folder: Path) -> list[bytes]:
    return [ln for ln in (folder / "receipts.log").read_bytes().split(b"\n") if ln]


def test_an_edited_receipt_is_found(copy, cli):
    folder, _ = copy
    path = folder / "receipts" / "000003-import.json"
    r = json.loads(path.read_bytes())
    r["chain"]["records"] = 7
    path.write_text(json.dumps(r))
    code, _, err = _verify(cli, folder)
    assert code == 1 and "receipt #3 (import of second.csv" in err and "signature does not hold" in err


def test_a_deleted_receipt_file_is_found_by_the_log(copy, cli):
    folder, _ = copy
    (folder / "receipts" / "000002-import.json").unlink()
    code, _, err = _verify(cli, folder)
    assert code == 1 and "receipt #2 (import" in err and "file in receipts/ was deleted" in err


def test_the_newest_receipt_taken_out_of_folder_and_log_is_found(copy, cli):
    folder, _ = copy
    (folder / "receipts" / "000004-build.json").unlink()
    (folder / "receipts.log").write_bytes(b"\n".join(_lines(folder)[:3]) + b"\n")
    code, _, err = _verify(cli, folder)
    assert code == 1 and "no build receipt covers them" in err


def test_receipts_re_signed_with_another_key_are_found(copy, cli):
    """A forger with a key of their own signs new receipts and replaces the public key file."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from onrecord.store import receipts, signing

    folder, _ = copy
    forged = Ed25519PrivateKey.generate()
    lines = []
    for path in sorted((folder / "receipts").glob("*.json")):
        r = json.loads(path.read_bytes())
        r["public_key"] = signing.public_hex(forged)
        r["signature"] = signing.sign(forged, receipts.signed_bytes(r))
        path.write_bytes(receipts.line_of(r) + b"\n")
        lines.append(receipts.line_of(r))
    (folder / "receipts.log").write_bytes(b"\n".join(lines) + b"\n")
    (folder / "receipts" / "signing-key.pub").write_text(signing.public_hex(forged) + "\n")
    code, _, err = _verify(cli, folder)
    assert code == 1 and "signing-key.pub is not this case's public key" in err
    assert "is signed by another key than this case's" in err


def test_a_full_rollback_is_found_by_receipts_kept_elsewhere(copy, cli, tmp_path):
    """The newest source deleted, the head rolled back, and the case's own receipts of it
    deleted too: only a copy of the receipts kept elsewhere (or the printed head) can tell."""
    folder, case = copy
    kept = tmp_path / "kept"
    shutil.copytree(folder / "receipts", kept)
    with case.engine.begin() as conn:
        for t in (findings, fused_events, entities, clock_estimates, aligned_events):
            conn.execute(delete(t).where(t.c.case_id == case.id))
        from onrecord.store.schema import entity_mentions

        conn.execute(delete(entity_mentions).where(entity_mentions.c.case_id == case.id))
        delete_newest_source_roll_back_head(conn, case)
    case.engine.dispose()
    for n in ("000003-import.json", "000004-build.json"):
        (folder / "receipts" / n).unlink()
    (folder / "receipts.log").write_bytes(b"\n".join(_lines(folder)[:2]) + b"\n")
    assert _verify(cli, folder)[0] == 0  # the case folder alone cannot tell: docs/store.md says so
    code, _, err = _verify(cli, folder, "--receipts", kept)
    assert code == 1 and "records 5 to 8 were deleted and the head rolled back" in err
    assert "source 2 (second.csv) of receipt #3 (import of second.csv" in err and "is gone from the store" in err


def test_one_given_receipt(copy, cli):
    folder, case = copy
    code, out, err = _verify(cli, folder, "--receipt", folder / "receipts" / "000002-import.json")
    assert code == 0, err
    with case.engine.begin() as conn:
        shift_line_numbers(conn, case)
    case.engine.dispose()
    code, _, err = _verify(cli, folder, "--receipt", folder / "receipts" / "000002-import.json")
    assert code == 1 and "raw record at chain position 1 (now line 2) of eastvale.csv" in err


# ---- the same on real agency exports (../shared/data/cad), named row by row or by block


def _real_case(case_dir, cli):
    from tests.conftest import shared_path

    for mapping, name in (("sf-fire", "sf-fire-calls.csv"), ("seattle-police", "seattle-police-calls.csv")):
        code, _, err = cli("import", case_dir, shared_path("data", "cad", name), "--mapping", mapping)
        assert code == 0, err
    return open_case(case_dir)


def test_real_exports_a_consistent_rewrite_is_named_at_its_line(case_dir, cli):
    case = _real_case(case_dir, cli)
    with case.engine.begin() as conn:
        src = _src(conn, case, "sf-fire-calls.csv")
        rec = conn.execute(select(raw_records).where(raw_records.c.source_id == src.id)
                           .order_by(raw_records.c.ordinal).offset(500).limit(1)).one()
        conn.execute(update(raw_records).where(raw_records.c.id == rec.id).values(raw=bytes(rec.raw)[:-3] + b"X\n"))
        _rechain(conn, case)
    case.engine.dispose()
    code, _, err = _verify(cli, case_dir)
    assert code == 1
    assert f"raw record at chain position {rec.seq} (now line {rec.ordinal}) of sf-fire-calls.csv was altered" in err


def test_real_exports_shifted_lines_and_an_edited_event_are_found(case_dir, cli):
    case = _real_case(case_dir, cli)
    with case.engine.begin() as conn:
        src = _src(conn, case, "seattle-police-calls.csv")
        r = raw_records.c
        conn.execute(update(raw_records).where(r.source_id == src.id, r.ordinal >= 40).values(ordinal=r.ordinal + 1))
        first = conn.execute(select(func.min(r.seq)).where(r.source_id == src.id, r.ordinal >= 41)).scalar()
        fire = _src(conn, case, "sf-fire-calls.csv")
        ids = conn.execute(select(events.c.id).where(events.c.source_id == fire.id)
                           .order_by(events.c.id)).scalars().all()
        target = ids[len(ids) * 2 // 3]
        conn.execute(update(events).where(events.c.id == target).values(place="1 Elsewhere St"))
    case.engine.dispose()
    code, _, err = _verify(cli, case_dir)
    assert code == 1
    assert f"raw record at chain position {first} (now line 41) of seattle-police-calls.csv was altered" in err
    line = next(ln for ln in err.splitlines() if "of sf-fire-calls.csv was altered" in ln)
    if len(ids) <= 1024:
        assert f"event {target} (" in line
    else:  # named by the block it is in
        lo, hi = (int(x) for x in line.split("one of event ", 1)[1].split(" of ")[0].split(" to "))
        assert lo <= target <= hi and hi - lo < len(ids) / 500


def test_real_exports_the_newest_source_deleted_and_the_head_rolled_back(case_dir, cli):
    case = _real_case(case_dir, cli)
    with case.engine.begin() as conn:
        sid = _src(conn, case, "seattle-police-calls.csv").id
        conn.execute(delete(events).where(events.c.source_id == sid))
        conn.execute(delete(raw_records).where(raw_records.c.source_id == sid))
        conn.execute(delete(sources).where(sources.c.id == sid))
        _rechain(conn, case)
    case.engine.dispose()
    code, _, err = _verify(cli, case_dir)
    assert code == 1 and "were deleted and the head rolled back" in err
    assert f"source {sid} (seattle-police-calls.csv) of receipt #3 (import of seattle-police-calls.csv" in err
