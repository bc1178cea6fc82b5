"""Russian typed in Latin letters ("zakroi eng-106", "pereNesi sdelku globex v won", "kakie u nas proekty
v Linear?"), as people type it on a keyboard without Cyrillic. Each word that spells a Russian word is
written in Cyrillic, so the rules read it as said; names, English words and ids stay as typed.

A message counts as translit only when most of its Latin words spell known Russian words and it has no
English function words: "test plan status" spells «тест план статус», but "the status of the test plan"
is English.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from planner._lazy_re import LazyRe
from planner.text import dictionary_word, is_imperative

__all__ = ["as_typed", "from_translit"]

_QUOTED = LazyRe(r"«[^»]*»|\"[^\"]*\"|“[^”]*”|`[^`]*`")
_CYRILLIC = LazyRe(r"[а-яё]", re.IGNORECASE)
_WORD = LazyRe(r"(?<![\w@.\-/])[A-Za-z']+(?![\w@\-/]|\.\w)")
# letters that spell one Russian letter, longest first; the ambiguous ones are tried each way
_DIGRAPHS = (
    ("shch", ("щ",)), ("sch", ("щ",)), ("zh", ("ж",)), ("kh", ("х",)), ("ts", ("ц",)), ("ch", ("ч",)),
    ("sh", ("ш",)), ("yu", ("ю",)), ("ju", ("ю",)), ("ya", ("я",)), ("ja", ("я",)), ("yo", ("ё", "йо")),
    ("jo", ("ё",)), ("ye", ("е",)), ("ii", ("ий", "ии")), ("iy", ("ий",)), ("yi", ("ый", "ий")),
)  # fmt: skip
_LETTERS = {
    "a": ("а",), "b": ("б",), "v": ("в",), "g": ("г",), "d": ("д",), "e": ("е", "э"), "z": ("з",),
    "i": ("и", "й"), "j": ("й",), "k": ("к",), "l": ("л",), "m": ("м",), "n": ("н",), "o": ("о",),
    "p": ("п",), "r": ("р",), "s": ("с",), "t": ("т",), "u": ("у",), "f": ("ф",), "h": ("х",),
    "c": ("ц", "к"), "y": ("ы", "й"), "w": ("в",), "x": ("кс",), "q": ("к",), "'": ("ь",),
}  # fmt: skip
# English words that only an English message has: one of them, and the message is English
_FUNCTION_WORDS = frozenset(
    """the an of to and or for in on at by with from is are was were be been it its this that these those
    my me you we our your he she they them his her their please pls what which who how when where why
    can could would should will does did not yes all any some every each
    add create new set make assign close move delete remove remind schedule book log open file update change mark
    put show list give send title contact company deal issue task note""".split()
)  # (and the verbs and nouns of an English request: "Add a contact Richard Hendricks, …, title CEO")
# English words that also spell Russian ones («вон», «тест», «план»): in a translit message they stay English
_ENGLISH = _FUNCTION_WORDS | frozenset(
    """new open close move set assign create add update show list find won lost lead proposal negotiation
    qualification done todo backlog review progress deal deals issue issues team task tasks note notes owner
    stage due today tomorrow friday monday tuesday wednesday thursday saturday sunday status plan test start
    post sort pilot""".split()
)
# short words that are Russian words of their own: «в», «с», «на», «по», «не»
_SHORT = {
    "v": "в", "s": "с", "k": "к", "u": "у", "i": "и", "a": "а", "o": "о", "ya": "я", "na": "на", "po": "по",
    "ne": "не", "ot": "от", "do": "до", "za": "за", "iz": "из", "my": "мы", "vy": "вы", "ty": "ты", "mne": "мне",
}  # fmt: skip
_VOWELS = frozenset("aeiouy")


def _spellings(word: str) -> list[str]:
    """Every Cyrillic spelling of `word` under the usual translit schemes (at most 64)."""
    low = word.lower()
    parts: list[tuple[str, ...]] = []
    i = 0
    while i < len(low):
        for latin, cyrillic in _DIGRAPHS:
            if latin in ("iy", "ii", "yi") and low[i + 2 : i + 3] in ("a", "u", "o", "e"):
                continue  # "kompaniyu": «компанию» (и + ю), not «компаний» + у
            if low.startswith(latin, i):
                parts.append(cyrillic)
                i += len(latin)
                break
        else:
            letters = _LETTERS.get(low[i], (low[i],))
            if low[i] == "i" and i and low[i - 1] in _VOWELS:
                letters = ("й", "и")  # "zakroi": «закрой» before «закрои»
            elif low[i] == "l" and low[i + 1 : i + 2] not in ("", *_VOWELS):
                letters = ("л", "ль")  # "skolko": «сколько», the soft sign left out
            parts.append(letters)
            i += 1
    spelled = ["".join(p) for p in itertools.islice(itertools.product(*parts), 64)]
    if low.endswith(("it", "at", "yt")):  # "obnovit", "sdelat": an infinitive, its soft sign left out
        return [w + "ь" for w in spelled] + spelled
    if low[-1] not in _VOWELS:  # "naznach": «назначь» when «назнач» is no word
        return spelled + [w + "ь" for w in spelled]
    return spelled


@lru_cache(maxsize=4096)
def _russian(word: str) -> str | None:
    """The Cyrillic word `word` spells, when it is a known Russian word (not an English one)."""
    low = word.lower()
    if low in _ENGLISH or len(low) < 3 or not low.isascii():
        return None
    for spelled in _spellings(low):
        known = dictionary_word(spelled)
        if known is not None:
            # «Буг», «Олег»: a place or a name spelt by an English word is no evidence of Russian
            return None if known in ("name", "place") else spelled
    return None


@lru_cache(maxsize=1024)
def _name_spelled(word: str) -> str | None:
    """ "Olegu", "Maksu": a Russian first name typed in Latin letters, in any case ("na Olega")."""
    if len(word) < 3 or not word.isascii():
        return None
    for spelled in _spellings(word.lower()):
        if dictionary_word(spelled) == "name":
            return spelled.capitalize()
    return None


# when a thing is due, said in the words kept as typed ("…: podgotovit otchet k 1 dekabrya"): read as a date
_DATE_WORDS = frozenset(
    """января февраля марта апреля мая июня июля августа сентября октября ноября декабря понедельник
    понедельника вторник вторника среда среду среды четверг четверга пятница пятницу пятницы суббота субботу
    воскресенье завтра послезавтра сегодня неделю недели месяца""".split()
)
_BEFORE_A_DATE = {"k": "к", "do": "до", "na": "на", "v": "в", "cherez": "через", "srok": "срок"}


def _when_said(text: str, m: re.Match[str]) -> str:
    """A word of the person's own words (a title, a note): kept as typed, unless it says when."""
    word = m.group(0)
    spelled = next((s for s in _spellings(word.lower()) if s in _DATE_WORDS), None)
    if spelled:
        return spelled
    after = re.match(r"\s+(\d{1,2}\b|[A-Za-z]+)", text[m.end() :])
    if (
        word.lower() in _BEFORE_A_DATE
        and after
        and (after.group(1).isdigit() or any(s in _DATE_WORDS for s in _spellings(after.group(1).lower())))
    ):
        return _BEFORE_A_DATE[word.lower()]
    return word


def _is_a_name(text: str, m: re.Match[str]) -> bool:
    word = m.group(0)
    if not (word[:1].isupper() and word[1:].islower()):
        return False
    return bool(text[: m.start()].strip()) and not re.search(r"[.!?:]\s*$", text[: m.start()])


def from_translit(text: str, typed: dict[str, str] | None = None) -> str:
    """`text` with Russian typed in Latin letters written in Cyrillic (unchanged when it is not translit);
    `typed` collects each Cyrillic word made and the Latin word it was typed as."""
    if _CYRILLIC.search(text) or len(text) > 600:
        return text
    # (a capitalised word inside a sentence is a name — "Maria Sokolova email" is English)
    words = [m for m in _WORD.finditer(text) if len(m.group(0)) >= 3 and not _is_a_name(text, m)]
    if not words or any(m.group(0).lower() in _FUNCTION_WORDS for m in _WORD.finditer(text)):
        return text  # an English function word: an English message
    russian = {m.group(0): _russian(m.group(0)) for m in words}  # (names stay as typed)
    # (evidence is a longer word: "bug", "date", "week" spell «буг», «дате», «веек» too)
    known = [w for latin, w in russian.items() if w and len(latin) >= 5]
    # ("naznach ENG-102 na Maksa": one long Russian word, and nothing else to read, is enough)
    alone = len(words) == 1 and len(known) == 1 and len(known[0]) >= 5
    # ("zakroy ENG-101, Oleg uzhe pofiksil": a request's verb first, and another Russian word after it)
    lead = _WORD.search(text)
    first = russian.get(words[0].group(0)) if lead is not None and words[0].start() == lead.start() else None
    asked = (
        first is not None
        and len(first) >= 5
        and is_imperative(first)
        and sum(1 for w in russian.values() if w) >= 2
    )
    if not alone and not asked and len(known) < max(2, (len(words) + 1) // 2):
        return text
    # what comes after a colon or in quotes is the person's own words (a title, a note): kept as typed
    colon = next((c.start() for c in re.finditer(r"(?<!\d):(?!\d)", text)), -1)  # (not a time's «15:00»)
    kept = [(colon, len(text))] if colon > 0 else []
    kept += [q.span() for q in _QUOTED.finditer(text)]

    def spelled(m: re.Match[str]) -> str:
        word = m.group(0)
        out = (
            _when_said(text, m)
            if any(a <= m.start() < b for a, b in kept)
            else russian.get(word)
            or _SHORT.get(word.lower())
            # "peredai Olegu": a Russian name in its case, read as said (a company's name stays as typed)
            or (
                _name_spelled(word)
                if word[:1].isupper()
                and word[1:].islower()
                # "naznach CS-15 na olega": a name in lower case, said as whom it goes to
                or word.islower()
                and re.search(r"(?i)\b(?:na|dlya|k|u|ot)\s+$", text[: m.start()])
                else None
            )
            or word
        )
        if typed is not None and out != word:
            typed.setdefault(out.lower(), word)
        return out

    return _WORD.sub(spelled, text)


_CYRILLIC_WORD = LazyRe(r"[А-Яа-яЁё]+")


def as_typed(text: str, typed: dict[str, str]) -> str:
    """The person's own words (a title, a comment) as they typed them: "kupit novye noutbuki", never a mix
    of the words read in Cyrillic and those left in Latin letters."""
    if not typed:
        return text
    return _CYRILLIC_WORD.sub(lambda m: typed.get(m.group(0).lower(), m.group(0)), text)
