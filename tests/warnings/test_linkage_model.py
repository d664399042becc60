"""The model as data: priors are probabilities, and no rule scores names alone."""

from __future__ import annotations

import pytest

from onrecord.warnings import linkage_model


@pytest.mark.parametrize("name,levels", list(linkage_model.comparison_table().items()))
def test_priors_are_distributions_and_agreement_is_evidence(name, levels):
    assert sum(lvl.m for lvl in levels) == pytest.approx(1, abs=1e-9)
    assert sum(lvl.u for lvl in levels) == pytest.approx(1, abs=1e-9)
    # The first (most specific) level must favour a match, the last must count against.
    assert levels[0].m > levels[0].u
    assert levels[-1].m < levels[-1].u


def test_rules_that_pair_on_names_demand_more_than_a_name():
    from onrecord.warnings.linkage_model import _describe

    names = {"first_name", "last_name"}
    for rule in linkage_model.prediction_blocking_rules():
        sql = _describe(rule)
        plain = sql.replace('"', "")
        # A field joined as it is ("l.dob = r.dob") or through part of it ("SUBSTRING(l.dob, 1, 4)").
        fields = {f for f in ("first_name", "last_name", "dob", "street", "postcode", "id_number",
                              "phone") if f"l.{f} = r." in plain or f"(l.{f}," in plain}
        if fields <= names:  # pairs on names (and street number) only
            assert linkage_model.BOTH_HAVE_MORE_THAN_A_NAME in sql, sql


def test_comparisons_build_for_both_backends_with_missing_level_first():
    from splink import SettingsCreator

    for dialect in ("duckdb", "spark"):
        settings = SettingsCreator(link_type="dedupe_only", comparisons=linkage_model.comparisons(),
                                   unique_id_column_name="record_id").get_settings(dialect)
        for comparison in settings.comparisons:
            assert comparison.comparison_levels[0].is_null_level
            assert comparison.comparison_levels[0].label_for_charts == "missing"
