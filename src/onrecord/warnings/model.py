"""The linkage model as data: comparisons, blocking rules, training steps.

One configuration serves every data set, from a handful of records in a case to a
statewide index and the FEBRL benchmark: nothing here is tuned to any data set.
docs/warnings.md explains each choice for users.
"""

from __future__ import annotations

import logging
from typing import Any

import splink.comparison_library as cl
from splink import block_on

log = logging.getLogger(__name__)

# m-probabilities used before (or instead of) EM training, level by level after the
# null level: how often a true match lands in each level. They are deliberately
# generic (exact agreement is common for true matches, disagreement rare); EM
# replaces them whenever the data are large enough to estimate them.
_NAME_M = [0.84, 0.06, 0.03, 0.04, 0.03]  # exact, JW>=.92, JW>=.88, JW>=.70, else
_DOB_M = [0.88, 0.05, 0.01, 0.02, 0.02, 0.02]  # exact, edit 1, 1 month, 1 yr, 10 yr, else
_EXACT_M = [0.9, 0.1]
_TWO_EDIT_M = [0.9, 0.05, 0.02, 0.03]  # exact, 1 edit, 2 edits, else
_ONE_EDIT_M = [0.9, 0.05, 0.05]
_STREET_M = [0.8, 0.1, 0.05, 0.05]  # exact, JW>=.9, JW>=.7, else
_CITY_M = [0.85, 0.1, 0.05]


def comparisons() -> list[Any]:
    """Name, date of birth, address, phone and ID, each with graded agreement.

    Term-frequency adjustments on names and places: agreeing on a rare surname is
    stronger evidence than agreeing on a common one.
    """
    tf = {"term_frequency_adjustments": True}
    return [
        cl.NameComparison("first_name").configure(m_probabilities=_NAME_M, **tf),
        cl.NameComparison("middle_name").configure(m_probabilities=_NAME_M, **tf),
        cl.NameComparison("last_name").configure(m_probabilities=_NAME_M, **tf),
        cl.DateOfBirthComparison(
            "dob", input_is_string=True, datetime_format="%Y-%m-%d"
        ).configure(m_probabilities=_DOB_M),
        cl.ExactMatch("street_number").configure(m_probabilities=_EXACT_M),
        cl.JaroWinklerAtThresholds("street", [0.9, 0.7]).configure(
            m_probabilities=_STREET_M, **tf
        ),
        cl.JaroWinklerAtThresholds("city", [0.9]).configure(m_probabilities=_CITY_M, **tf),
        cl.LevenshteinAtThresholds("postcode", [1]).configure(
            m_probabilities=_ONE_EDIT_M, **tf
        ),
        cl.ExactMatch("state").configure(m_probabilities=_EXACT_M),
        cl.LevenshteinAtThresholds("phone", [1]).configure(m_probabilities=_ONE_EDIT_M),
        cl.LevenshteinAtThresholds("id_number", [1, 2]).configure(
            m_probabilities=_TWO_EDIT_M
        ),
    ]


def prediction_blocking_rules() -> list[Any]:
    """Which pairs are scored at all. A pair is scored if any rule admits it.

    Each rule pairs records on a combination that stays selective at statewide
    scale (no rule on a single common value such as state or a bare date), and the
    rules overlap so that one corrupted field never hides a true pair.
    """
    return [
        block_on("first_name", "last_name"),
        block_on("dob", "substr(first_name, 1, 1)"),
        block_on("dob", "substr(last_name, 1, 1)"),
        block_on("dob", "postcode"),
        block_on("id_number"),
        block_on("phone"),
        block_on("postcode", "street_number"),
        block_on("last_name", "street_number"),
        # Agencies swap given and family names; pair those too.
        "l.first_name = r.last_name and l.last_name = r.first_name",
    ]


def training_blocking_rules() -> list[Any]:
    """EM sessions; each estimates m for the comparisons its rule does not fix."""
    return [
        block_on("first_name", "last_name"),
        block_on("dob"),
        block_on("postcode", "street_number"),
    ]


# Pairs so strict that they are almost never wrong; used only to estimate the prior
# probability that two random records match, with the assumed share they catch.
DETERMINISTIC_RULES = [
    block_on("first_name", "last_name", "dob"),
    block_on("id_number", "dob"),
]
DETERMINISTIC_RECALL = 0.7
U_MAX_PAIRS = 2e6
# EM needs hundreds of candidate pairs per session to separate matches from the rest;
# below this many records the m-priors above are used as they are.
MIN_RECORDS_FOR_EM = 500


def train(linker: Any, n_records: int, seed: int) -> list[str]:
    """Unsupervised training; returns notes on what could not be estimated."""
    notes: list[str] = []
    try:
        linker.training.estimate_probability_two_random_records_match(
            DETERMINISTIC_RULES, recall=DETERMINISTIC_RECALL
        )
    except Exception as exc:  # too few pairs: keep Splink's default prior
        notes.append(f"prior match probability not estimated ({exc}); default kept")
    linker.training.estimate_u_using_random_sampling(
        max_pairs=U_MAX_PAIRS, seed=seed
    )
    if n_records < MIN_RECORDS_FOR_EM:
        notes.append(f"{n_records} records < {MIN_RECORDS_FOR_EM}: m-priors used, no EM")
        return notes
    for rule in training_blocking_rules():
        try:
            linker.training.estimate_parameters_using_expectation_maximisation(
                rule, record_sample_proportion=1.0
            )
        except Exception as exc:  # an EM session with no pairs teaches nothing
            notes.append(f"EM on {rule} skipped: {exc}")
    return notes
