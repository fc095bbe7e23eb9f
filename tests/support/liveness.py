"""Liveness checks: code that must finish, run in a child process with a time limit.

In a child process because a regular expression or a long pure-Python loop holds the
interpreter: a thread running it could not be stopped at the limit. A liveness check
is not a speed target; the limit is generous.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.paths import REPO


def finishes(code: str, limit_s: float, what: str) -> None:
    """Run ``code`` with this interpreter from the repository root; fail the test if it
    has not finished within ``limit_s`` seconds, or if it fails."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            check=False,
            cwd=REPO,
            timeout=limit_s,
            capture_output=True,
            text=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} did not finish within {limit_s:g} s")
    assert done.returncode == 0, done.stderr[-2000:]
