"""Generated requests against the app's own OpenAPI schema: no route answers with a server
error, on a case built or not. Bounded (few examples per route) to keep the suite quick."""

from __future__ import annotations

import pytest

MAX_EXAMPLES = 12


def _no_server_errors(app) -> dict[str, dict[int, int]]:
    import schemathesis
    from hypothesis import HealthCheck, given, settings

    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    seen: dict[str, dict[int, int]] = {}
    for result in schema.get_all_operations():
        op = result.ok()
        codes = seen.setdefault(op.label, {})

        @given(op.as_strategy())
        @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def call(case):
            r = case.call()
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
            assert r.status_code < 500, f"{case.method} {case.formatted_path} {case.query}: {r.text[:300]}"

        call()
    return seen


@pytest.mark.parametrize("which", ["generated_case", "built_case"])
def test_no_route_answers_with_a_server_error(request, which):
    from schemathesis.python.asgi import HOST  # the name schemathesis's client sends as Host

    from onrecord.views.web.app import create_app

    case = request.getfixturevalue(which)
    seen = _no_server_errors(create_app(case if which == "generated_case" else case[0], allowed_hosts=(HOST,)))
    assert len(seen) >= 10, seen  # every /api/ route was exercised
    assert any(422 in codes for codes in seen.values()) and any(200 in codes for codes in seen.values())
