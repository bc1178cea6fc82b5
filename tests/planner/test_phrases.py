"""The analyser tries a phrasal verb only when one of its words is in the text: those words must be
necessary, or a phrase would silently stop being read."""

from __future__ import annotations

import json
from pathlib import Path

from planner.analysis._clause import PHRASE_WORDS, PHRASES

DATA = Path(__file__).resolve().parents[1] / "data"


def said_texts() -> list[str]:
    out = []
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                text = json.loads(line).get("text")
                if isinstance(text, str):
                    out.append(text)
    return out


def test_each_phrase_has_its_words() -> None:
    assert len(PHRASE_WORDS) == len(PHRASES)
    assert all(words and all(w == w.lower() for w in words) for words in PHRASE_WORDS)


def test_no_phrase_in_any_corpus_request_matches_without_one_of_its_words() -> None:
    texts = said_texts()
    assert len(texts) > 10_000
    matched = 0
    for text in texts:
        low = text.lower()
        for (rx, _), words in zip(PHRASES, PHRASE_WORDS, strict=True):
            if rx.search(text):
                matched += 1
                assert any(w in low for w in words), (rx.pattern[:60], text[:120])
    assert matched > 1_000  # the phrases are said, often: the check above has cases to check
