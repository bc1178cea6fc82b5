"""A network guard for the toolkit tests: nothing may reach beyond the loopback interface.

Meant for the root conftest (so that every test is guarded); until it moves there it lives here.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _root_helpers() -> dict[str, Any]:
    # pytest imports this file as the module `conftest`, evicting tests/conftest.py from sys.modules,
    # while test files elsewhere do `from conftest import WORKSPACE, ...`. Re-export the root's plain
    # helpers (not its fixtures, which pytest registered already) so that works in any load order.
    # Delete this together with the file once the guard moves to tests/conftest.py.
    path = Path(__file__).resolve().parents[1] / "conftest.py"
    spec = importlib.util.spec_from_file_location("_tests_root_conftest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fixture_type = type(pytest.fixture(lambda: None))
    return {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, fixture_type)
        and not hasattr(value, "_pytestfixturefunction")
    }


globals().update({k: v for k, v in _root_helpers().items() if k not in globals()})

_LOCAL_NAMES = {"localhost", "localhost.", "ip6-localhost"}


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return False
    return True


def is_loopback(host: object) -> bool:
    """Whether `host` (an address or a name) stays on this machine."""
    text = str(host).strip("[]").split("%")[0].lower()
    if text in _LOCAL_NAMES or text.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Refuse (and fail the test for) any connection or name lookup beyond the loopback.

    Refusing alone would not do: a daemon thread (the composio SDK's telemetry) swallows the error,
    so every attempt is also recorded and the test fails at teardown if there was one.
    """
    attempts: list[str] = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback(address[0]):
            attempts.append(f"connect {address[0]}:{address[1]}")
            raise ConnectionRefusedError(f"network guard: {address[0]} is not loopback")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        # a numeric address needs no lookup; `connect` decides about it
        if name is not None and not _is_address(str(name)) and not is_loopback(name):
            attempts.append(f"resolve {host}")
            raise socket.gaierror(socket.EAI_NONAME, f"network guard: {host} is not loopback")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    assert attempts == [], f"tests must not leave 127.0.0.1: {attempts}"
