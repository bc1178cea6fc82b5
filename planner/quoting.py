"""A quote pasted, then pointed at: «клиент пишет: "…". закинь коммент с этой цитатой», "note on Globex with
the quote". The words pointed at are what the comment or note says, so they are put where they are asked for."""

from __future__ import annotations

from planner._lazy_re import LazyRe

__all__ = ["quote_put_where_asked"]

# a quotation: «…», “…” or "…" of at least two words (a one-word name in quotes is no quote)
_QUOTE = LazyRe(r"«([^»]*\s[^»]*)»|“([^”]*\s[^”]*)”|\"([^\"]*\s[^\"]*)\"")
# "с цитатой", «с этой цитатой», "with the quote", "with that quote", "quoting it", «цитатой»
_POINTED = LazyRe(
    r"(?i)\s(?:(?:с|со|with)\s+(?:(?:этой|этой\s+же|той|той\s+же|его|её|ее|их|the|this|that|their|his|her|a)\s+)?"
    r"(?:цитат(?:ой|ою)|quote|quotation)|quoting\s+(?:it|them|him|her|this|that))\b"
)


def quote_put_where_asked(text: str) -> str:
    """`text` with "with the quote" replaced by the quote said before it (unchanged when there is none)."""
    pointed = _POINTED.search(text)
    if pointed is None:
        return text
    before = [m for m in _QUOTE.finditer(text) if m.end() <= pointed.start()]
    if not before:
        return text
    words = next(g for g in before[-1].groups() if g is not None).strip()
    return f"{text[: pointed.start()]}: «{words}»{text[pointed.end() :]}"
