"""Tokens, Russian lemmas and a script-independent spelling key.

pymorphy3 and rapidfuzz are imported on first use: the server must list its tools before either
is loaded (cold-start budget, DESIGN §11).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from planner._lazy_re import LazyRe

__all__ = [
    "IN_QUOTES",
    "ISSUE_KEY",
    "Token",
    "detect_language",
    "dictionary_word",
    "informal",
    "is_imperative",
    "lemmas",
    "nominative_name",
    "norm",
    "phonetic",
    "as_infinitive",
    "is_infinitive",
    "similarity",
    "spoken",
    "tokenize",
]

# words in quotes: «…», “…”, "…", or '…' (an apostrophe inside a word, "We're", is no quote mark)
# an issue's key as people type it ("ENG-101", "cs-12"), wherever it stands in a message
ISSUE_KEY = LazyRe(r"\b[A-Za-z]{2,5}-\d+\b")
IN_QUOTES = LazyRe(r"«[^»]*»|“[^”]*”|\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)")
_CYR = LazyRe(r"[а-яё]", re.IGNORECASE)
_LAT = LazyRe(r"[a-z]", re.IGNORECASE)
_TOKEN = LazyRe(r"[A-Za-z]{1,10}-\d+|\d{1,2}:\d{2}|\d+(?:[.,]\d+)?[kкKК]?|[\w@.]+(?:[-'’][\w]+)*", re.UNICODE)


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return norm(self.text)


def norm(s: str) -> str:
    return s.lower().replace("ё", "е").replace("’", "'")


def tokenize(text: str) -> list[Token]:
    return [
        Token(m.group(0).strip("."), m.start(), m.start() + len(m.group(0).strip(".")))
        for m in _TOKEN.finditer(text)
    ]


def detect_language(text: str) -> str:
    """The language of the person's own words: a pasted email between their lines, a quote (">", «…») is
    someone else's and says nothing about how to answer them."""
    own = _own_words(text) or text
    cyr = len(_CYR.findall(own))
    lat = len(_LAT.findall(own))
    ru_words = re.findall(r"[а-яёА-ЯЁ][а-яёА-ЯЁ-]*", own)
    if (
        ru_words
        and all(w[0].isupper() for w in ru_words)
        and len(re.findall(r"[a-zA-Z]+", own)) >= 3 * len(ru_words)
    ):
        return "en"  # "What stage is the Ромашка deal in?": English, with a Russian name in it
    return "ru" if cyr and cyr >= lat * 0.3 else "en"


def _own_words(text: str) -> str:
    lines = [x for x in text.splitlines() if not x.lstrip().startswith(">")]
    paragraphs = [p for p in re.split(r"\n\s*\n", "\n".join(lines)) if p.strip()]
    if len(paragraphs) >= 3:  # "Вот письмо: / <the email> / Заведи по этому задачу": around the paste
        paragraphs = [paragraphs[0], paragraphs[-1]]
    return re.sub(r"«[^«»]*»|“[^“”]*”", " ", "\n".join(paragraphs))


@lru_cache(maxsize=1)
def _morph() -> Any:
    import logging

    import pymorphy3

    logging.getLogger("pymorphy3").setLevel(logging.WARNING)  # it announces dictionary loading at INFO
    return pymorphy3.MorphAnalyzer()


# the words deals are named by, one meaning in two languages: "the Alfa-Leasing expansion" is
# «Альфа-Лизинг — расширение», «пилот Globex» is "Globex pilot"
_SAME_WORD = {
    "expansion": "расширение", "implementation": "внедрение", "rollout": "внедрение", "renewal": "продление",
    "pilot": "пилот", "license": "лицензия", "licence": "лицензия", "integration": "интеграция",
    "upsell": "допродажа", "onboarding": "онбординг", "extension": "расширение",
    # the words software issues are titled with, as Russian speakers describe them («баг с экспортом в PDF»)
    "export": "экспорт", "import": "импорт", "crash": "падение", "docs": "документация",
    "documentation": "документация", "login": "логин", "timeout": "таймаут",
    "page": "страница", "redesign": "редизайн", "key": "ключ", "rotate": "ротация", "rotation": "ротация",
    "leaked": "утечь", "leak": "утечка", "notification": "уведомление", "mobile": "мобильный",
    "app": "приложение", "application": "приложение", "screen": "экран", "requirement": "требование",
    "quarterly": "квартальный", "check-in": "чекин", "checkin": "чекин", "slow": "медленный",
    "network": "сеть", "report": "отчёт", "invoice": "счёт", "contract": "договор",
    "payment": "оплата", "password": "пароль", "settings": "настройки",
    # (words that are also request cues — call, update, push, search — stay out: they would change meaning)
}  # fmt: skip
_SAME_WORD |= {ru.replace("ё", "е"): en for en, ru in list(_SAME_WORD.items())}
_SAME_WORD = {k.replace("ё", "е"): v.replace("ё", "е") for k, v in _SAME_WORD.items()}


@lru_cache(maxsize=65536)
def lemmas(word: str) -> frozenset[str]:
    """Every normal form a word may have (Russian via pymorphy3; English by a light plural rule), and
    the same business word in the other language."""
    found = _lemmas(word)
    same = {_SAME_WORD[f] for f in found if f in _SAME_WORD}
    return found | same if same else found


# English words ending in "s" that are no plural of a word without it ("news" is not "new")
_NOT_PLURALS = frozenset(
    {"news", "this", "was", "has", "is", "its", "us", "yes", "plus", "status", "bus", "gas"}
)


def _lemmas(word: str) -> frozenset[str]:
    w = norm(word)
    if _CYR.search(w):
        forms = {w}
        for part in w.split("-"):
            if part:
                parses = _morph().parse(part)
                forms.update(p.normal_form.replace("ё", "е") for p in parses[:4])
                # a first name in a case ("Анне" = to Anna) may hide behind an indeclinable one
                forms.update(p.normal_form.replace("ё", "е") for p in parses if "Name" in p.tag)
        return frozenset(forms)
    forms = {w}
    if len(w) > 4 and w.endswith("ies"):
        forms.add(w[:-3] + "y")
    elif len(w) > 3 and w.endswith("es") and w[-3] in "sxz":
        forms.add(w[:-2])
    elif len(w) > 3 and w.endswith("s") and not w.endswith("ss") and w not in _NOT_PLURALS:
        forms.add(w[:-1])
    elif len(w) > 4 and w.endswith("ed"):
        forms.update((w[:-1], w[:-2]))  # moved -> move, finished -> finish
    return frozenset(forms)


def lemma(word: str) -> str:
    """The most likely normal form."""
    w = norm(word)
    if _CYR.search(w) and "-" not in w:
        parses = _morph().parse(w)
        declined = [p for p in parses if "Name" in p.tag and p.normal_form != w]
        best = (
            declined[0] if declined and parses[0].normal_form == w and "Name" in parses[0].tag else parses[0]
        )
        return str(best.normal_form).replace("ё", "е")
    return w


_PHON = [
    ("'", ""),
    ("dzh", "j"),
    ("zh", "j"),
    ("kh", "h"),
    ("ks", "x"),
    ("ck", "k"),
    ("ch", "k"),
    ("ph", "f"),
    ("th", "t"),
    ("ea", "i"),
    ("ee", "i"),
    ("ou", "u"),
    ("oo", "u"),
    ("w", "v"),
    ("z", "s"),
    ("c", "k"),
    ("q", "k"),
    ("y", "i"),
    ("e", "i"),
]


@lru_cache(maxsize=65536)
def phonetic(word: str) -> str:
    """A rough spelling key shared by Latin and Cyrillic spellings (Alfa-Leasing ~ Альфа-Лизинг)."""
    from unidecode import unidecode

    s = unidecode(norm(word)).lower()
    s = re.sub(r"[^a-z0-9]+", "", s)
    for a, b in _PHON:
        s = s.replace(a, b)
    return re.sub(r"(.)\1+", r"\1", s)


@lru_cache(maxsize=65536)
def similarity(a: str, b: str) -> float:
    """0..1 similarity of two words across scripts and Russian cases."""
    if a == b:
        return 1.0
    la, lb = lemmas(a), lemmas(b)
    if la & lb:
        return 1.0
    pa, pb = phonetic(lemma(a)), phonetic(lemma(b))
    if not pa or not pb:
        return 0.0
    if pa == pb:
        return 0.97
    from rapidfuzz.distance import Levenshtein

    score = float(Levenshtein.normalized_similarity(pa, pb))
    # Russian inflection changes the ending only: a long shared prefix is strong evidence.
    common = 0
    for x, y in zip(phonetic(a), phonetic(b), strict=False):
        if x != y:
            break
        common += 1
    if common >= 5 and common >= min(len(pa), len(pb)) - 2:
        score = max(score, 0.9)
    return score


_EN_SOUNDS = [
    (r"^j", "dzh"), (r"ane$", "ein"), (r"ay", "ei"), (r"ai", "ei"), (r"oe$", "ou"), (r"ohn", "on"),
    (r"ee", "i"), (r"oo", "u"), (r"th", "t"), (r"ph", "f"), (r"w", "v"), (r"x", "ks"), (r"ck", "k"),
    (r"c(?=[eiy])", "s"), (r"c(?!h)", "k"), (r"y$", "i"),
    # loanwords as Russian writes them: «мобайл» (mobile), «лонч» (launch), «хелс» (health)
    (r"(?<=[^aeiou])ile$", "ail"), (r"au", "o"), (r"ea(?=l)", "e"), (r"(?<=l)t$", "s"),
    # a silent final e lengthens the vowel before it, and a short u before two consonants is heard as
    # «а»: «вебсайт» (website), «редизайн» (redesign), «амбрелла» (Umbrella)
    (r"(?<=[^aeiou])i([^aeiou])e$", r"ai\1"), (r"ign$", "ain"), (r"^u(?=[^aeiouy]{2})", "a"),
    # a soft g before i or e: «лоджистикс» (logistics), «дженерал» (general)
    (r"(?<!n)g(?=[ie])", "dzh"),
]  # fmt: skip


@lru_cache(maxsize=65536)
def spoken(word: str) -> str:
    """How a Latin-script name sounds, spelled the way Russian transliterates it ("Jane" -> "dzhein"),
    so that it meets its Cyrillic spelling ("Джейн") in the same key. Cyrillic words pass through."""
    w = norm(word)
    if not re.fullmatch(r"[a-z]+", w):
        return phonetic(w)
    for pattern, repl in _EN_SOUNDS:
        w = re.sub(pattern, repl, w)
    return phonetic(w)


@lru_cache(maxsize=65536)
def dictionary_word(word: str) -> Literal["word", "name", "place"] | None:
    """What the Russian dictionary knows `word` as: a word, a name (person, patronymic, organisation,
    abbreviation) or a place; None when it does not know it."""
    morph = _morph()
    if not morph.word_is_known(word):
        return None
    grammemes = set(str(morph.parse(word)[0].tag).replace(" ", ",").split(","))
    if "Geox" in grammemes:
        return "place"
    return "name" if {"Name", "Surn", "Patr", "Abbr", "Orgn"} & grammemes else "word"


@lru_cache(maxsize=65536)
def is_imperative(word: str) -> bool:
    """A Russian imperative ("закрой", "заведите"): what a person says when they ask for something."""
    w = norm(word)
    if not _CYR.search(w):
        return False
    return any("impr" in p.tag for p in _morph().parse(w)[:2])


@lru_cache(maxsize=65536)
def informal(word: str) -> str | None:
    """«назначьте» -> «назначь», «заведите» -> «заведи»: a polite plural imperative as the rules read
    it (they are written with the familiar one); None when `word` is no such imperative."""
    w = word.lower()
    if len(w) < 5 or not w.endswith("те") or not _CYR.search(w):
        return None
    if not any("impr" in p.tag and "plur" in p.tag for p in _morph().parse(w)[:2]):
        return None
    return word[:-2]


@lru_cache(maxsize=65536)
def is_infinitive(word: str) -> bool:
    """A Russian infinitive ("подготовить"): a to-do said without a command verb."""
    w = norm(word)
    if not _CYR.search(w):
        return False
    return any("INFN" in p.tag for p in _morph().parse(w)[:2])


def as_infinitive(word: str) -> str | None:
    """A Russian finite verb as its infinitive («обновит» → «обновить»: what someone is to do, as a to-do)."""
    w = norm(word)
    if not _CYR.search(w):
        return None
    for p in _morph().parse(w)[:2]:
        if p.tag.POS == "VERB":
            infinitive = p.inflect({"INFN"})
            return str(infinitive.word) if infinitive is not None else None
    return None


@lru_cache(maxsize=65536)
def is_participle(word: str) -> bool:
    """A Russian participle ("заведённые", "созданная"): what a thing is, not a request to make it."""
    w = norm(word)
    if not _CYR.search(w):
        return False
    return any(p.tag.POS in ("PRTF", "PRTS") for p in _morph().parse(w)[:1])


@lru_cache(maxsize=65536)
def is_past(word: str) -> bool:
    """A Russian verb in the past tense ("прошёл", "запросили"), as its most likely reading: a report."""
    w = norm(word)
    if not _CYR.search(w) or word[:1].isupper():
        return False  # «Павел», «Мила»: a name, however it ends
    parses = _morph().parse(w)
    return bool(parses) and "VERB" in parses[0].tag and "past" in parses[0].tag


_NAME_PARTS = ("Name", "Surn", "Patr")
_CASES = ("accs", "gent", "datv", "ablt", "loct", "nomn")  # the object of "добавь …" first


def nominative_name(name: str) -> str:
    """A Russian person's name as it is written on their card: «Петра Орлова» (whom to add) is
    Пётр Орлов, «Марию Соколову» is Мария Соколова, «Анна Белова» stays. The case and gender are the
    ones every word of the name can share; a name the dictionary does not know stays as said."""
    words = name.split()
    if not words or not all(_CYR.search(w) for w in words):
        return name
    readings = []
    for w in words:
        parses = [p for p in _morph().parse(w.lower()) if any(t in p.tag for t in _NAME_PARTS)]
        if not parses:
            return name
        readings.append(parses)
    shared = set.intersection(*({(p.tag.case, p.tag.gender) for p in ps} for ps in readings))
    best = next(((c, g) for c in _CASES for g in ("masc", "femn") if (c, g) in shared), None)
    top = max(readings[0], key=lambda p: p.score)
    if top.tag.case == "nomn" and (top.tag.case, top.tag.gender) in shared and top.score >= 0.5:
        return name  # «Анастасия Белова»: her name as it is (not the rare «Анастасий» in another case)
    if best is None or best[0] == "nomn":
        return name
    out = []
    for ps in readings:
        p = next(p for p in ps if (p.tag.case, p.tag.gender) == best)
        said = p.inflect({"nomn", best[1]}) or p.inflect({"nomn"})
        if said is None:
            return name
        word = said.word
        out.append("-".join(part[:1].upper() + part[1:] for part in word.split("-")))
    return " ".join(out)
