"""The linkage model as data: comparisons with their levels, blocking rules, training.

One configuration serves every data set, from the handful of records in one case to a
statewide index and the FEBRL benchmark; nothing here is tuned to a data set.
docs/warnings.md explains each choice for users.

Each comparison is a list of levels, most specific first. Beside each level stand two
prior probabilities: m (how often the same person's two records land in this level) and
u (how often two different people's records do). They are generic, written down by
hand, and used as they stand only when a data set is too small to learn from
(`MIN_RECORDS_TO_TRAIN`); otherwise training replaces them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import splink.comparison_level_library as cll
from splink import block_on
from splink.comparison_library import CustomComparison

# Derived by `linkage` from first_name: the name and the formal names it may be short for.
NAME_FORMS = "first_name_forms"


@dataclass(frozen=True)
class Level:
    label: str
    condition: Any  # a Splink comparison-level creator
    m: float
    u: float
    term_frequencies: bool = False  # adjust this level's weight by value frequency


def _initial(col: str) -> Any:
    """'J' on one record and 'Jane' on the other: an initial that agrees."""
    return cll.CustomLevel(
        f"(length({col}_l) = 1 or length({col}_r) = 1) "
        f"and substr({col}_l, 1, 1) = substr({col}_r, 1, 1)"
    )


def _swapped(col: str, other: str) -> Any:
    """Given and family name written the wrong way round on one record."""
    return cll.CustomLevel(f"{col}_l = {other}_r or {col}_r = {other}_l")


def _nickname() -> Any:
    """'Tim' on one record and 'Timothy' on the other (see nicknames.py)."""
    return cll.ArrayIntersectLevel(NAME_FORMS, min_intersection=1)


def _run_together() -> Any:
    """One record holds the whole name as one word, as in an account name
    ('timothynovak'), where the other has it split; judged on the given-name field,
    which is where a one-word name lands. Both parts must be there: DuckDB's concat
    skips nulls where Spark's returns null, and the backends must agree."""
    return cll.CustomLevel(
        "(last_name_l is null and last_name_r is not null "
        "and first_name_l = concat(first_name_r, last_name_r)) "
        "or (last_name_r is null and last_name_l is not null "
        "and first_name_r = concat(first_name_l, last_name_l))"
    )


def name_levels(col: str, other: str) -> list[Level]:
    jw = cll.JaroWinklerLevel
    given = col == "first_name"
    levels = [
        # A given name is exact less often: some of its agreements are nicknames.
        Level("exact", cll.ExactMatchLevel(col), 0.77 if given else 0.81, 0.01,
              term_frequencies=True),
        Level("swapped with the other name", _swapped(col, other), 0.01, 0.001),
        Level("Jaro-Winkler >= 0.92", jw(col, 0.92), 0.06, 0.004),
    ]
    if given:
        # A nickname is as good as the name; the run-together name is rare among
        # strangers. Both come before the looser levels they would otherwise fall into.
        levels += [Level("nickname of the other", _nickname(), 0.05, 0.002),
                   Level("whole name run together", _run_together(), 0.005, 0.00001)]
    levels += [
        # A letter dropped, doubled or two swapped in a short name ("frraday" for
        # "farraday") can fall below the Jaro-Winkler levels; one edit is still a slip.
        Level("one typing slip", cll.DamerauLevenshteinLevel(col, 1), 0.03, 0.003),
        Level("initial agrees", _initial(col), 0.02, 0.05),
        Level("Jaro-Winkler >= 0.88", jw(col, 0.88), 0.04, 0.02),
    ]
    m_rest = 1 - sum(lvl.m for lvl in levels)
    u_rest = 1 - sum(lvl.u for lvl in levels)
    return levels + [Level("different", cll.ElseLevel(), m_rest, u_rest)]


def middle_name_levels() -> list[Level]:
    col = "middle_name"
    return [
        Level("exact", cll.ExactMatchLevel(col), 0.7, 0.02, term_frequencies=True),
        Level("Jaro-Winkler >= 0.92", cll.JaroWinklerLevel(col, 0.92), 0.05, 0.005),
        Level("initial agrees", _initial(col), 0.2, 0.1),
        Level("different", cll.ElseLevel(), 0.05, 0.875),
    ]


def _day_month_swapped() -> Any:
    """03/04 read day-first by one agency and month-first by another."""
    return cll.CustomLevel(
        "substr(dob_l, 1, 4) = substr(dob_r, 1, 4) "
        "and substr(dob_l, 6, 2) = substr(dob_r, 9, 2) "
        "and substr(dob_l, 9, 2) = substr(dob_r, 6, 2)"
    )


def dob_levels() -> list[Level]:
    # No explicit format: each backend's default is ISO (DuckDB "%Y-%m-%d", Spark
    # "yyyy-MM-dd"), and `prepare_persons` has already written every date as ISO.
    within_year = cll.AbsoluteDateDifferenceLevel(
        "dob", threshold=1, metric="year", input_is_string=True
    )
    return [
        Level("exact", cll.ExactMatchLevel("dob"), 0.9, 0.0001),
        Level("one typing slip", cll.LevenshteinLevel("dob", 1), 0.04, 0.002),
        Level("day and month swapped", _day_month_swapped(), 0.01, 0.0002),
        Level("within a year", within_year, 0.03, 0.02),
        Level("different", cll.ElseLevel(), 0.02, 0.9777),
    ]


def address_levels() -> list[Level]:
    """Street number, street and postcode judged together.

    They describe one place; scoring them as three independent comparisons would
    count one shared address three times (and a household's members as one person).
    """
    number, street, postcode = (cll.ExactMatchLevel(c) for c in
                                ("street_number", "street", "postcode"))
    street_like = cll.JaroWinklerLevel("street", 0.9)
    return [
        Level("same house", cll.And(number, street_like), 0.6, 0.002),
        Level("same number and postcode", cll.And(number, postcode), 0.05, 0.0005),
        Level("same street and postcode", cll.And(street_like, postcode), 0.05, 0.005),
        Level("same postcode", postcode, 0.1, 0.05),
        Level("different", cll.ElseLevel(), 0.2, 0.9425),
    ]


def city_levels() -> list[Level]:
    return [
        Level("exact", cll.ExactMatchLevel("city"), 0.8, 0.1, term_frequencies=True),
        Level("Jaro-Winkler >= 0.90", cll.JaroWinklerLevel("city", 0.9), 0.05, 0.01),
        Level("different", cll.ElseLevel(), 0.15, 0.89),
    ]


def identifier_levels(col: str, m_exact: float, edits: list[int]) -> list[Level]:
    """Phone or ID number: exact, then up to n typing slips, else different.

    Different people share a number about once in a million pairs; each allowed slip
    makes a chance agreement ten times likelier.
    """
    levels = [Level("exact", cll.ExactMatchLevel(col), m_exact, 1e-6)]
    for n in edits:
        u = 10.0 ** (n - 6)
        levels.append(Level(f"{n} edit(s)", cll.LevenshteinLevel(col, n), 0.03, u))
    m_rest = 1 - sum(lvl.m for lvl in levels)
    u_rest = 1 - sum(lvl.u for lvl in levels)
    return levels + [Level("different", cll.ElseLevel(), m_rest, u_rest)]


def _null_condition(name: str) -> Any:
    if name == "address":
        return cll.CustomLevel(
            "(street_l is null or street_r is null) "
            "and (postcode_l is null or postcode_r is null)"
        )
    return cll.NullLevel(name)


def comparison_table() -> dict[str, list[Level]]:
    """Every comparison by name; the name is what users see in "why" tables."""
    return {
        "first_name": name_levels("first_name", "last_name"),
        "middle_name": middle_name_levels(),
        "last_name": name_levels("last_name", "first_name"),
        "dob": dob_levels(),
        "address": address_levels(),
        "city": city_levels(),
        "phone": identifier_levels("phone", 0.6, [1]),
        "id_number": identifier_levels("id_number", 0.85, [1, 2]),
    }


def comparisons(term_frequencies: bool = True) -> list[Any]:
    """The comparison table as Splink comparisons (null level first in each)."""
    built = []
    for name, levels in comparison_table().items():
        made = [_null_condition(name).configure(is_null_level=True, label_for_charts="missing")]
        for lvl in levels:
            tf = {"tf_adjustment_column": name} if term_frequencies and lvl.term_frequencies else {}
            made.append(lvl.condition.configure(
                label_for_charts=lvl.label, m_probability=lvl.m, u_probability=lvl.u, **tf
            ))
        built.append(CustomComparison(made, output_column_name=name))
    return built


# Something besides the name that both records carry. Rules that pair records on
# names require it, so a pair is never scored (and never linked) on names alone with
# every other field empty; the other rules already demand a shared non-name value.
BOTH_HAVE_MORE_THAN_A_NAME = " or ".join(
    f"(l.{c} is not null and r.{c} is not null)"
    for c in ("dob", "street", "postcode", "phone", "id_number")
)


def _names_and_more(condition: str) -> str:
    return f"({condition}) and ({BOTH_HAVE_MORE_THAN_A_NAME})"


def prediction_blocking_rules() -> list[Any]:
    """Which pairs are scored at all. A pair is scored if any rule admits it.

    Each rule pairs records on a combination that stays selective at statewide
    scale (no rule on one common value such as a bare date or a city), and the rules
    overlap so that one corrupted field never hides a true pair.
    """
    return [
        # The same name alone is no rule: a common name is a block of thousands
        # statewide (an invented county of a million records has 4,000 names, 250
        # records each). The name with half the birth date, or with the postcode, is
        # selective and still survives one slip in the other half of the date.
        block_on("first_name", "last_name", "substr(dob, 1, 4)"),
        block_on("first_name", "last_name", "substr(dob, 6, 5)"),
        block_on("first_name", "last_name", "postcode"),
        block_on("dob", "substr(first_name, 1, 1)"),
        block_on("dob", "substr(last_name, 1, 1)"),
        block_on("dob", "postcode"),
        block_on("id_number"),
        block_on("phone"),
        block_on("postcode", "street_number"),
        # The same house when no postcode was written (many agencies leave it out).
        block_on("street", "street_number"),
        _names_and_more("l.last_name = r.last_name and l.street_number = r.street_number"),
        # Agencies swap given and family names; pair those too.
        _names_and_more("l.first_name = r.last_name and l.last_name = r.first_name"),
    ]


def training_blocking_rules() -> list[Any]:
    """EM sessions; each estimates m for the comparisons its rule leaves free.

    Sessions block on what identifies a person (name, date of birth), never on what
    a household shares (address, phone, surname alone): in an address block, family
    members are a second large group that EM takes for "the same person", teaching
    the model that a different first name and birth date hardly matter.
    """
    return [
        block_on("first_name", "last_name"),
        block_on("dob"),
    ]


# Pairs so strict they are almost never wrong; they estimate the prior probability
# that two random records match, assuming they catch this share of true pairs.
DETERMINISTIC_RULES = [
    block_on("first_name", "last_name", "dob"),
    block_on("id_number", "dob"),
]
DETERMINISTIC_RECALL = 0.7
U_MAX_PAIRS = 2e6
# EM needs hundreds of candidate pairs per session to tell matches from the rest,
# and term frequencies from a few records are not population frequencies. Below
# this size the priors above are used as they stand, without frequency adjustment.
MIN_RECORDS_TO_TRAIN = 500
# The prior chance that two records are one person when it cannot be estimated:
# about one in ten thousand, as when matching one record against a town-sized index.
# A small case is not a population in which a tenth of all pairs are matches.
UNTRAINED_PRIOR = 1e-4


# A session on the same name over a million records would be a hundred million pairs;
# half a million pairs hold thousands of matches, plenty for EM's few parameters.
# Past this many, Splink trains EM on the pairs of a hash sample of the records (the
# same on every run); sampling records keeps the share of matches among pairs, which
# is what EM learns from. Smaller sessions (every case, FEBRL) use all their pairs.
EM_MAX_PAIRS = 5e5
# Share of records Splink blocks first to estimate a session's size.
EM_PROBE_SHARE = 0.1


def train(linker: Any, seed: int) -> list[str]:
    """Unsupervised training; returns notes on anything that could not be estimated."""
    notes: list[str] = []
    try:
        linker.training.estimate_probability_two_random_records_match(
            DETERMINISTIC_RULES, recall=DETERMINISTIC_RECALL
        )
    except Exception as exc:  # no deterministic pairs at all
        notes.append(f"prior match probability not estimated ({exc}); default kept")
    linker.training.estimate_u_using_random_sampling(max_pairs=U_MAX_PAIRS, seed=seed)
    for rule in training_blocking_rules():
        try:
            linker.training.estimate_parameters_using_expectation_maximisation(
                rule, max_pairs=EM_MAX_PAIRS, record_sample_proportion=EM_PROBE_SHARE
            )
        except Exception as exc:  # a session with no candidate pairs teaches nothing
            notes.append(f"EM session {_describe(rule)} skipped: {exc}")
    return notes


def _describe(rule: Any) -> str:
    try:
        return rule.get_blocking_rule("duckdb").blocking_rule_sql
    except Exception:  # a plain SQL string, or an API change: show what we have
        return str(rule)
