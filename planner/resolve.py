"""Which workspace records a request names: fuzzy, case- and script-tolerant matching of names.

Scores are the share of a name's significant words found in the text (each word matched across
Russian cases and Latin/Cyrillic spellings). Near-ties are reported together: the caller turns
them into one question with choices, never into a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from planner._lazy_re import LazyRe
from planner.directory import Entity
from planner.text import lemma, lemmas, norm, phonetic, spoken

__all__ = [
    "Mention", "WordKey", "best", "find_mentions", "fits_a_full_name", "key_spans", "keys_for", "match_words",
    "word_key",
]  # fmt: skip

_GENERIC = {
    "corp", "corporation", "inc", "ltd", "llc", "co", "company", "group", "the", "ооо", "ао", "зао",
    "пао", "ип", "and", "of", "for", "with", "и", "с", "в", "на", "—", "-",
}  # fmt: skip
_WORD = LazyRe(r"[\w@.']+", re.UNICODE)


@dataclass(frozen=True, eq=False)
class WordKey:
    text: str
    lemmas: frozenset[str]
    phon: str
    phon_surface: str
    spoken: str = ""

    # a key is a function of its (normalised) text: equal and hashed by it alone, which is cheap (a
    # str keeps its hash) where a long message's keys are looked up as a whole
    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordKey) and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)


# the everyday forms of first names («Олежка», «Ваня», «Маша»; "Mike"): heard as the name itself. A
# table, not a rule: a diminutive's shape does not say its name (Ваня is Иван, Саша is Александр). Forms
# that are also everyday words are left out ("bill", "will", «света», «тёма»)
_DIMINUTIVES = {
    short.replace("ё", "е"): full
    for full, shorts in {
        "олег": "олежка олежек олежа",
        "иван": "ваня ванька ванечка ванюша",
        "мария": "маша машенька машка маня",
        "анна": "аня анечка анька нюра",
        "александр": "саша сашка шура",
        "пётр": "петя петька",
        "дмитрий": "дима димка митя",
        "михаил": "миша мишка",
        "николай": "коля колька",
        "сергей": "серёжа серёга",
        "алексей": "лёша лёха алёша",
        "евгений": "женя",
        "екатерина": "катя катюша",
        "елена": "лена леночка",
        "татьяна": "таня танюша",
        "наталья": "наташа",
        "юлия": "юля",
        "ольга": "оля олечка",
        "павел": "паша пашка",
        "константин": "костя",
        "андрей": "андрюша",
        "владимир": "вова володя",
        "ирина": "ира",
        "анастасия": "настя",
        "елизавета": "лиза",
        "дарья": "даша",
        "ксения": "ксюша",
        "василий": "вася",
        "michael": "mike mikey",
        "william": "billy",
        "robert": "bob bobby",
        "james": "jim jimmy",
        "john": "johnny",
        "katherine": "kate katie",
        "elizabeth": "liz lizzie beth",
        "daniel": "dan danny",
        "thomas": "tom tommy",
        "richard": "ricky",
        "joseph": "joe joey",
        "anthony": "tony",
    }.items()
    for short in shorts.split()
}


# first names whose possessive («Олеговы сделки», «Максовых задач») names their owner
_FIRST_NAMES = frozenset(
    {*(n.replace("ё", "е") for n in _DIMINUTIVES.values()), "макс", "игорь", "денис", "артем"}
)


def _full_name_of(w: str, found: frozenset[str]) -> str | None:
    for x in (w, *found):
        x = x.replace("ё", "е")
        full = _DIMINUTIVES.get(x)
        if full is None and x.endswith(("ин", "ина", "ины")):  # «Олежкины задачи», «Анины»: a possessive
            full = _DIMINUTIVES.get(re.sub(r"ин[аы]?$", "а", x)) or _DIMINUTIVES.get(
                re.sub(r"ин[аы]?$", "я", x)
            )
        if full is None and (owner := re.fullmatch(r"(\w{3,}?)(?:ов|ев)(?:ы|ых|ыми)", x)):
            # «Олеговы сделки», «всех Максовых задач»: whose (plural only: «Петровым», «Ивановой» are surnames)
            stem = owner.group(1)
            full = stem if stem in _FIRST_NAMES else None
        if full is not None:
            return full
    return None


@lru_cache(maxsize=65536)
def word_key(word: str) -> WordKey:
    w = norm(word)
    found = lemmas(w)
    full = _full_name_of(w, found) if len(w) >= 3 else None
    if full is not None:  # «Олежке» is Олег's, in either script (the word itself is kept for display)
        full = norm(full)
        return WordKey(w, found | lemmas(full), phonetic(full), phonetic(w), spoken(full))
    return WordKey(w, found, phonetic(lemma(w)), phonetic(w), spoken(lemma(w)))


def _words(text: str) -> list[tuple[str, int, int]]:
    out = []
    for m in _WORD.finditer(text):
        start = m.start()
        # "done." at a sentence's end is "done"; "acme.com" and "j.doe@x.io" keep their dots
        word = m.group(0).rstrip(".")
        for part in re.split(r"([-'])", word) if "-" in word or "'" in word else (word,):
            if part and part not in "-'" and (len(part) >= 2 or part.isdigit()):
                out.append((part, start, start + len(part)))
            start += len(part)
    return out


def keys_for(text: str) -> list[WordKey]:
    return list(_keys(text))


@lru_cache(maxsize=8192)
def _keys(text: str) -> tuple[WordKey, ...]:
    # the same clause is keyed by every rule that reads it, and a long message's pieces again as they
    # are joined: each text once
    return tuple(word_key(w) for w, _, _ in _words(text))


def key_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the words `keys_for(text)` returns, index for index."""
    return list(_spans(text))


@lru_cache(maxsize=4096)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for _, a, b in _words(text))


_SCORES: dict[tuple[str, str], float] = {}
# English words that only hold a sentence together: alike in sound to names ("does"/"Doe"), never one
# ("will" and "may" are left out: Will and May are names)
_FUNCTION_WORDS = frozenset(
    "does do did done is are was were has have had the and for with what when who how where which this that "
    "there their they them then than would can could should might must been being into onto from".split()
)


def _match(a: WordKey, b: WordKey) -> float:
    """How alike two words are, 0..1. A WordKey is a function of its text, so scores are kept by
    text: a long message repeats its words, and every record's name is tried against each of them."""
    if a.text == b.text:
        return 1.0
    key = (a.text, b.text)
    score = _SCORES.get(key)
    if score is None:
        if len(_SCORES) >= 200_000:  # bounded: a long-running server meets endless new words
            _SCORES.clear()
        score = _SCORES[key] = _score(a, b)
    return score


def _score(a: WordKey, b: WordKey) -> float:
    if a.text in _FUNCTION_WORDS or b.text in _FUNCTION_WORDS:
        return 0.0  # "what does Max have": "does" (lemma "doe") names no Doe
    if a.lemmas & b.lemmas:
        return 1.0
    if not a.phon or not b.phon:
        return 0.0
    if min(len(a.phon), len(b.phon)) < 3:  # two-letter keys say little: only short words ("Li" / "Ли")
        # …and only of one length: "we" is not "Wei"
        same = a.phon == b.phon and len(a.text.strip(".'@")) == len(b.text.strip(".'@")) <= 3
        # …or one short name in two scripts, heard alike: «доу» (Doe)
        heard = (
            a.spoken == b.spoken
            and a.text.isascii() != b.text.isascii()
            and min(len(a.text), len(b.text)) >= 3
        )
        return 0.97 if same else 0.95 if heard else 0.0
    if (
        a.phon == b.phon
        or a.phon_surface == b.phon_surface
        or a.phon == b.phon_surface
        or a.phon_surface == b.phon
    ):
        return 0.97
    if a.spoken == b.spoken or a.spoken == b.phon or a.phon == b.spoken:
        return 0.95  # one name in two scripts: Jane / Джейн, Doe / Доу, John / Джон
    if a.phon[0] != b.phon[0] or min(len(a.phon), len(b.phon)) < 3:
        return 0.0
    from rapidfuzz.distance import Levenshtein

    score = float(Levenshtein.normalized_similarity(a.phon, b.phon))
    common = 0
    for x, y in zip(a.phon_surface, b.phon_surface, strict=False):
        if x != y:
            break
        common += 1
    if common >= 5 and common >= min(len(a.phon_surface), len(b.phon_surface)) - 2:
        score = max(score, 0.9)
    if score < 0.9 and min(len(a.text), len(b.text)) >= 5:
        from rapidfuzz.distance import DamerauLevenshtein

        if DamerauLevenshtein.distance(a.text, b.text) == 1:  # "globx" typed for "globex"
            score = 0.9
    return score


@lru_cache(maxsize=4096)
def _alias_keys(alias: str) -> tuple[WordKey, ...]:
    return tuple(k for k in keys_for(alias) if k.text not in _GENERIC)


@lru_cache(maxsize=4096)
def _generic_keys(alias: str) -> tuple[WordKey, ...]:
    """Words like "Corp" do not name a record on their own, but said with the name they narrow it."""
    return tuple(k for k in keys_for(alias) if k.text in _GENERIC and len(k.text) > 2)


@dataclass
class Mention:
    entity: Entity
    score: float
    positions: frozenset[int]


def fits_a_full_name(words: str, mention: Mention) -> bool:
    """Whether a mention can be the person `words` name: when a first name and a surname are both said
    («Петр Николаев»), one word alike («Петров») is someone else, unless both words fit or the match is
    near certain."""
    if len([w for w in words.split() if w[:1].isupper()]) < 2:
        return True
    return len(mention.positions) >= 2 or mention.score >= 0.9


# first names and the forms colleagues call each other by (Russian diminutives, the other script's spelling)
# (only the familiar forms: "Максим" is a name of its own — «Максиму Горькому» is nobody here, not Max Weber)
_FAMILIAR: dict[str, tuple[str, ...]] = {
    "oleg": ("Олежа", "Олежка"), "олег": ("Олежа", "Олежка"),
    "anna": ("Аня", "Анечка"), "анна": ("Аня", "Анечка"),
    "ivan": ("Ваня",), "иван": ("Ваня",),
    "maria": ("Маша",), "мария": ("Маша",),
}  # fmt: skip


def aliases_of(e: Entity) -> list[str]:
    company = e.extra.get("company") if e.kind == "deal" else None
    return list(_aliases(e.kind, e.name, tuple(e.aliases), str(company) if company else None))


# «в саксесс», «в эндж», «дизайнерам»: a team's English word as Russian speakers say it (no common noun — «разработка»,
# «продажи» — and no inflected form the lemmatiser guesses a verb for: «саксесса» was read as a form of «запиши»)
_TEAM_WORDS: dict[str, tuple[str, ...]] = {
    "engineering": ("инжиниринг", "энжиниринг", "инженеры", "инженерка", "инженерку", "эндж", "энж"),
    "success": ("саксесс", "саксес", "сексесс"),
    "design": ("дизайн", "дизайнеры", "дизайнерам"),
    "support": ("саппорт",),
    "sales": ("сейлз", "продажники"),
    "marketing": ("маркетинг",),
}


@lru_cache(maxsize=8192)  # every name of the workspace is tried against every clause
def _aliases(kind: str, name: str, aliases: tuple[str, ...], company: str | None) -> tuple[str, ...]:
    out = [name, *aliases]
    if kind == "deal":
        head = re.split(r"\s+[—–-]\s+", name)[0]
        if head != name:
            out.append(head)
        if company:
            out.append(company)
    if kind in ("person", "member", "user"):
        out.extend(name.split())
        # «Олежа», «Ваня», "Maxim": the first name as colleagues say it (its everyday forms, either script)
        out.extend(_FAMILIAR.get(name.split()[0].lower(), ()) if name.split() else ())
    if kind == "team":
        out.extend(r for w in name.lower().split() for r in _TEAM_WORDS.get(w, ()))
    if kind == "company":  # «Альфа» for Альфа-Лизинг, "Alfa" for Alfa-Leasing: the first half said alone
        out.extend(a.split("-")[0] for a in list(out) if re.fullmatch(r"[^\W\d_]{4,}-[^\W\d_]{4,}", a))
    return tuple(a for a in out if a)


class _Near:
    """The positions of a text's words that could match a given word at all (`_score` is 0 for every
    other pair: no shared text, lemma, sound or spoken form, and a different first sound), so a name is
    compared with a handful of words rather than with all of a long message."""

    def __init__(self, keys: list[WordKey]) -> None:
        self.by: dict[tuple[str, str], list[int]] = {}
        self._asked: dict[str, list[int]] = {}
        for i, t in enumerate(keys):
            for field, value in (
                ("text", t.text), ("phon", t.phon), ("surface", t.phon_surface), ("spoken", t.spoken),
                ("first", t.phon[:1]), *(("lemma", x) for x in t.lemmas),
            ):  # fmt: skip
                if value:
                    self.by.setdefault((field, value), []).append(i)

    def candidates(self, k: WordKey) -> list[int]:
        known = self._asked.get(k.text)  # a WordKey is a function of its text; names repeat across kinds
        if known is None:
            known = self._asked[k.text] = self._candidates(k)
        return known

    def _candidates(self, k: WordKey) -> list[int]:
        wanted = [("text", k.text), ("first", k.phon[:1]), ("surface", k.phon), ("phon", k.phon_surface),
                  ("surface", k.phon_surface), ("spoken", k.spoken), ("spoken", k.phon), ("phon", k.spoken),
                  *(("lemma", x) for x in k.lemmas)]  # fmt: skip
        found: set[int] = set()
        for key in wanted:
            if key[1]:
                found.update(self.by.get(key, ()))
        return sorted(found)


@lru_cache(maxsize=512)
def _near(keys: tuple[WordKey, ...]) -> _Near:
    return _Near(list(keys))


def find_mentions(
    text_keys: list[WordKey],
    entities: list[Entity],
    *,
    threshold: float = 0.85,
    skip: frozenset[int] = frozenset(),
) -> list[Mention]:
    """Entities named in the text, best first. A first name alone scores 0.5 for a two-word name."""
    out: list[Mention] = []
    near = _near(tuple(text_keys))
    for e in entities:
        best_score, best_pos = 0.0, frozenset[int]()
        full = _alias_keys(e.name) or _alias_keys(aliases_of(e)[0])
        for alias in aliases_of(e):
            keys = _alias_keys(alias)
            if not keys:
                continue
            used: set[int] = set()
            for k in keys:
                for i in near.candidates(k):
                    if i in used or i in skip:
                        continue
                    if _match(text_keys[i], k) >= threshold:
                        used.add(i)
                        break
            if not used:
                continue
            matched = len(used)
            for g in _generic_keys(alias):  # "Acme Corp" said in full beats "Acme Logistics"
                hit = next(
                    (i for i in near.candidates(g) if i not in used and _match(text_keys[i], g) >= threshold),
                    None,
                )  # "акме корп" = Acme Corp
                if hit is not None and any(abs(hit - u) <= 2 for u in used):
                    used.add(hit)
            # score against the full name, so "Иван" is half of "Иван Петров" but a company's own
            # short alias ("Acme" for "Acme Corp") is a whole match
            denom = len(full) if e.kind in ("person", "member", "user") else len(keys)
            raw = min(1.0, matched / max(denom, 1))
            score = raw * 0.95 if alias != e.name and e.kind == "deal" else raw
            # (the company part of a deal's name is slightly weaker evidence than the deal's own name)
            # ("acme license": a deal's own words count too, beside its company's, so it beats the other Acme deal)
            kept = best_pos if e.kind == "deal" else frozenset[int]()
            if raw >= 0.5 and score > best_score:
                best_score, best_pos = score, frozenset(used) | kept
            elif raw >= 0.5 and e.kind == "deal":
                best_pos = best_pos | frozenset(used)
        if best_score > 0:
            out.append(Mention(e, best_score, best_pos))
    out.sort(key=lambda m: (-m.score, -len(m.positions)))  # equal scores: the one that explains more words
    return out


def best(mentions: list[Mention], *, margin: float = 0.06) -> list[Mention]:
    """The top mention, or every mention within `margin` of it (an ambiguity)."""
    if not mentions:
        return []
    top = mentions[0]
    # "Acme" names "Acme Corp" fully and "Acme Logistics" half: the same words point at both, so it
    # is a tie even though the scores differ
    return [
        m
        for m in mentions
        if m is top
        or (
            m.score >= top.score - margin and not m.positions < top.positions
        )  # fewer words matched: not a tie
        or (m.positions == top.positions and m.entity.kind == top.entity.kind)
    ]


def match_words(wanted: list[WordKey], text_keys: list[WordKey], threshold: float = 0.85) -> bool:
    """Every wanted word appears among the text's words (across cases and scripts)."""
    return all(any(_match(w, t) >= threshold for t in text_keys) for w in wanted)
