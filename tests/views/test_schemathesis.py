"""Generated requests against the app's own OpenAPI schema: no route answers with a server
error, on a case built or not. Bounded (few examples per route) to keep the suite quick."""

from __future__ import annotations

import pytest

MAX_EXAMPLES = 12


def _no_server_errors(app, headers: dict | None = None, conform: bool = False,
                      schema_path: str = "/openapi.json",
                      schema_headers: dict | None = None) -> dict[str, dict[int, int]]:
    """Status codes seen per route. `conform`: every answer's status and body also match
    the schema (schemathesis's checks). `schema_headers`: sent to fetch the schema (a case's
    schema on a server of many cases is for those who may read the case)."""
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]

    schema = schemathesis.openapi.from_asgi(schema_path, app, headers=schema_headers or {})
    seen: dict[str, dict[int, int]] = {}
    for result in schema.get_all_operations():
        op = result.ok()
        codes = seen.setdefault(op.label, {})

        @given(op.as_strategy())
        @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def call(case):
            r = case.call(headers=headers)
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
            assert r.status_code < 500, f"{case.method} {case.formatted_path} {case.query}: {r.text[:300]}"
            if conform:  # the status is one the schema lists, the body matches that status's schema
                case.validate_response(r, headers=headers, checks=CONFORMANCE)

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


@pytest.fixture(scope="module")
def signed_in_app(built_case, tmp_path_factory):
    """The built case, copied, with an analyst account; (app, its API token)."""
    import shutil

    from schemathesis.python.asgi import HOST

    from onrecord.access.store import AccessStore
    from onrecord.store.case import open_case
    from onrecord.views.web.app import create_app

    path = tmp_path_factory.mktemp("signed") / "case"
    shutil.copytree(built_case[0], path)
    case = open_case(path)
    access = AccessStore(case.engine)
    access.accounts.add("ana", "analyst", "correct horse battery", case.id)
    _, token = access.tokens.create(access.accounts.find("ana").id)
    case.engine.dispose()
    return create_app(path, allowed_hosts=(HOST,)), token


def test_signed_out_every_route_is_401_as_the_schema_says(signed_in_app):
    app, _ = signed_in_app
    seen = _no_server_errors(app, conform=True)
    assert len(seen) >= 10 and all(set(codes) <= {401, 422} for codes in seen.values()), seen
    assert all(401 in codes for codes in seen.values())


def test_signed_in_no_server_errors_and_answers_match_the_schema(signed_in_app):
    app, token = signed_in_app
    seen = _no_server_errors(app, headers={"Authorization": f"Bearer {token}"}, conform=True)
    assert len(seen) >= 10 and all(401 not in codes for codes in seen.values()), seen
