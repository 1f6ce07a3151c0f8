"""What the server limits, against real servers on loopback: bodies (multipart refused before it
is read, a size per route, a time), request heads (size, time), connections, the security
headers, and ``X-Forwarded-For`` only from trusted proxies. The hostile cases run against a
server process of its own, whose open files and memory are measured before and after."""

from __future__ import annotations

import contextlib
import os
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rennleitung.web import accounts as accounts_module
from rennleitung.web import limits, wire
from rennleitung.web.loadgen import ServerProcess
from tests.web.conftest import LiveServer, client, free_port, make_settings, signed_up


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def raw(port: int) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port), timeout=30)
    return conn


def answer_of(conn: socket.socket) -> bytes:
    """What the server said before it hung up (or the first 64 KB of it)."""
    got = b""
    try:
        while len(got) < 65536:
            chunk = conn.recv(65536)
            if not chunk:
                break
            got += chunk
            if b"\r\n\r\n" in got and b"content-length: 0" in got.lower():
                break
    except (ConnectionResetError, TimeoutError):
        pass
    return got


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


@pytest.fixture
def process(sqlite_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(sqlite_url, free_port(), uuid.uuid4().hex,
                           {"RENNLEITUNG_MAX_CONNECTIONS": "40"}).start()
    try:
        yield server
    finally:
        server.stop()


def settle(pid: int, expected: int, seconds: float = 10.0) -> int:
    """Open files once the server has finished with the connections (they close after the
    answer, a moment later than the client sees it)."""
    deadline = time.monotonic() + seconds
    count = open_files(pid)
    while count > expected and time.monotonic() < deadline:
        time.sleep(0.1)
        count = open_files(pid)
    return count


def test_hostile_clients_leave_nothing_behind(process: ServerProcess) -> None:
    assert process.process is not None
    pid, port = process.process.pid, process.port
    client_ = client_of(process)
    assert client_.get("/healthz").text == "ok"
    files_before, memory_before = open_files(pid), resident_mb(pid)

    # 30 anonymous uploads of 40 MB each: refused before the body is read, nothing spooled
    chunk = b"x" * (1024 * 1024)
    for _ in range(30):
        conn = raw(port)
        conn.sendall(b"POST /signin HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; "
                     b"boundary=b\r\nContent-Length: 41943040\r\n\r\n--b\r\n")
        sent = 0
        try:
            while sent < 40:
                conn.sendall(chunk)
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = answer_of(conn)
        conn.close()
        assert status_of(answer) in (415, 0), answer[:200]  # 0: hung up before we read
        assert sent < 40, "the server read the whole upload"

    # 12 connections each sending an endless header, 16 MB if it were let in
    slow = []
    for _ in range(12):
        conn = raw(port)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        try:
            while sent < 16:
                conn.sendall(chunk)
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert sent < 16, "a 16 MB header was read"
        slow.append(conn)
    for conn in slow:
        answer = answer_of(conn)
        assert status_of(answer) in (431, 0), answer[:200]
        conn.close()

    # 12 connections that send their head one byte a second: cut off after HEAD_SECONDS
    dribblers = [raw(port) for _ in range(12)]
    silent = [raw(port) for _ in range(3)]  # connected, never a byte: closed as well
    started = time.monotonic()
    for conn in dribblers:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    answers: list[bytes] = []
    while time.monotonic() - started < wire.HEAD_SECONDS + 5 and len(answers) < 12:
        time.sleep(1)
        for conn in dribblers:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                conn.sendall(b"a")
        answers = []
        for conn in dribblers:
            conn.settimeout(0.01)
            try:
                got = conn.recv(1024)
                answers.append(got or b"closed")
            except TimeoutError:
                pass
            except ConnectionResetError:
                answers.append(b"closed")
    assert len(answers) == 12, "every slow head was cut off"
    assert all(a == b"closed" or status_of(a) == 408 for a in answers), answers
    for conn in dribblers:
        conn.close()
    for conn in silent:
        conn.settimeout(5)
        assert conn.recv(1024) == b"", "a silent connection is closed without a word"
        conn.close()

    assert client_.get("/healthz").text == "ok"  # still serving
    files_after = settle(pid, files_before)
    memory_after = resident_mb(pid)
    print(f"open files {files_before} -> {files_after}; "
          f"memory {memory_before:.0f} -> {memory_after:.0f} MB")
    # the hostile clients above opened some 100 connections; the server's own background work
    # (its tickers' database use, a kept-alive client connection) moves the count by one or two
    assert files_after <= files_before + 2, (files_before, files_after)
    assert memory_after - memory_before < 20, (memory_before, memory_after)


def client_of(process: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=process.url, timeout=30)


def test_connections_beyond_the_limit_are_refused(process: ServerProcess) -> None:
    assert process.process is not None
    held = [raw(process.port) for _ in range(40)]
    try:
        time.sleep(0.5)
        extra = raw(process.port)
        answer = answer_of(extra)
        assert status_of(answer) == 503, answer[:200]
        extra.close()
    finally:
        for conn in held:
            conn.close()
    time.sleep(0.5)
    assert httpx.get(process.url + "/healthz", timeout=10).text == "ok"


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    with LiveServer(make_settings(sqlite_url)) as server:
        yield server


def test_bodies_are_limited_per_route(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    person = client(live)
    person.page("/signin")
    big = "x" * (limits.BODY_MAX + 1)
    declared = person.submit("/signin", {"login": big, "password": "p"})
    assert declared.status_code == 413
    assert declared.headers["content-security-policy"] == limits.CSP

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams in
        yield f"csrf={person.csrf}&login=".encode()
        for _ in range(limits.BODY_MAX // 1024 + 2):
            yield b"x" * 1024

    streamed = person.post("/signin", content=chunks(),
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert streamed.status_code == 413
    # a league route takes a pasted table larger than a form's limit
    assert limits.body_limit("/league/race") > limits.BODY_MAX
    league = person.submit("/league/race", {"name": "none", "table": "y" * (limits.BODY_MAX * 2)})
    assert league.status_code != 413
    multipart = person.post("/signin", data={"csrf": person.csrf, "login": "a"},
                            files={"f": ("a.txt", b"hello")})
    assert multipart.status_code == 415

    monkeypatch.setattr(limits, "BODY_SECONDS", 1.0)
    conn = raw(live.port)
    conn.sendall(b"POST /signin HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 b"application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nlogin=")
    answer = answer_of(conn)
    conn.close()
    assert status_of(answer) == 408, answer[:200]
    assert person.get("/healthz").text == "ok"


def test_every_answer_carries_the_security_headers(live: LiveServer) -> None:
    visitor = client(live)
    for path in ("/", "/signin", "/races/999", "/static/app.js", "/healthz"):
        answer = visitor.get(path)
        csp = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["x-frame-options"] == "DENY"
    page = visitor.get("/signin").text
    assert "<script>" not in page and " onclick=" not in page and " style=" not in page


def test_forwarded_for_only_from_trusted_proxies(database_url: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Without trusted proxies a new X-Forwarded-For per attempt changes nothing: the address
    limit holds. With 127.0.0.1 trusted, the header names the client. The limit is lowered to 3
    for the test: each attempt costs an argon2 check, and 31 of them took half a minute."""
    limit = 3
    monkeypatch.setattr(accounts_module, "FAILURES_PER_ADDRESS", limit)
    with LiveServer(make_settings(database_url)) as plain:
        guesser = client(plain)
        guesser.page("/signin")
        codes = [guesser.submit("/signin", {"login": f"nobody{n}", "password": "wrong-guess"},
                                headers={"X-Forwarded-For": f"10.0.{n}.1"}).status_code
                 for n in range(limit + 1)]
        assert codes[-1] == 429 and set(codes[:-1]) == {401}, codes
    with LiveServer(make_settings(database_url, trusted_proxies=("127.0.0.1",))) as proxied:
        signed_up(proxied, "Proxied")
        guesser = client(proxied)
        guesser.page("/signin")
        codes = [guesser.submit("/signin", {"login": f"nobody{n}", "password": "wrong-guess"},
                                headers={"X-Forwarded-For": f"10.1.{n}.1"}).status_code
                 for n in range(limit + 2)]
        assert set(codes) == {401}, codes  # each from another client behind the proxy
