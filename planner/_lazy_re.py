"""A regular expression compiled the first time it is used, not when its module is imported: the big
alternations (every number word, every ordinal) would otherwise add to the server's cold start."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["LazyRe"]


_PENDING: list[LazyRe] = []  # made, not yet compiled

# The rules read ~1,450 distinct patterns (these and the inline `re.search(r"…")` ones), and `re` keeps 512 compiled
# ones, evicting the oldest: every long message then compiled hundreds again (≈0.5 ms of its median, 10 % of its p90
# in scripts/bench.py's random texts). A bigger cache keeps them all; the attribute is the module's own knob.
if getattr(re, "_MAXCACHE", 4096) < 4096:
    setattr(re, "_MAXCACHE", 4096)  # noqa: B010 - a private module setting, not a typed attribute


class LazyRe:
    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0) -> None:
        self._source, self._flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None
        _PENDING.append(self)

    @staticmethod
    def compile_pending() -> int:
        """Compile every pattern not compiled yet (how many). The planner does it on its first request:
        off the cold start, and at once rather than a few milliseconds in each of the next hundred."""
        done = 0
        while _PENDING:
            rx = _PENDING.pop()
            if rx._compiled is None:
                _ = rx.compiled
                done += 1
        return done

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
            # from now on the pattern's own methods answer: no wrapper in the path of every search
            for name in ("search", "match", "fullmatch", "finditer", "sub", "findall", "subn"):
                setattr(self, name, getattr(self._compiled, name))
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._source

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return self.compiled.search(string, pos, len(string) if endpos is None else endpos)

    def match(self, string: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return self.compiled.match(string, pos, len(string) if endpos is None else endpos)

    def fullmatch(self, string: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(string)

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count=count)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        # a capturing group that took no part yields None: an empty piece here, as callers read it
        return [x or "" for x in self.compiled.split(string, maxsplit)]

    def findall(self, string: str) -> list[Any]:
        # a str per match, or a tuple of groups when the pattern has several (as re's own)
        return self.compiled.findall(string)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count=count)
