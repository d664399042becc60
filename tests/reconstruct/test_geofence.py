"""A car's arrival from its AVL fixes and a declared geofence."""

from __future__ import annotations

import pandas as pd

from onrecord.reconstruct.geofence import crossings, declared_fences

T0 = 1_700_000_000_000
FENCE = {5: (44.60924, -119.63573, 250.0)}


def _fixes(tracks):
    """tracks: unit -> [(seconds, metres north of the fence's point)]; one fix per 10 s."""
    ev, pos, units, n = [], [], {}, 0
    for unit, points in tracks.items():
        for t, north in points:
            n += 1
            ev.append((n, 5, T0 + t * 1000))
            pos.append((n, 5, 44.60924 + north / 111_195.0, -119.63573))
            units[n] = unit
    events = pd.DataFrame(ev, columns=["id", "source_id", "t_src_lo"])
    return events, pd.DataFrame(pos, columns=["id", "source_id", "lat", "lon"]), units


def test_the_fix_that_put_the_car_inside_is_its_arrival_after_the_fix_before():
    drive = [(0, 2000), (10, 1000), (20, 400), (30, 200), (40, 100)] + [(t, 80) for t in range(50, 300, 10)]
    events, pos, units = _fixes({7: drive})
    assert crossings(events, pos, units, FENCE) == {4: 3}  # in by the 4th fix (200 m), after the 3rd (400 m)


def test_a_car_driving_through_the_fence_has_not_arrived():
    through = [(0, 1000), (10, 300), (20, 100), (30, -100), (40, -300)] + [(t, -1500) for t in range(50, 300, 10)]
    events, pos, units = _fixes({7: through})
    assert crossings(events, pos, units, FENCE) == {}


def test_a_geofence_is_read_from_the_mapping_and_checked_at_import():
    import pytest

    from onrecord.errors import InputError
    from onrecord.sources.mapping import parse_mapping

    text = "\n".join(['[mapping]', 'name = "avl"', 'source_kind = "avl"', 'timezone = "UTC"',
                      '[fields]', 'unit = "U"', 'lat = "A"', 'lon = "O"',
                      '[geofence]', 'lat = 44.6', 'lon = -119.6', 'radius_m = 250',
                      '[[events]]', 'kind = "unit_position"', 'time = "T"', 'format = "iso"', ''])
    assert parse_mapping(text, "avl.toml").geofence == (44.6, -119.6, 250.0)
    sources = pd.DataFrame({"id": [3], "mapping_text": [text]})
    assert declared_fences(sources) == {3: (44.6, -119.6, 250.0)}
    with pytest.raises(InputError, match="geofence.radius_m"):
        parse_mapping(text.replace("radius_m = 250", "radius_m = -1"), "avl.toml")
    with pytest.raises(InputError, match="geofence"):
        parse_mapping(text.replace("radius_m = 250", "radius = 250"), "avl.toml")
