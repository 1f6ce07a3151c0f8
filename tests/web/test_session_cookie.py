"""The session cookie's reading: a cookie read once is not checked again, yet a changed cookie,
one signed with another key and one past its age are refused exactly as before."""

from __future__ import annotations

import time

import pytest

from rennleitung.web.security import SESSION_AGE, Session, SessionCodec


def test_a_cookie_read_once_reads_the_same_until_it_is_too_old(
        monkeypatch: pytest.MonkeyPatch) -> None:
    codec = SessionCodec("a secret key for this test")
    session = Session(7, 2, "csrf-token", "session-id")
    cookie = codec.dumps(session)
    assert codec.loads(cookie) == session
    assert codec.loads(cookie) == session  # kept: not checked again
    forged = cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")
    assert codec.loads(forged) is None
    assert SessionCodec("another key").loads(cookie) is None
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + SESSION_AGE + 5)
    assert codec.loads(cookie) is None  # past its age, kept or not
    assert SessionCodec("a secret key for this test").loads(cookie) is None
