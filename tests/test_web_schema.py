"""schemathesis against the app's own OpenAPI schema, in process (no server): no 5xx, and
every response matches the schema, for schema-valid and schema-violating requests alike.

Bounded and reproducible: a fixed seed and a few examples per operation. The
``positive_data_acceptance`` check is off: the schema cannot say everything the API checks
(a coin string's grammar, moves that fit the row, a known strategy name), so some
schema-valid requests are rightly refused with 422.
"""

from __future__ import annotations

import warnings
from typing import Any

import hypothesis
import schemathesis
from schemathesis.checks import positive_data_acceptance

with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
    warnings.simplefilter("ignore")
    from coinrow.web import Limits, create_app

# Small limits keep generated rows short; the limits themselves are part of the schema.
app = create_app(Limits(solve_coins=60, play_coins=30, analyze_coins=30, random_coins=50))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@hypothesis.settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_api_conforms_to_its_schema(case: Any) -> None:
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
