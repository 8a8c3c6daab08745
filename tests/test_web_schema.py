"""schemathesis against the app's own OpenAPI schema, in process (no server), with every
check on: no 5xx, every response matches the schema, schema-violating requests are refused
and schema-valid requests are accepted (``positive_data_acceptance``, ST202).

The schema says what the API reads, coin strings, strategy names and value specs included
(patterns of the library's grammar). Some rules tie one field to another and no JSON
Schema can state them: moves (or a highlighted line) longer than the row, and a value range
whose low end is above its high end; the moves of a line under other rules (which moves
exist depends on ``rules``: ``L2`` under ``take:2``, ``B`` under ``both-ends``, a slice
first for the pizza); and the text of a game record (headers, a coins line,
a moves line) has a grammar no pattern of reasonable size states; the move shown (``ply``) of a
line, the person's seat among the rules' seats, and an opponent that plays the rules. A
schema-valid request refused for one of those, and only those, is accepted by this test.

Bounded and reproducible: a fixed seed and a few examples per operation.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import hypothesis
import pytest
import schemathesis
from schemathesis.checks import positive_data_acceptance

with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
    warnings.simplefilter("ignore")
    from coinrow.web import Limits, create_app


@pytest.fixture(scope="module")
def app_schema() -> Any:
    """The app's schema, loaded when the test runs: schemathesis builds its cases from it,
    which at collection would cost every pytest process (each test worker, and the run of
    the ``alone`` tests) about 18 s of CPU, where the test itself runs in one of them.

    Small limits keep generated rows short; the limits themselves are part of the schema.
    schemathesis calls the app in process as the host "testserver"."""
    app = create_app(
        Limits(solve_coins=60, play_coins=30, analyze_coins=30, random_coins=50),
        hosts=["testserver"],
    )
    return schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(autouse=True)
def node_id_for_subtests(request: pytest.FixtureRequest) -> None:
    """schemathesis 4.32 names each operation's subtest by rewriting the test's
    ``_nodeid``, an attribute pytest 9.2 no longer has: give it one to rewrite (read
    only for the subtests' names)."""
    request.node._nodeid = request.node.nodeid


schema = schemathesis.pytest.from_fixture("app_schema")

#: The refusals of rules that relate two fields (see the module's docstring).
CROSS_FIELD = re.compile(
    # /api/table: a highlight line is a line of the rules given beside it
    r"(?:highlight: )?(?:"
    r"the game is over: no coin is left to take"
    r"|the line has \d+ moves for a row of \d+ coins"
    r"|\d+ moves for a row of \d+ coins"
    r"|empty value range '.*': -?\d+ > -?\d+"
    r"|cannot read a record: .*"
    # /api/play: which moves a line may hold depends on the rules (and the coins left)
    r"|'.*' is not a (?:move|line of moves|first slice)\b.*"
    r"|'.*' takes \d+ coins; \d+ left"
    # /api/online/games: one seat per player of the rules, one of them a person's
    r"|the rules \S+ seat \d+ players, not \d+"
    r"|at least one seat must be a person's"
    r"|seat \d+ is not a free seat of this game"
    r"|move \d+ is '.*'; moves are L \(take the left coin\) or R"
    # /api/play: the move shown is one of the line's; the seat one of the rules' seats; the
    # opponent a strategy that plays the rules
    r"|ply \d+ is beyond the \d+ moves given"
    r"|seat \d+: the rules .* seat \d+"
    r"|strategy '.*' plays the plain game only, .*"
    r")"
)


@schema.parametrize()
@hypothesis.settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_api_conforms_to_its_schema(case: Any) -> None:
    response = case.call()
    detail = response.json().get("detail", "") if response.status_code == 422 else ""
    if isinstance(detail, str) and CROSS_FIELD.fullmatch(detail):
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
    else:
        case.validate_response(response)
