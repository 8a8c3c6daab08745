"""Rule parameters are ASCII digits of bounded length everywhere a rules text is read
(library, CLI, web, record headers): never a bare ValueError or a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

import coinrow
from coinrow.errors import RulesError
from coinrow.rules import Rules

CRAFTED = ["take:²", "players:²", "take:①", "take:" + "9" * 5000, "players:3:" + "x" * 9000]


@pytest.mark.parametrize("text", CRAFTED)
def test_library_refuses_crafted_parameters(text: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse(text)
    with pytest.raises(RulesError):
        coinrow.solve([1, 2, 3], rules=text)


def test_cli_refuses_crafted_parameters_in_one_line() -> None:
    for text in CRAFTED[:3]:
        done = subprocess.run(
            [sys.executable, "-m", "coinrow", "solve", "--rules", text, "1", "2", "3"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr


def test_record_header_with_crafted_rules_is_a_record_error() -> None:
    read = coinrow.parse_records("# rules: take:²\n1 2 3\nL1\n")
    assert not read.records
    assert [type(error) for error in read.errors] == [coinrow.RecordError]


def test_web_refuses_crafted_parameters_with_4xx() -> None:
    import warnings

    with warnings.catch_warnings():  # starlette's TestClient warns about httpx on import
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from coinrow.web.app import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1")
    for text in CRAFTED[:3]:
        for path, body in (
            ("/api/solve", {"coins": [1, 2, 3], "rules": text}),
            ("/api/table", {"coins": [1, 2, 3], "rules": text}),
            ("/api/play", {"coins": [1, 2, 3], "rules": text, "moves": []}),
        ):
            response = client.post(path, json=body)
            assert 400 <= response.status_code < 500, (path, text, response.text)
