"""Shorthand people type into trackers and chats, rewritten into the plain requests the rules read:
"#103 and #101 both urgent", "ENG: security review, urgent, assign Oleg", "eng102 wontfix", "ENG-106: assignee →
me", «сумма 30к → 40к», "comment '…' + move to In Review", "cs15 stays in backlog", "tell Oleg on ENG-106
that …", "Is ENG-103 still unassigned? If so, …", «заведи таску на Олега — …», «подписали — Won и онбординг».
Each rewrite keeps the person's words; it only says the same request the long way."""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.analysis import CUES
from planner.text import lemmas

__all__ = ["plain"]

_AN_ISSUE = r"[A-Za-z]{2,5}-\d+"
_WORD = LazyRe(r"[^\W\d_]+", re.UNICODE)
# "ENG-105 and DES-7 both to in review", «ENG-102 и DES-7 оба на Олега»: one change for each, as an arrow
_BOTH = LazyRe(  # (said first: "close ENG-101 and ENG-105 both shipped" says why, with its own verb)
    rf"(?im)(?:^|(?<=[.;!?]\s))\s*({_AN_ISSUE}(?:\s*(?:,|and|и|&)\s*{_AN_ISSUE})+)\s+(?:both|оба|обе)\s+(?:(?:to|на|в|во|->|→)\s+)?(?=\S)"
)
# "drop everything in CS to low priority", "knock ENG-104 down to medium": a priority lowered, not deleted
_DROP_TO_PRIORITY = LazyRe(
    r"(?i)\b(?:drop|knock)(?=\s+[^.;!?]{1,80}?\s+(?:down\s+)?to\s+(?:low|medium|normal|no|p[2-4])\b)"
)
# "ENG: security review of the auth service, urgent, assign Oleg", "- DES: 'Empty states', medium, project …":
# a team's key as a heading, then a title and an issue's fields: a new issue there (a field must be said:
# "ENG: what's open?" and "ENG: the PDF crash" stay what they were)
_TEAM_HEADED = LazyRe(
    r"(?m)^(\s*(?:[-•*]\s+)?)([A-Z]{2,5})(?:\s*:\s+(?=\S)|\s+(?=(?i:новая|новый|новое|new)\s*:))([^\n]*)$"
)
_ISSUE_FIELD = LazyRe(
    r"(?i)(?:,|;|\s[—–-]|→)\s*(?:→\s*)?(?:assign(?:ed)?\b|label\b|due\b|p[0-4]\b|(?:urgent|high|medium|low)(?:\s+prio\w*)?\s*(?:[,;]|$)|"
    r"project\b|на\s+[А-ЯЁ]|срок\b|метк\w*|приоритет\w*|срочн\w*|(?:до|к|by)\s+\d{1,2}\b)|→\s*[A-ZА-ЯЁ][a-zа-яё]+"
    # «DES: иконки для тёмной темы, Макс, до 4 дек»: a colleague's name alone among the items
    r"|,\s*[A-ZА-ЯЁ][a-zа-яё]{2,}\s*(?:,|$)"
)


# "DES: 7 new issues, one per icon: search, filter, …": how many, then the list — the team is where they go
_COUNTED_LIST = LazyRe(
    r"(?i)((?:\d+|two|three|four|five|six|seven|eight|nine|ten|две|два|три|четыре|пять|шесть|семь|восемь)\s+"
    r"(?:new\s+|нов\w+\s+)?(?:issues|tickets|bugs|tasks|задач\w*|тикет\w*|таск\w*|баг\w*)\b)([^:]*:\s*\S.*)"
)


def _team_headed(m: re.Match[str]) -> str:
    lead, key, body = m.group(1), m.group(2), m.group(3)
    if said_new := re.match(r"(?i)(?:новая|новый|новое|new)\s*:\s*(?=\S)", body):  # «ENG новая: rate limit …»
        russian = re.search(r"[а-яё]", body, re.I)
        rest = body[said_new.end() :]
        return f"{lead}новая задача в {key}: {rest}" if russian else f"{lead}new {key} issue: {rest}"
    if counted := _COUNTED_LIST.match(body):
        place = "в" if re.search(r"[а-яё]", counted.group(1), re.I) else "in"
        return f"{lead}{counted.group(1)} {place} {key}{counted.group(2)}"
    if (
        not _ISSUE_FIELD.search(body)
        or re.match(
            r"(?i)(?:\d+|two|three|four|five|две|два|три|четыре|пять)\s", body
        )  # "ENG: 3 ишью на релиз — …"
        or re.search(r"\b[A-Za-z]{2,5}-\d+\b|\?\s*$", body)  # one there is, or a question
        or (first := _WORD.match(body)) is not None
        and (first.group(0).lower() in _HEADED_VERBS)
    ):
        return m.group(0)
    russian = re.search(r"[а-яё]", body, re.I)
    return f"{lead}новая задача в {key}: {body}" if russian else f"{lead}new {key} issue: {body}"


_HEADED_VERBS = frozenset(
    "close move assign set add create make put drop mark rename delete archive comment list show find what who "
    "how why where is are can please закрой переведи назначь поставь добавь создай заведи удали покажи что кто "
    "какие сколько".split()
)
# «сумма 30к → 40к», "amount 30k -> 40k": the old value said before the new one; only the new one is meant
_OLD_VALUE_ARROW = LazyRe(
    r"(?i)(?<![\w.,:-])[$€]?\d[\d\s.,]*(?:k|к|тыс\.?|тысяч\w*)?\s*(?:usd|eur|rub|\$|€|₽|руб\.?)?\s*(?:→|->)\s*(?=[$€]?\d)"
)
# "ENG-106: due → Mon, assignee → me; project → Website Redesign": whose and where, by arrow
_FIELD_ARROWS = (
    (LazyRe(r"(?i)\b(?:assignee|исполнитель)\s*(?:→|->|=>|=)\s*"), "assign to "),
    (LazyRe(r"(?i)\bproject\s*(?:→|->|=>|=)\s*"), "move it to project "),
    (LazyRe(r"(?i)\bпроект\s*(?:→|->|=>|=)\s*"), "в проект "),
)  # (a due date, a priority or a state by arrow is read as said: "due → Mon" already is)


def _issue_field_arrows(text: str) -> str:
    if not re.search(r"(?i)\b[a-z]{2,5}[-\s]?\d+\b", text) or not re.search(r"→|->|=", text):
        return text
    for pattern, said in _FIELD_ARROWS:
        text = pattern.sub(said, text)
    return text


_A_THING_ASKED = LazyRe(r"(?i)(?:напоминалк|напоминани|reminder|таск|todo|to-do|task)\w*$")


# "comment '…' + move to In Review": a plus between two requests joins them as "and" would
def _plus_joined(text: str) -> str:
    if " + " not in text:
        return text
    quotes = [q.span() for q in re.finditer(r"«[^«»]*»|“[^“”]*”|\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)", text)]
    verbs = (
        CUES["create"] | CUES["complete"] | CUES["move"] | CUES["assign"] | CUES["comment"] | CUES["put"]
        | CUES["remind"] | CUES["note_verb"]
    )  # fmt: skip

    def joined(m: re.Match[str]) -> str:
        word = m.group(1).lower()
        following = text[m.end() :].split()[1:2]  # (the word after this one: "+ crm task …")
        if (
            _A_THING_ASKED.match(word)
            or (
                word in ("crm", "attio", "linear", "a", "an")
                and _A_THING_ASKED.match(following[0] if following else "")
            )
        ):  # "… + напоминалку мне на завтра …", "+ a task for Max", "+ crm task for me fri …": the next request
            return ", и " if re.match(r"[а-яё]", word) else ", and "
        if re.fullmatch(r"(?i)contact|person|контакт|человек\w*", word) and not any(
            a < m.start() < b for a, b in quotes
        ):
            return (
                ", и добавь " if re.search(r"[а-яё]", text, re.I) else ", and add "
            )  # "new co … + contact …"
        if any(a < m.start() < b for a, b in quotes):
            return m.group(0)  # "rename it to 'login + signup page'": a title's own plus
        if word in verbs or lemmas(word) & verbs:
            return ", и " if re.match(r"[а-яё]", word) else ", and "  # («… + напомни мне …»: in its language)
        # "ENG-103 -> max + in progress": one issue's fields, listed
        return ", " if re.search(r"\b[A-Za-z]{2,5}-\d+\b", text) else m.group(0)

    def headed(m: re.Match[str]) -> str:  # "… + CS: выдать доступы Globex, на меня": a new issue in CS
        russian = re.search(r"[а-яё]", m.group(2), re.I)
        return f"; новая задача в {m.group(1)}: " if russian else f"; new {m.group(1)} issue: "

    text = re.sub(r"\s+\+\s+([A-Z]{2,5})\s*:\s*(?=(\S+))", headed, text)
    return re.sub(r"\s+\+\s+(?=([^\W\d_]+))", joined, text)


# "tell Oleg on ENG-106 that the security team wants it done by Thursday", «напиши Олегу в ENG-106, что …»:
# words for a colleague left on an issue are a comment there (addressed to them), not a change of it
_TOLD_ON_AN_ISSUE = LazyRe(
    r"(?i)^\s*(?:please\s+)?(?:tell|ask|remind|ping|let)\s+([^\W\d_]+)\s+(?:know\s+)?(?:on|in|under)\s+"
    r"([A-Za-z]{2,5}-\d+)\s*[,:]?\s*(?:that\s+)?(?=\S)"
    r"|^\s*(?:напиши|скажи|передай|напомни)\s+([^\W\d_]+)\s+(?:в|под)\s+([A-Za-z]{2,5}-\d+)\s*[,:]?\s*(?:что\s+)?(?=\S)"
)


def _told_on_an_issue(m: re.Match[str]) -> str:
    if m.group(1):
        return f"comment on {m.group(2)}: {m.group(1)}, "
    return f"прокомментируй {m.group(4)}: {m.group(3)}, "


# "…, cs15 stays in backlog", «CS-15 остаётся в бэклоге»: where it is now, said to leave it there
_STAYS = LazyRe(
    r"(?i)\b([A-Za-z]{2,5}[-\s]?\d+)\s+(?:(?:can|should)\s+)?(stays?|remains?|(?:пусть\s+)?оста[её]тся|останется)\b"
    # (up to a change said of it next: "CS-13 stays with Oleg but set due Dec 10")
    r"(?:(?!\b(?:but|но|однако|only|just|только)\b)[^,;.!?\n])*"
)


def _stays(m: re.Match[str]) -> str:
    space = " " if m.group(0)[-1:].isspace() else ""  # ("… but set due Dec 10" goes on after it)
    return (f"{m.group(1)} leave as is" if m.group(2).isascii() else f"{m.group(1)} не трогай") + space


# «заведи таску на Олега — поменять SSL серт», "new ticket for Max - rotate keys": the dash says what the task
# is, as a colon would (the message is then one request, its whom kept)
_TASK_DASH = LazyRe(
    r"(?i)^((?=[^:\n]{0,40}?\b(?:заведи|завели|создай|сделай|поставь|добавь|закинь|нужн[аы]|new|create|open|file|log|add|make)\b)"
    r"[^:\n]{0,40}?\b(?:задач[уа]|таск[уа]?|тикет|issue|ticket|task)(?:\s+(?:на|для|в|for|in)\s+[^\s—–:-]+){0,2})\s+[—–-]\s+(?=\S)"
)
# "Is ENG-103 still unassigned? If so, give it to Oleg", «CS-15 всё ещё в бэклоге? Если да — закрой»: asked, then
# what to do when it is so — the same as "if ENG-103 is still unassigned, give it to Oleg"
_IF_SO = LazyRe(
    r"(?i)^\s*(?:is|are)\s+(.+?)\s+(still|already|yet)\s+([^?]+?)\s*\?\s*(?:if\s+so|if\s+yes|if\s+it\s+is)\s*[,:—–-]?\s*(?=\S)"
    r"|^\s*([^?]+?)\s+(вс[её]\s+ещ[её]|ещ[её]|уже)\s+([^?]+?)\s*\?\s*(?:если\s+да|если\s+так)\s*[,:—–-]?\s*(?=\S)"
)


def _if_so(m: re.Match[str]) -> str:
    if m.group(1):
        return f"if {m.group(1)} is {m.group(2)} {m.group(3)}, "
    return f"если {m.group(4)} {m.group(5)} {m.group(6)}, "


# "eng102 wontfix": the tracker's word for closing it as not to be done
_WONT_FIX = LazyRe(r"(?i)\b([A-Za-z]{2,5}[-\s]?\d+)\s*(?:[:—–-]\s*|→\s*)?(?:wontfix|won'?t[\s-]fix)\b")
# «…, а сделку Acme Corp — в переговоры»: the dash only sets the destination apart
_DEAL_DASH_WHERE = LazyRe(r"(?i)\b((?:сделк[уа]|deal)\s+[^,—–;.]{2,40}?)\s+[—–]\s+(?=(?:в|во|на|to|into)\s)")
# «Acme Logistics подписали пилот — Won и онбординг в Linear»: news, then what to do about it, as after a colon
_NEWS_DASH = LazyRe(
    r"(?i)^([^—–:\n]{3,60}?\b(?:подписал\w*|signed|выиграли|закрыли|won|closed)\b[^—–:\n]{0,40}?)\s+[—–]\s+(?=\S)"
)


# "bug: SAML login broken, CS team", "feature request from Globex: SAML login. CS team, label …": the team said
# after the title is where it goes, not words of the title
_TEAM_AFTER_TITLE = LazyRe(
    r"^(?P<head>(?![^:\n]*\b(?i:в|во|in|into)\s)[^:\n]{2,60}?)\s*:\s*(?P<title>[^:\n]+?)\s*[,.;]\s*"
    r"(?:(?:team|команда)\s+(?P<a>[A-Z]{2,5})|(?:the\s+)?(?P<b>[A-Z]{2,5})\s+team)\b\s*(?P<rest>(?:[,.;][^:\n]*)?)$"
)


def _team_after_title(m: re.Match[str]) -> str:
    russian = re.search(r"[а-яё]", m["head"] + m["title"], re.I)
    return f"{m['head']} {'в' if russian else 'in'} {m['a'] or m['b']}: {m['title']}{m['rest']}"


# "feature request from Globex in CS: SAML login": a request logged for a team, i.e. a new issue there
_REQUEST_FOR_A_TEAM = LazyRe(
    r"^\s*(?:an?\s+|new\s+)?(?:feat(?:ure)?\s+req(?:uest)?|bug\s+report|req(?:uest)?)(?:\s+from\s+(?P<who>[^:\n]{2,40}?))?\s+in\s+"
    r"(?P<key>[A-Z]{2,5})\s*:\s*(?P<title>[^,;.\n]+)",
    re.IGNORECASE,
)


def _request_for_a_team(m: re.Match[str]) -> str:
    who = f" (from {m['who'].strip()})" if m["who"] else ""
    return f"new {m['key']} issue: {m['title'].strip()}{who}"


# «таска в Linear: обновить шаблон NDA, на меня, в CS, к 7 декабря»: a team said among the fields after the
# title is where the issue goes
_TEAM_FIELD = LazyRe(
    r"\s*,\s*(?:в|во|in|team|команда)\s+([A-Z]{2,5})(?=\s*(?:,|$))|\s+(?:team|команда)\s+([A-Z]{2,5})(?=[\s,.]|$)"
)
# «Website Redesign новая задача сверстать …»: the project said first, then the new issue
_PROJECT_FIRST = LazyRe(
    r"^\s*(?P<place>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})\s+(?P<new>(?i:новая\s+задача|new\s+issue))\s+(?=\S)"
)


_ID_DASH_CHANGE = LazyRe(
    r"(?i)\b([A-Za-z]{2,5}-\d+)\s+[—–]\s+(?=(?:в|во|на|to|into)\s|закр\w*|done\b|close\b|архив\w*|в\s+работу)"
)


def _team_field_to_head(text: str) -> str:
    head, colon, tail = text.partition(":")
    if (
        not colon
        or "\n" in text
        or re.search(r"\b[A-Z]{2,5}\b", head.replace("CRM", ""))
        or len(head) > 60
        or re.search(
            r"(?i)\b(?:в|во|in|into)\s+(?!(?:linear|линеар\w*|проекте|the)\b)\w", head
        )  # a place said already
    ):
        return text
    field = _TEAM_FIELD.search(tail)
    if field is None or not _ISSUE_WORD.search(head):
        return text
    russian = re.search(r"[а-яё]", head, re.I)
    key = field.group(1) or field.group(2)
    return f"{head} {'в' if russian else 'in'} {key}:{tail[: field.start()]}{tail[field.end() :]}"


_ISSUE_WORD = LazyRe(r"(?i)\b(?:таск\w*|задач\w*|тикет\w*|баг\w*|issue|task|ticket|bug|todo)\b")


# "@oleg", "@me": a colleague mentioned as chat does — with "w/" whom it is with, else whom it is given to
_MENTION = LazyRe(r"(?<![\w.@])@([A-Za-z][\w-]{1,30})\b")


def _mentions(text: str) -> str:
    def said(m: re.Match[str]) -> str:
        who = m.group(1)
        before = text[: m.start()]
        russian = re.search(r"[а-яё]", text, re.I)
        if re.search(
            r"(?i)(?:\bw/|\bwith|\bс|\bсо|\band|\bи|,|->|→|=>|\bto|\bassign|\bна|\bfor|\bдля)\s*$", before
        ):
            return who  # "sync w/ @max", "with @oleg and @max": who it is with; "ENG-103 -> @max": whom it goes to
        if who.lower() == "me":
            return ", на меня" if russian else ", assign to me"
        return f", на {who}" if russian else f", assign to {who}"

    if "@" not in text:
        return text
    text = re.sub(r"\s*[&+]\s*(?=@[A-Za-z])", ", ", text)  # "-> in review & @max": one more field
    return _MENTION.sub(said, text)


def plain(text: str) -> str:
    """`text` with its tracker and chat shorthand said as plain requests (unchanged when it has none)."""
    text = _mentions(text)
    first = _PROJECT_FIRST.match(text)
    if first and ":" not in text:
        russian = re.search(r"[а-яё]", first["new"], re.I)
        place = f"в проекте {first['place']}" if russian else f"in the {first['place']} project"
        text = f"{first['new']} {place}: {text[first.end() :]}"
    text = _team_field_to_head(text)
    text = _ID_DASH_CHANGE.sub(
        r"\1 ", text
    )  # «ENG-102 — на Олега, DES-7 — закрыть»: the dash only sets the change apart
    text = _TEAM_AFTER_TITLE.sub(_team_after_title, text, count=1)
    text = _REQUEST_FOR_A_TEAM.sub(_request_for_a_team, text, count=1)
    text = _TEAM_HEADED.sub(_team_headed, text)
    text = _BOTH.sub(r"\1 → ", text)
    text = _IF_SO.sub(_if_so, text, count=1)
    if ":" not in text:
        text = _TASK_DASH.sub(r"\1: ", text, count=1)
    text = _STAYS.sub(_stays, text)
    text = _TOLD_ON_AN_ISSUE.sub(_told_on_an_issue, text, count=1)
    text = _plus_joined(text)
    text = _issue_field_arrows(text)
    text = _OLD_VALUE_ARROW.sub("", text)
    text = _DROP_TO_PRIORITY.sub("lower", text)
    text = _WONT_FIX.sub(r"\1 → Canceled", text)
    if ":" not in text:
        text = _NEWS_DASH.sub(r"\1: ", text, count=1)
    return _DEAL_DASH_WHERE.sub(r"\1 ", text)
