"""An issue named by its whole title after a word for an issue — «в задачу Crash on export to PDF», "on the
ticket Login page redesign" — is written as its identifier, so the rules read it as they read "ENG-103".

Only where the words say an issue there is: not «создай задачу …» / "a new issue …" (a title for a new one),
and not after a colon (a comment's or description's own words may quote another issue's title). Without a
word for an issue, only a title of three words or more, or one in quotes, said with no word for a new thing
just before it ("Move Mobile onboarding screens back to In Progress")."""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.directory import Directory

__all__ = ["titled_ids"]

# a word for an issue, said just before the title (with a quote mark, maybe)
_NOUN_BEFORE = LazyRe(
    r"(?i)(?:^|(?<=[\s,;(]))(?P<lead>(?:[^\W\d_]+\s+){0,2})(?P<noun>задач\w*|тикет\w*|таск\w*|баг\w*|issue|ticket|"
    r"task|bug)\s+[«\"“']?$"
)
# a new issue's title follows these: «создай задачу …», «добавь задачу …», "open an issue …", "new ticket …"
_NEW_ONE = LazyRe(
    r"(?i)\b(?:созда\w*|завед\w*|заведи|завести|сделай|добавь|добавить|закинь|накидай|открой|поставь|нов\w+|"
    r"ещ[её]|одн[ау]|create|open|add|file|log|make|raise|new|another|an?)\s*$"
)
# the forms of the noun that name an issue there is whatever verb comes before («задаче», «тикета»)
_OBLIQUE = LazyRe(r"(?i)^(?:задач(?:е|и|ей|ам|ами|ах)|тикет(?:у|а|ом|е)|таск(?:у|а|ом|е)|баг(?:у|а|ом|е))$")
_WORDS = LazyRe(r"[^\W_]+")
# a new thing's name follows these, within a few words: "create …", "new …", "called …", «под названием …»
_NEW_ONE_NEAR = LazyRe(
    r"(?i)\b(?:созда\w*|завед\w*|заведи|завести|добавь|добавить|закинь|открой|нов\w+|назов\w*|названи\w*|"
    r"create|open|add|file|log|new|another|called|named|titled|rename\w*|переименуй\w*|schedule|book|"
    r"task|issue|ticket|bug|задач\w*|тикет\w*|баг\w*|todo)\b"
)
_NEW_TITLE_BEFORE = LazyRe(
    r"(?i)\b(?:title|titled|name|named|rename\w*|retitle\w*|call(?:ed)?|переименуй\w*|назов\w*|назван\w*|заголов\w*)\b"
    r"[^.!?\n]*?(?:\bto|\bв|\bна|->|→|:)\s*$"
)
_CONTENT_HEAD = LazyRe(
    r"(?i)\b(?:comment\w*|коммент\w*|description|desc|описани\w*|note|notes|заметк\w*|title|назван\w*|text|текст\w*|"
    r"body|message|сообщени\w*|reply|ответ\w*|say|says|скажи|напиши|write)\b"
)
_OPENING, _CLOSING = "«\"“'", "»\"”'"


def _inside_quotes(text: str, at: int) -> bool:
    return any(a < at < b for a, b in (q.span() for q in re.finditer(r"«[^«»]*»|\"[^\"]*\"|“[^“”]*”", text)))


async def titled_ids(text: str, directory: Directory) -> str:
    if len(_WORDS.findall(text)) < 3:
        return text
    # words after a colon are content when the head says so (a comment, a description, a note, a new title)
    head_end = text.find(":")
    colon = head_end if head_end >= 0 and _CONTENT_HEAD.search(text[:head_end]) else -1
    spans: list[tuple[int, int, str]] = []
    for issue in sorted(await directory.issue_titles(), key=lambda e: -len(e.name)):
        title = issue.name.strip()
        if len(title) < 8 or len(_WORDS.findall(title)) < 2:
            continue  # a one-word title ("Docs") is a word of the request as often as a name
        for m in re.finditer(rf"(?i)(?<!\w)[«\"“']?{re.escape(title)}[»\"”']?(?!\w)", text):
            if 0 <= colon < m.start() or any(a < m.end() and m.start() < b for a, b, _ in spans):
                continue
            if _NEW_TITLE_BEFORE.search(text[: m.start()]):
                continue  # "Change the title of CS-15 to Quarterly check-in with Initech (December)": the new one
            opened, closed = m.group(0)[0] in _OPENING, m.group(0)[-1] in _CLOSING
            if opened != closed or not opened and _inside_quotes(text, m.start()):
                continue  # "rename it to 'Update API docs for v2 and v3'": a new title that starts like the old
            before = _NOUN_BEFORE.search(
                text[: m.start()] + ("" if m.group(0)[0].isalnum() else m.group(0)[0])
            )
            if before is None:
                # "Move Mobile onboarding screens back to In Progress", "When is 'Update API docs for v2' due?":
                # a whole title of three words or more, or one in quotes, with no word for a new one before it
                quoted = not m.group(0)[0].isalnum()
                lead = re.split(r"[.!?;\n]\s", text[: m.start()])[-1]  # (its own sentence)
                if (len(_WORDS.findall(title)) < 3 and not quoted) or _NEW_ONE_NEAR.search(lead):
                    continue  # "add a task for me to review the mobile onboarding screens": what a new one is about
            elif not _OBLIQUE.match(before.group("noun")) and _NEW_ONE.search(before.group("lead")):
                continue  # «добавь задачу Crash on export to PDF»: a new one, by that title
            spans.append((m.start(), m.end(), issue.id))
    for start, end, ident in sorted(spans, reverse=True):
        text = f"{text[:start]}{ident}{text[end:]}"
    return text
