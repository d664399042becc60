"""Person linkage: which records, from which agencies, describe the same person.

The model is Splink's Fellegi-Sunter model. Everything that defines it is data in
`linkage_settings` (comparisons, blocking rules, training rules, threshold), so the
product and the FEBRL benchmark run exactly the same configuration. `link_persons`
takes the clean table from `persons.prepare_persons` and returns a `LinkResult`:
who is who (clusters), every scored pair, and per pair the match weight each
comparison contributed — the answer to "why are these the same person".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd
from splink import Linker, SettingsCreator

from onrecord.errors import InputError
from onrecord.warnings import linkage_model
from onrecord.warnings.backends import database_api
from onrecord.warnings.nicknames import name_forms
from onrecord.warnings.persons import PERSON_FIELDS

Backend = Literal["duckdb", "spark"]

# Two records are the same person when the model's posterior probability is at least
# one half: the Bayes decision when a wrong link and a missed link cost the same.
# It is a property of a calibrated model, not of any data set, so it is never tuned.
MATCH_THRESHOLD = 0.5
# Pairs less likely than this are not kept in the result: they explain nothing and,
# at statewide scale, would be most of the blocked pairs.
KEEP_PAIRS_ABOVE = 0.001
PAIR_COLUMNS = ["record_id_l", "record_id_r", "match_weight", "match_probability",
                "agency_l", "agency_r", "linked"]
WEIGHT_COLUMNS = ["record_id_l", "record_id_r", "comparison", "level", "match_weight"]


@dataclass
class LinkResult:
    """Who is who, and why.

    clusters: record_id -> person_id (every input record, singletons included).
    pairs: every scored pair with match probability >= KEEP_PAIRS_ABOVE, with
        match_weight, match_probability, both agencies and `linked`.
    weights: per pair and comparison, the level reached and its match weight
        (log2 Bayes factor; positive is evidence for, negative against).
    """

    clusters: pd.DataFrame
    pairs: pd.DataFrame
    weights: pd.DataFrame
    threshold: float = MATCH_THRESHOLD
    training_notes: list[str] = field(default_factory=list)

    def person_of(self, record_id: str) -> str:
        row = self.clusters.loc[self.clusters["record_id"] == record_id]
        if row.empty:
            raise KeyError(record_id)
        return str(row["person_id"].iloc[0])

    def why(self, record_a: str, record_b: str) -> pd.DataFrame:
        """The match weights behind one pair, strongest evidence first."""
        w = self.weights
        hit = ((w.record_id_l == record_a) & (w.record_id_r == record_b)) | (
            (w.record_id_l == record_b) & (w.record_id_r == record_a)
        )
        rows = w.loc[hit].copy()
        return rows.sort_values("match_weight", key=abs, ascending=False)

    def linked_pairs(self) -> pd.DataFrame:
        return self.pairs.loc[self.pairs["linked"]]


def linkage_settings(trained: bool = True) -> SettingsCreator:
    """The whole model as data: comparisons and the blocking rules for prediction.

    `trained=False` is the small-data form: priors as they stand, no term-frequency
    adjustment, and a population-scale prior match probability (see linkage_model.py).
    """
    return SettingsCreator(
        link_type="dedupe_only",
        unique_id_column_name="record_id",
        comparisons=linkage_model.comparisons(term_frequencies=trained),
        blocking_rules_to_generate_predictions=linkage_model.prediction_blocking_rules(),
        probability_two_random_records_match=linkage_model.UNTRAINED_PRIOR,
        retain_intermediate_calculation_columns=True,
        retain_matching_columns=True,
        additional_columns_to_retain=["agency"],
    )


def link_persons(
    persons: pd.DataFrame | list[dict[str, Any]],
    backend: Backend = "duckdb",
    spark_session: Any = None,
    seed: int = 42,
) -> LinkResult:
    """Link a clean person table (see `prepare_persons`) on the chosen backend.

    Tables of at least `linkage_model.MIN_RECORDS_TO_TRAIN` records train the model on
    themselves (u by random sampling, m by EM); smaller ones use the priors.
    """
    table = _linkable_table(persons)
    if len(table) < 2:
        return _trivial_result(table)
    trained = len(table) >= linkage_model.MIN_RECORDS_TO_TRAIN
    db_api = database_api(backend, spark_session)
    linker = Linker(
        db_api.register(table), linkage_settings(trained), log_level=logging.ERROR
    )
    if trained:
        notes = linkage_model.train(linker, seed=seed)
    else:
        notes = [f"{len(table)} records < {linkage_model.MIN_RECORDS_TO_TRAIN}: "
                 "model priors used, no training, no term-frequency adjustment"]
    predictions = linker.inference.predict(threshold_match_probability=KEEP_PAIRS_ABOVE)
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(
        predictions, threshold_match_probability=MATCH_THRESHOLD
    )
    scored = predictions.as_pandas_dataframe()
    return LinkResult(
        clusters=_clusters_frame(clusters.as_pandas_dataframe()),
        pairs=_pairs_frame(scored),
        weights=_weights_frame(scored, linker),
        training_notes=notes,
    )


def _linkable_table(persons: pd.DataFrame | list[dict[str, Any]]) -> pd.DataFrame:
    table = persons if isinstance(persons, pd.DataFrame) else pd.DataFrame(persons)
    missing = [c for c in PERSON_FIELDS if c not in table.columns]
    if missing:
        raise InputError(f"person table lacks columns {missing}; use prepare_persons")
    table = table[list(PERSON_FIELDS)].copy()
    dupes = table["record_id"][table["record_id"].duplicated()]
    if not dupes.empty:
        raise InputError("record_id must be unique", field="record_id", value=dupes.iloc[0])
    # Splink needs one type per column; empty strings must be nulls, never agreement.
    for col in PERSON_FIELDS:
        table[col] = _strings(table[col])
    _refuse_unprepared(table)
    # One list per distinct given name, shared by its rows (a million rows, a few
    # hundred names).
    names = table["first_name"].dropna().unique()
    forms = {name: list(name_forms(name)) for name in names}
    table[linkage_model.NAME_FORMS] = table["first_name"].map(forms)
    return table


def _strings(column: pd.Series) -> pd.Series:
    """Trimmed strings, nulls for missing and empty values (a plain loop: pandas'
    string methods cost seconds per column on a million rows)."""
    values = [(v.strip() or None) if type(v) is str else _other_string(v) for v in column.tolist()]
    return pd.Series(pd.array(values, dtype="string"), index=column.index)


def _other_string(value: Any) -> str | None:
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return None
    return str(value).strip() or None


def _refuse_unprepared(table: pd.DataFrame) -> None:
    """Rows `prepare_persons` would have dropped or fixed must not reach the model."""
    nameless = table["first_name"].isna() & table["last_name"].isna()
    if nameless.any():
        raise InputError("record has no name; clean rows with prepare_persons first",
                         field="first_name", value=table["record_id"][nameless].iloc[0])
    bad_dob = table["dob"].notna() & ~table["dob"].str.fullmatch(r"\d{4}-\d{2}-\d{2}", na=False)
    if bad_dob.any():
        raise InputError("dob is not an ISO date; clean rows with prepare_persons first",
                         field="dob", value=table["dob"][bad_dob].iloc[0])


def _trivial_result(table: pd.DataFrame) -> LinkResult:
    clusters = pd.DataFrame(
        {"record_id": table["record_id"].astype(str), "person_id": table["record_id"].astype(str)}
    )
    return LinkResult(
        clusters=clusters,
        pairs=pd.DataFrame(columns=PAIR_COLUMNS),
        weights=pd.DataFrame(columns=WEIGHT_COLUMNS),
        training_notes=["fewer than two records: nothing to link"],
    )


def _clusters_frame(raw: pd.DataFrame) -> pd.DataFrame:
    frame = raw[["record_id", "cluster_id"]].rename(columns={"cluster_id": "person_id"})
    return frame.astype(str).sort_values("record_id").reset_index(drop=True)


def _pairs_frame(scored: pd.DataFrame) -> pd.DataFrame:
    pairs = scored[PAIR_COLUMNS[:-1]].copy()
    pairs["linked"] = pairs["match_probability"] >= MATCH_THRESHOLD
    return pairs.sort_values("match_weight", ascending=False).reset_index(drop=True)


def _weights_frame(scored: pd.DataFrame, linker: Linker) -> pd.DataFrame:
    """One row per pair and comparison: level label and match weight (with TF)."""
    frames = []
    for comparison in linker._settings_obj.comparisons:
        name = comparison.output_column_name
        labels = {lvl.comparison_vector_value: lvl.label_for_charts
                  for lvl in comparison.comparison_levels}
        frame = scored[["record_id_l", "record_id_r"]].copy()
        frame["comparison"] = name
        frame["level"] = scored[f"gamma_{name}"].map(labels)
        frame["match_weight"] = _comparison_weight(scored, comparison)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _comparison_weight(scored: pd.DataFrame, comparison: Any) -> pd.Series:
    """Match weight (log2 Bayes factor) of one comparison, term frequency included."""
    name = comparison.output_column_name
    weight = scored[f"mw_{name}"].astype(float)
    tf_col = f"mw_tf_adj_{name}"
    if tf_col in scored.columns:
        weight = weight + scored[tf_col].astype(float)
    return weight
