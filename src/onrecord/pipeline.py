"""What the user's commands do, one function each: `onrecord import`, `build`, `link`,
`verify`, `report` and `scenario score` call these, and so does `onrecord demo`, so the
demo runs exactly the code a user runs. Printing is the caller's (cli/, views/).

Imports stay inside the functions: `onrecord --help` must not load pandas or Splink.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from onrecord.reconstruct.build import Reconstruction
    from onrecord.sources.importer import ImportResult
    from onrecord.sources.mapping import Mapping
    from onrecord.store.case import Case
    from onrecord.store.verify import VerifyResult
    from onrecord.warnings.case_linkage import Subjects


def import_files(case: Case, files: Iterable[Path], mapping: Mapping, *, tz: str | None = None,
                 agency: str | None = None, skip_bad_rows: bool = False,
                 progress: Callable[[str], object] | None = None) -> Iterator[ImportResult]:
    """Each file through one mapping, all or nothing per file; yields each file's result
    as it is stored. `progress(file name)` may give a context manager with an
    `update(stage, rows)` method (a progress bar)."""
    from onrecord.sources.importer import import_file

    for path in files:
        with progress(path.name) if progress else nullcontext() as bar:
            yield import_file(case, Path(path), mapping, tz=tz, agency=agency, skip_bad_rows=skip_bad_rows,
                              **({"progress": bar.update} if bar is not None else {}))


def build_case(case: Case) -> Reconstruction:
    """Align clocks, resolve who is who, fuse, compute the findings, and replace the
    case's derived tables with them in one transaction."""
    from onrecord.findings.compute import compute_findings
    from onrecord.live.replay import replay_build
    from onrecord.reconstruct.build import reconstruct
    from onrecord.reconstruct.write import write_reconstruction
    from onrecord.store import listing
    from onrecord.store.reader import open_reader
    from onrecord.store.receipts import issue_derived, signing_key

    key = signing_key(case)  # before the work: a case whose key is elsewhere is told so at once
    reader = open_reader(case)
    generation = reader.generation()  # read first: events changing during the build make it stale, not silent
    r = reconstruct(reader)
    r.findings, r.claims = compute_findings(r)
    # "When would the alert have fired, and who would have seen it": the events replayed through
    # the live rules, the alerts findings of the case (kind `alert`) the timeline and report show.
    r.findings += replay_build(r)
    with _case_written(case):  # the receipt states the store as this build left it, no later write
        write_reconstruction(case, r, generation)
        r.receipt = issue_derived(case, "build", key)
    listing.refresh(case)  # the list's rows on this build's clock (store/listing.py)
    return r


def link_case(case: Case, backend: str = "duckdb") -> Subjects:
    """Link the people named in prior-contact records across agencies, and replace the
    case's linked people and warnings with this linkage's."""
    from onrecord.store import listing
    from onrecord.store.reader import open_reader
    from onrecord.store.receipts import issue_derived, signing_key
    from onrecord.warnings.case_linkage import link_contacts
    from onrecord.warnings.write import write_subjects

    key = signing_key(case)
    result = link_contacts(open_reader(case), backend)
    with _case_written(case):
        write_subjects(case, result)
        result.receipt = issue_derived(case, "link", key)
    listing.refresh(case)  # a linkage moves the derived generation the list's rows are stamped with
    return result


def _case_written(case: Case):
    """The case's write lock (re-entrant), held across a write and its signed receipt."""
    from onrecord.store.write_lock import case_write_lock, wait_limit

    return case_write_lock(case.path, wait_limit(case.settings))


def verify_case(case: Case, receipts: Path | None = None, receipt: Path | None = None) -> VerifyResult:
    """Re-hash every stored record and walk the chain, then check the store against the
    signed receipts: the case's own, a copy kept elsewhere (`receipts`), or one (`receipt`)."""
    from onrecord.sources.record_paths import check_source_paths
    from onrecord.store.reader import open_reader
    from onrecord.store.verify import verify_records

    return verify_records(open_reader(case), check_source_paths, receipts, receipt)


def remove_source(case: Case, source: str, reason: str) -> dict:
    """Withdraw a source imported by mistake: a tombstone on the chain, its events out of
    every view, a signed receipt; findings follow at the next build (store/removal.py)."""
    from onrecord.store.removal import remove_source as remove

    return remove(case, source, reason)


def write_report(case: Path | str, fmt: Literal["html", "pdf"], out: Path | str) -> Path:
    """The after-action report of a case as HTML or PDF; returns the file written."""
    from onrecord.views.report.document import write_report as write

    return write(Path(case), fmt, Path(out))


def export_case(case: Path | str, fmt: str, out: Path | str):
    """The case in an interchange format (timesketch, eido, cap, csv, parquet): views/export."""
    from onrecord.views.export import export_case as export

    return export(Path(case), fmt, Path(out))


def score_case(case: Path | str, truth: Path | str) -> dict:
    """How close a built case came to the truth it was generated with (`onrecord scenario score`)."""
    from onrecord.scenario.results import collect_case_results
    from onrecord.scenario.score import score_case as score
    from onrecord.scenario.truth import load_truth

    return score(collect_case_results(Path(case)), load_truth(Path(truth)))
