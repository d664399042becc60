"""Prior contacts: the household is told apart by name, and the statewide-sized index
for scale runs holds exactly the records asked for, the attacker's among them."""

from __future__ import annotations

from collections import Counter

import pytest

from onrecord.scenario.generate import tell_story
from onrecord.scenario.priors import AGENCY_KINDS, _same_given_name, plan_many_priors, plan_priors
from onrecord.scenario.rng import stream


@pytest.mark.parametrize("seed", range(1, 31))
def test_brother_never_shares_the_attackers_given_name(seed):
    priors = plan_priors(tell_story(seed), stream(seed, "priors"))
    attacker, brother = priors.people["P900"], priors.people["P901"]
    assert not _same_given_name(brother.first, attacker.first)
    assert brother.last == attacker.last and brother.address == attacker.address


def test_many_priors_hold_exactly_the_records_asked_for_with_known_owners():
    world = plan_many_priors(tell_story(4), stream(4, "priors-scale"), 5000)
    assert len(world.contacts) == 5000
    assert all(c.person in world.people for c in world.contacts)
    owners = Counter(c.person for c in world.contacts)
    assert owners["P900"] >= 8 and {"P901", "P902", "P903"} <= set(owners)
    assert {c.agency for c in world.contacts} == set(AGENCY_KINDS)
    assert len(owners) > 2000  # background people with one to three contacts each
    assert [c.t for c in world.contacts] == sorted(c.t for c in world.contacts)
