"""Text pasted across several lines, as people paste it into a chat: a quoted email ("> …") with the
request after it, a contact's card ("name: …", "email: …"), a table ("| deal | amount |"), values listed
under a heading («Обнови суммы:\\nРомашка — 1 350 000 ₽»), and a list of requests under the record they
are all about («По Ромашке:\\n1) …\\n2) …»). Each is reshaped into the one-line form the rules read; the
quoted words become context, or what "this" / "her message" in the request stands for.
"""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.analysis import KEPT_COLON
from planner.text import is_imperative

__all__ = ["reshape"]


_QUOTED = LazyRe(r"^\s*(?:>\s?)+")  # (">> " nested by a reply or two)
_EMAIL_HEADER = LazyRe(r"(?i)^\s*(?:от|from|тема|subject|кому|to|cc|date|дата|sent|отправлено)\s*:\s*\S")


def _email_as_quoted(lines: list[str]) -> list[str]:
    """ "От: Иван Петров <…>\nТема: SSO\nДобрый день, …\n\nplease comment this to CS-13": an email pasted with
    its headers, up to the blank line after it, is someone's words (as if quoted with ">")."""
    first = next((i for i, x in enumerate(lines) if _EMAIL_HEADER.match(x)), None)
    if first is None or any(_QUOTED.match(x) for x in lines):
        return lines
    headers = first
    while headers < len(lines) and _EMAIL_HEADER.match(lines[headers]):
        headers += 1
    if not any(re.match(r"(?i)\s*(?:от|from)\s*:", x) for x in lines[first:headers]):
        return lines  # "Subject: ENG-105" alone: a heading of the request, no email
    body = headers + 1 if headers < len(lines) and not lines[headers].strip() else headers
    end = next((i for i in range(body, len(lines)) if not lines[i].strip()), len(lines))
    if not any(x.strip() for x in [*lines[:first], *lines[end:]]):
        return lines  # nothing said before or after it: no request to read it for
    return [*lines[:first], *(f"> {x}" for x in lines[first:end] if x.strip()), *lines[end:]]


# a ticket or bug report pasted with its fields ("Subject: …\nBody: …", «Тема: …\nОписание: …"), and a request
# around it for an issue: the subject is the title, the body its description
_TICKET_SUBJECT = LazyRe(r"(?i)^\s*(?:subject|summary|title|тема|заголовок)\s*:\s*(?P<value>\S.*)$")
_TICKET_BODY = LazyRe(r"(?i)^\s*(?:body|description|details|описание|текст|детали)\s*:\s*(?P<value>.*)$")
_ASKS_AN_ISSUE = LazyRe(r"(?i)\b(?:bug|issue|ticket|task|баг\w*|задач\w*|тикет\w*|ишью)\b")


def _ticket(lines: list[str]) -> str | None:
    at = next((i for i, x in enumerate(lines) if _TICKET_SUBJECT.match(x)), None)
    subject = _TICKET_SUBJECT.match(lines[at]) if at is not None else None
    described = _TICKET_BODY.match(lines[at + 1]) if at is not None and at + 1 < len(lines) else None
    if at is None or subject is None or described is None:
        return None
    end = next((i for i in range(at + 1, len(lines)) if not lines[i].strip()), len(lines))
    asked = " ".join(x.strip() for x in [*lines[:at], *lines[end:]] if x.strip()).rstrip(" :")
    if not asked or not _ASKS_AN_ISSUE.search(asked) or any(_EMAIL_HEADER.match(x) for x in lines[:at]):
        return None
    title = subject["value"].strip()
    body = " ".join([described["value"].strip(), *(x.strip() for x in lines[at + 2 : end])]).strip()
    noun = list(_ASKS_AN_ISSUE.finditer(asked))[-1]  # ("Support ticket pasted below, turn it into a bug")
    said = f" «{_unquoted(title)}»" + (f" with description «{_unquoted(body)}»" if body else "")
    return (
        asked[: noun.end()] + said + asked[noun.end() :]
    )  # "turn it into an ENG bug «…» with description «…»"


def _unquoted(text: str) -> str:
    return text.replace("«", '"').replace("»", '"')


# a chat's line as a messenger copies it: "[10:14] Олег: …", "[#cs] Max: …", "[12/03 09:15] @max: …"
_CHAT_LINE = LazyRe(
    r"^\s*\[(?!\d{4}-)[^\]\n]{1,24}\]\s*@?(?P<who>[^\W\d_][\w.-]*(?:\s+[^\W\d_][\w.-]*)?)\s*:\s+"
)
_SIGNATURE = LazyRe(
    r"(?i)^\s*(?:[—–-]{1,2}\s*\S|(?:best|regards|kind regards|cheers|thanks|thank you|с уважением|спасибо)\b[,!.]?)"
)
# "this", "her message", «это письмо»: the quoted words, where the request points at them
_POINTS_AT_QUOTE = LazyRe(
    r"(?i)\b(?:(?:her|his|their|the|this|that|[a-z]+'s)\s+(?:message|email|e-mail|reply|note|text)"
    # "this email from Jane", «это письмо от Джейн»: who wrote it is said with it
    r"(?:\s+from\s+(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)?|"
    r"(?:это|его|её|ее|их)\s+(?:письмо|сообщение|ответ)(?:\s+от\s+(?-i:[А-ЯЁA-Z])[\w-]+(?:\s+(?-i:[А-ЯЁA-Z])[\w-]+)?)?|"
    r"this|that|it|это)\b"
)
_NOTE_WORD = LazyRe(
    r"(?i)\b(?:note|заметк\w*|comment|коммент\w*|карточк\w*|log(?!\s+(?:an?\s+)?(?:bug|issue|ticket|task))|залогиру\w*)\b"
)  # («занеси это в карточку Марии», "log this on Globex")
_CARD_KEYS = {
    "name": "", "full name": "", "имя": "", "фио": "", "email": "email", "e-mail": "email", "mail": "email",
    "почта": "почта", "company": "company", "компания": "компания", "title": "title", "role": "title",
    "position": "title", "job title": "title", "должность": "должность", "phone": "phone", "телефон": "телефон",
    "название": "название", "domain": "domain", "домен": "домен", "team": "team", "команда": "команда", "state": "state",
    "status": "state", "статус": "статус", "assignee": "assignee", "исполнитель": "исполнитель",
    "priority": "priority", "приоритет": "приоритет", "stage": "stage", "стадия": "стадия",
    "amount": "amount", "сумма": "сумма", "owner": "owner", "ответственный": "ответственный",
    "due": "due", "срок": "срок", "label": "label", "метка": "метка", "project": "project", "проект": "проект",
}  # fmt: skip
_RECORD_WORD = LazyRe(
    r"(?i)\s+(?:record|card|entry|карточк\w*|запис\w*|as\s+follows|with\s+the\s+following|следующим\s+образом|так)"
    r"(?=\s*:?\s*$)"
)
_AN_ISSUE = LazyRe(r"(?i)\b(?:issue|ticket|task|bug|задач\w*|тикет\w*|баг\w*)\b")
_AN_ISSUE_SAID = LazyRe(r"(?i)\b[A-Z]{1,10}-\d+\b")
_CARD_LINE = LazyRe(r"^\s*([^\W\d_][\w -]{0,18}?)\s*:\s*(\S.*?)\s*$")
_QUOTE_MARKS = "\"'«»`"
_TO_A_COLLEAGUE = LazyRe(r"^\s*(?:cc\s*:?\s*)?@[\w.-]+")
_MARKED_ITEM = LazyRe(r"^\s*(?:\d{1,2}\.|[a-e]\))\s+(?=\S)")
_ITEM = LazyRe(r"^\s*(?:[-•*–—]|\d{1,2}[.)]|[a-e]\))\s+")
_VALUE_LINE = LazyRe(r"^\s*([^—–:|]+?)\s+[—–-]\s+(\S.*?)\s*$")  # «Ромашка — 1 350 000 ₽»
_FIELD_NOUN = {
    "сумм": "сумма", "amount": "amount", "value": "amount", "стади": "стадия", "stage": "stage",
    "владел": "ответственный", "ответствен": "ответственный", "owner": "owner", "срок": "срок", "due": "due",
}  # fmt: skip


_TITLE_LINE = LazyRe(r"(?i)^\s*(?:title|заголовок|название)\s*[:—–-]\s*(?P<title>[^«»\"“”]{3,200}?)\s*$")
_A_TICKET_SAID = LazyRe(r"(?i)\b(?:ticket|issue|bug|task|тикет\w*|задач\w*|баг\w*)\b")


def reshape(text: str) -> str:
    """`text` with its pasted parts put into the rules' one-line forms (unchanged when it is one line)."""
    lines = [x.rstrip() for x in text.splitlines()]
    if len([x for x in lines if x.strip()]) < 2:
        return text
    # "@Max FYI, no action needed from you.": said to a colleague beside the request, asks nothing of me
    to_others = [x for x in lines if _TO_A_COLLEAGUE.match(x)]
    if to_others and len([x for x in lines if x.strip()]) - len(to_others) >= 2:
        lines = [x for x in lines if not _TO_A_COLLEAGUE.match(x)]
        text = "\n".join(lines)
    if sum(1 for x in lines if _MARKED_ITEM.match(x)) >= 2:  # "1. …\n2. …", "a) …\nb) …": one item a line
        lines = [_MARKED_ITEM.sub("- ", x) for x in lines]
        text = "\n".join(lines)
    lines = _between_rules(lines)
    lines = _email_as_quoted(lines)
    lines = _quoted_lines(lines)
    titled = any(_A_TICKET_SAID.search(x) for x in lines) and any(_TITLE_LINE.match(x) for x in lines)
    if titled:
        # "Title: Password reset link expires too fast" on a line of its own: the new issue's title, whole
        lines = [_TITLE_LINE.sub(lambda m: f"titled «{m['title'].strip()}»", x) for x in lines]
        text = "\n".join(lines)
    ticket = _ticket(lines)
    if ticket:
        return ticket
    if sum(1 for x in lines if _CHAT_LINE.match(x)) >= 1 and any(
        x.strip() and not _CHAT_LINE.match(x) for x in lines
    ):  # "[10:14] Олег: ENG-106 готово", "[#cs] Max: …": a chat pasted, each line someone's words
        lines = [_CHAT_LINE.sub(r"> \g<who>: ", x) if _CHAT_LINE.match(x) else x for x in lines]
    quoted = [_QUOTED.sub("", x) for x in lines if _QUOTED.match(x)]
    if quoted:
        return _with_quote(lines, quoted)
    rest = [x for x in lines if x.strip()]
    standup = _standup(rest) or _notes_saved(rest)
    if standup:
        return standup
    items = _action_items(rest) or _notes_then_asked(rest)
    if items:
        return items
    pasted = _days_listed(rest) or _pasted_then_asked(rest) or _asked_then_pasted(rest) or _items_below(rest)
    if pasted:
        return pasted
    return _table(rest) or _card(rest) or _values(rest) or _about(rest) or _listed_then_asked(rest) or text


# a stand-up pasted: a heading, then a line per person ("Anna: ENG-104 -> In Review", "oleg - ENG-101 is done; he
# takes ENG-103"): each line what changes, said of that person
_STANDUP_HEAD = LazyRe(
    r"(?i)^\s*(?:daily\s+|weekly\s+)?(?:stand-?up|стендап|стэндап|дейли|daily|планёрк\w*|планерк\w*|sync|синк)\b[^\n]*$"
)
_SPEAKER_LINE = LazyRe(
    r"^\s*(?:[-•*]\s*)?@?(?P<who>[A-Za-zА-ЯЁа-яё][a-zа-яё]{1,14})\s*(?::|\s[-—–]|\s*[—–])\s+(?P<rest>\S.*)$"
)
_NEW_ONE = frozenset({"new", "новое", "новая", "новый", "новая задача"})
_HE_TAKES = LazyRe(
    r"(?i)\b(?:he|she|they|он|она)\s+(?:takes|took|will\s+take|grabs|picks\s+up|берёт|берет|взял[аи]?)\s+(?P<id>[A-Za-z]{1,10}-\d+)"
)
_STARTS_IT = LazyRe(
    r"(?i)\b(?:starts|started|will\s+start)\s+(?P<it>it|[A-Za-z]{1,10}-\d+)(?:\s*\((?:in\s+progress|в\s+работе)\))?"
)
_ASKED_AFTER_WHY = LazyRe(
    r"(?i)^(?P<why>[^,;]{3,80}?),\s+(?P<ask>(?:close|move|assign|add|create|comment|set|put|mark|reopen|archive|"
    r"закрой|переведи|назначь|добавь|создай|заведи|поставь|перенеси)\b.*)$"
)


# notes pasted, and where to keep them said last ("Please save this as a note on Acme Logistics.") or first, as
# their heading («Вставляю заметки со встречи, сохрани к сделке Ромашка — внедрение:»): one note, every line of it
_SAVE_LAST = LazyRe(
    r"(?i)^\s*(?:please\s+|pls\s+|пожалуйста\s+)?(?:save|log|add|put|store|keep|сохрани|запиши|добавь|закинь)\s+"
    r"(?:this|these|that|it|them|all\s+(?:of\s+)?(?:this|these)|это|их|всё\s+это)\s+"
    r"(?:as\s+(?:a\s+)?note|in(?:to)?\s+a\s+note|как\s+заметку|заметкой|в\s+заметку)\s+"
    # (the record only: "… и заведи в CS задачу …" after it is another request, read by the other forms)
    r"(?P<where>(?:on|to|for|under|in|к|в|на|для)\s+(?:(?!\s(?:и|and|а\s+также|then|потом)\s)[^\n«»\"“”:]){2,60}?)"
    # ("… as a note to Initech and create a Linear issue in CS …": another request, said after it)
    r"(?:\s+(?:и|and|а\s+также|then|потом)\s+(?P<next>\S[^\n]*?))?\s*[.!]?\s*$"
)
_SAVE_FIRST = LazyRe(
    r"(?i)^[^\n:]{0,80}?\b(?:save|log|put|store|keep|сохрани|запиши|закинь)\s+(?:(?:them|these|it|это|их)\s+)?"
    r"(?:(?:as\s+(?:a\s+)?note|как\s+заметку|заметкой|в\s+заметку)\s+)?"
    r"(?P<where>(?:on|to|for|under|к|в|на|для)\s+[^\n:]{2,80}?)\s*:\s*$"
)
_NOTE_ITEM = LazyRe(r"^\s*(?:[-•*—–]|\d{1,2}[.)])\s*")


def _notes_saved(lines: list[str]) -> str | None:
    if len(lines) < 3:
        return None
    last, first = _SAVE_LAST.match(lines[-1]), _SAVE_FIRST.match(lines[0])
    said = lines[:-1] if last else lines[1:] if first else []
    if not said or not any(_NOTE_ITEM.match(x) for x in said):
        return None  # (a list of notes, not requests: each line is an item)
    where = (last or first)["where"]  # type: ignore[index]
    body = "; ".join(_NOTE_ITEM.sub("", x).strip().rstrip(":") for x in said if x.strip()).replace(
        ":", KEPT_COLON
    )
    ru = bool(re.search("[а-яё]", where, re.I))
    asked_next = (last["next"] or "") if last else ""
    note = f"{'добавь заметку' if ru else 'add a note'} {where}: {body}"
    return f"{note}\n{asked_next}" if asked_next else note


def _standup(lines: list[str]) -> str | None:
    if len(lines) < 3 or not _STANDUP_HEAD.match(lines[0]) and not lines[0].rstrip().endswith(":"):
        return None
    said = [_SPEAKER_LINE.match(x) for x in lines[1:]]
    if not all(said) or not all(
        m is not None and (m["who"].lower() in _NEW_ONE or re.search(r"[A-Za-z]{1,10}-\d+", m["rest"]))
        for m in said
    ):
        return None  # (a line with no issue of its own is someone's to-do, read by the list rules)
    out: list[str] = []
    for m in said:
        assert m is not None
        who, rest = m["who"], m["rest"].strip()
        if who.lower() in _NEW_ONE:
            out.append(("заведи задачу " if re.search("[а-яё]", rest, re.I) else "create an issue ") + rest)
            continue
        taker = f"to {who}"
        rest = _HE_TAKES.sub(rf"assign \g<id> {taker}", rest)
        rest = _STARTS_IT.sub(lambda t: f"move {t['it']} to In Progress", rest)
        for part in re.split(r"\s*;\s*", rest):
            asked = _ASKED_AFTER_WHY.match(part)  # "rotated the staging key, close ENG-106": what is asked
            out.append(asked["ask"] if asked and not re.search(r"[A-Za-z]{1,10}-\d+", asked["why"]) else part)
    return "\n".join(x for x in out if x.strip())


# notes of a meeting, then "Action items: …" and "do the action items": only the items are asked for
_ACTION_ITEMS = LazyRe(
    r"(?i)^\s*(?:action\s+items?|next\s+steps|to-?dos?|a\.?i\.?|экшн[-\s]*айтем\w*|экшен[-\s]*айтем\w*|"
    r"(?:наши\s+)?действия|что\s+делаем|договорились|решили)\s*[:—–-]\s*(.*)$"
)
_DO_THE_ITEMS = LazyRe(
    r"(?i)\b(?:сделай|сделайте|выполни|оформи|заведи|запусти|do|handle|process|action|set\s+up|go\s+ahead\s+with)\b"
    r".*\b(?:action\s+items?|items|next\s+steps|to-?dos|по\s+ним|по\s+пунктам|экшн\w*|экшен\w*|them|these|это)\b"
)


def _action_items(lines: list[str]) -> str | None:
    head = next((i for i, x in enumerate(lines) if _ACTION_ITEMS.match(x)), None)
    if head is None or head == 0 or not _DO_THE_ITEMS.search(lines[-1]) or _ACTION_ITEMS.match(lines[-1]):
        return None
    first = _ACTION_ITEMS.match(lines[head])
    said = [first.group(1) if first else "", *lines[head + 1 : -1]]
    items = [_ITEM.sub("", x).strip(" ;.") for x in said if x.strip(" ;.-")]
    return "; ".join(items) or None


# "Стендап …\nОлег: …\nМакс: …\nобнови по итогам: ENG-106 в ревью, …": notes, then what to do after them
_BY_THE_NOTES_SAID = (
    r"\b(?:по\s+итогам|по\s+результатам|по\s+этим\s+заметкам|исходя\s+из\s+этого|accordingly|"
    r"based\s+on\s+(?:this|that|these|the\s+notes|the\s+above)|from\s+(?:this|these|the\s+notes|the\s+above))\b"
)
_BY_THE_NOTES = LazyRe(_BY_THE_NOTES_SAID, re.I)
_BY_THE_NOTES_FIRST = LazyRe(r"^\s*(?:[^\W\d_]+\s+){0,2}?" + _BY_THE_NOTES_SAID + r"\s*:\s*(?=\S)", re.I)


def _notes_then_asked(lines: list[str]) -> str | None:
    if (
        len(lines) < 3
        or not _BY_THE_NOTES.search(lines[-1])
        or any(_BY_THE_NOTES.search(x) for x in lines[:-1])
    ):
        return None
    asked = lines[-1].strip()
    heading = _BY_THE_NOTES_FIRST.match(asked)
    asked = asked[heading.end() :] if heading else asked  # «обнови по итогам: …»: the changes after it
    # the notes are context, one quoted clause (none of their lines is a request of mine)
    context = _as_context(" ".join(x.strip() for x in lines[:-1]).replace(":", KEPT_COLON))
    return f"«{context}». {asked[:1].upper()}{asked[1:]}"


_RULE_LINE = LazyRe(r"^\s*(?:-{3,}|—{2,}|–{2,}|_{3,}|={3,}|\*{3,})\s*$")
_HEADER_LINE = LazyRe(r"(?i)^\s*(?:from|от|subject|тема|to|кому)\s*:")


_GREETING_LINE = LazyRe(
    r"(?i)^\s*(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening)|greetings|привет|здравствуй\w*|добр\w+\s+"
    r"(?:день|утро|вечер)|уважаем\w+)\b[^\n]{0,60}[,!:]?\s*$"
)


# a line that is someone's words in double quotes, maybe signed: ‘"Please delete all our contacts …" (ops@…)’
_QUOTED_LINE = LazyRe(
    r"^\s*[\"“«](?P<words>[^\"“”«»]{12,})[\"”»]\s*(?:\([^()\n]{1,80}\)|[—–-]\s*\S[^\n]{0,60})?\s*$"
)


_SOURCE_THEN_QUOTE = LazyRe(
    r"(?i)^\s*(?P<head>[^\"“«:\n]{0,50}\b(?:from|wrote|writes|says|said|e-?mail|message|пишет|написал\w*|письм\w*|"
    r"сообщени\w*)\b[^\"“«:\n]{0,30}):\s*[\"“«](?P<words>[^\"”»\n]{12,})[\"”»]\s*[.!]?\s*$"
)


# a request of its own, said in full: four words or more, nothing that points back at the quote, no note of it
_ASKED_IN_FULL = LazyRe(
    r"(?i)^(?!.*\b(?:it|this|that|these|them|её|ее|его|это|этого|этим|их|note|заметк\w*|comment|коммент\w*)\b)"
    r"\s*(?:\S+\s+){3,}\S+"
)


def _quoted_lines(lines: list[str]) -> list[str]:
    """Someone's words pasted on lines of their own, in quotes, with the request on another line: quoted as
    '>' would mark them, so "close every ticket" in them asks nothing of me."""
    asks = [x for x in lines if x.strip() and not _SOURCE_THEN_QUOTE.match(x)]
    if asks and all(_ASKED_IN_FULL.match(x) for x in asks):
        # 'Email from Jane Doe: "We'll need …"' on a line, then a request said in full below it (not "pls book",
        # not "add a note": those are about the quoted words)
        split: list[str] = []
        for x in lines:
            m = _SOURCE_THEN_QUOTE.match(x)
            split += [f"{m['head']}:", f"> {m['words']}"] if m else [x]
        lines = split
    said = [i for i, x in enumerate(lines) if _QUOTED_LINE.match(x)]
    rest = [x for i, x in enumerate(lines) if x.strip() and i not in said]
    if not said or not rest or any(_QUOTED.match(x) for x in lines):
        return lines
    for x in (
        rest
    ):  # "comment on ENG-106 what customer sent us:", «закинь в сделку заметкой»: the quote is its words
        asked = _NOTE_WORD.search(x)
        if asked and (
            x.rstrip().endswith(":") or not re.search(r"(?i)\b(?:that|что|saying)\b|:", x[asked.end() :])
        ):
            return lines
    return [f"> {_QUOTED_LINE.match(x)['words']}" if i in said else x for i, x in enumerate(lines)]  # type: ignore[index]


def _between_rules(lines: list[str]) -> list[str]:
    """A pasted email between two '---' lines (or above one, opening with its "From:"): quoted, as '>' would mark
    it, so its sentences ("Could you send …?") are the sender's words, not requests of mine."""
    rules = [i for i, x in enumerate(lines) if _RULE_LINE.match(x)]
    if len(rules) >= 2:
        start, end = rules[0], rules[-1]
    elif len(rules) == 1 and (
        _HEADER_LINE.match(first := next((x for x in lines if x.strip()), "")) or _GREETING_LINE.match(first)
    ):  # ("Hi Anna,\n…\nBest,\nJane\n---\nPut a QBR with John on Dec 1": the letter above the line)
        start, end = -1, rules[0]
    else:
        return lines
    inside = [x for x in lines[start + 1 : end] if x.strip()]
    outside = [x for i, x in enumerate(lines) if (i < start or i > end) and x.strip()]
    if not inside or not outside:
        return lines
    return [
        ("> " + x if start < i < end else x)
        for i, x in enumerate(lines)
        if i not in (start, end) and not (start < i < end and _RULE_LINE.match(x))
    ]


# "Pasting from Jane's email: "…"\nlog this on Globex and remind me Friday …": what was pasted, then the ask
_PASTED_HEAD = LazyRe(
    r"(?i)^\s*(?:pasting|pasted|copying|copied|forwarding|fwd|here'?s|вот|пересылаю|переслал\w*|копирую|скопировал\w*|"
    r"текст|from|от|из)\b[^:\n]{0,60}:\s*(?P<body>.*)$"
    # "Initech QBR, заметки:", "Call with Jane — notes:": a heading over notes taken
    r"|^[^:\n]{0,60}\b(?:заметки|notes|итоги|summary|minutes|протокол)\b[^:\n]{0,40}:\s*(?P<body2>.*)$"
)
# «Текст письма ниже, просто залогируй на Globex pilot:\n\nJane: …»: the ask first, what it is about below it
_ASKED_ABOVE = LazyRe(
    r"(?i)\b(?:ниже|below|following|следующ\w*)\b.*\b(?:залогиру\w*|запиши|log|note|добавь|занеси)\b|"
    r"\b(?:залогиру\w*|запиши|log|note|добавь|занеси)\b.*\b(?:ниже|below|following)\b"
)


_LOG_THIS = LazyRe(
    r"(?i)\b(?:log|note|save|add|put|attach|record|paste|drop|запиши|занеси|добавь|сохрани|закинь|залогируй|прикрепи|"
    r"оставь)\s+(?:this|that|it|это|этот\s+текст|это\s+письмо)\b"
)


# «Прошу зафиксировать сроки:\n— ENG-101: 2 декабря;\n— ENG-102: 9 декабря»: a due date for each issue listed
_DUE_HEADING = LazyRe(r"(?i)\b(?:срок\w*|дедлайн\w*|due\s+dates?|deadlines?)\b[^:\n]*:?\s*$")
_ID_AND_DAY = LazyRe(r"^\s*(?:[-•*–—]\s*|\d{1,2}[.)]\s*)?([A-Za-z]{2,5}-\d+)\s*[:—–-]\s*(.+?)\s*[;,.]?\s*$")


def _days_listed(lines: list[str]) -> str | None:
    if len(lines) < 3 or not _DUE_HEADING.search(lines[0]):
        return None
    items = [_ID_AND_DAY.match(x) for x in lines[1:]]
    if not all(items):
        return None
    russian = re.search(r"[а-яё]", lines[0], re.I)
    return "\n".join(f"{m[1]} {'срок' if russian else 'due'} {m[2]}" for m in items if m)


def _asks_at_its_start(line: str) -> bool:
    """ "Заведи по этому задачу в CS: …", "Create a CS issue for it": a request, by its verb said first."""
    first = re.findall(r"[^\W\d_]+", line)[:3]
    return any(is_imperative(w) or w.lower() in _COMMAND_VERBS for w in first)


_COMMAND_VERBS = frozenset(
    "create add make open log file close move assign set schedule book put update remind comment note reassign "
    "archive mark".split()
)


def _pasted_then_asked(lines: list[str]) -> str | None:
    head = _PASTED_HEAD.match(lines[0])
    if (
        head is None
        or len(lines) < 2
        or not (
            _LOG_THIS.search(lines[-1])
            # (a letter pasted as prose, then the request; items listed under a heading are read as a list)
            or len(lines) >= 3
            and _asks_at_its_start(lines[-1])
            and not any(_ITEM.match(x) for x in lines[1:-1])
        )
    ):
        return None
    body = (
        " ".join([head["body"] or head["body2"] or "", *(x.strip() for x in lines[1:-1])])
        .strip()
        .strip(_QUOTE_MARKS + "“”")
        .strip()
    )
    if not body:
        return None
    # (where it came from stays said: "From John @ Acme" is whom "his record" means)
    source = lines[0][: head.start("body" if head["body"] is not None else "body2")].strip(" :")
    asked = lines[-1].strip()
    said = _with_quote_said(asked[:1].upper() + asked[1:], body, "")
    # (said before the ask when it names whom "his record" is; "log this on Globex" says where itself)
    on_them = r"(?i)\b(?:on|to|in)\s+(?:his|her|their|him|them)\b|\b(?:к|в|на)\s+(?:его|её|ее|их|нему|ней|ним)\b|\b(?:ему|ей)\b"
    return f"{source}. {said}" if re.search(on_them, asked) else said


# "Comment on CS-14 with Jane's requirements below, then assign it to Max.\n\nJane's list:\n- SSO …\n- …": the words
# the request points at ("below") are the items under it
_POINTS_BELOW = LazyRe(
    r"(?i)\s*(?:with\s+|с\s+)?(?:(?:the|her|his|their|[\w’']+['’]s)\s+)?(?:[\w-]+\s+){0,2}(?:below|ниже)\b"
)


def _items_below(lines: list[str]) -> str | None:
    pointer = _POINTS_BELOW.search(lines[0]) if not lines[0].rstrip().endswith(":") else None
    items = [_ITEM.sub("", x).strip() for x in lines[1:] if _ITEM.match(x)]
    others = [x for x in lines[1:] if not _ITEM.match(x)]
    if (
        pointer is None
        or len(items) < 2
        or len(others) > 1
        or others
        and not others[0].rstrip().endswith(":")
    ):
        return None
    asked = lines[0][: pointer.start()] + lines[0][pointer.end() :]
    cut = re.search(r"(?i)\s*(?:,\s*)?(?:then|and\s+then|and|потом|затем|и)\s+", asked)
    head, tail = (asked[: cut.start()], asked[cut.start() :]) if cut else (asked.rstrip(" ."), "")
    body = "; ".join(items).replace(":", KEPT_COLON)
    return f"{head.rstrip(' ,.')}: «{body}»{tail}"


def _asked_then_pasted(lines: list[str]) -> str | None:
    if len(lines) < 2 or not lines[0].rstrip().endswith(":"):
        return None
    body = " ".join(x.strip() for x in lines[1:]).replace(":", KEPT_COLON)
    pointer = _THIS_PASTED.search(lines[0])
    if (
        pointer
    ):  # "Comment on ENG-101 with this trace and raise it to urgent:\n<the trace>": the words pointed at
        asked = lines[0].rstrip().rstrip(":")
        return f"{asked[: pointer.start()]}«{body}»{asked[pointer.end() :]}"
    if not (_ASKED_ABOVE.search(lines[0]) or _ITS_WORDS_BELOW.search(lines[0])):
        return None
    return f"{lines[0].rstrip()} «{body}»"


# «Добавь в CS-13 комментарий с логом от Ромашки:», "Put the stack trace in the description:": the words of a
# comment, a note or a description are what is pasted below the colon
_ITS_WORDS_BELOW = LazyRe(
    r"(?i)\b(?:коммент\w*|комментари\w*|comment|заметк\w*|note|описани\w*|description)\b[^\n]{0,40}:\s*$"
)
# "with this trace", «этот лог»: what is pasted below the request, pointed at in it
_THIS_PASTED = LazyRe(
    r"(?i)\b(?:this|the\s+following)\s+(?:stack\s*trace|trace|logs?|error|output|snippet|text)\b|"
    r"\b(?:этот|эту|это|следующ\w+)\s+(?:трейс|стектрейс|лог|текст|ошибку|вывод)\b"
)


# "- onboarding empty states\n- invite modal\n\nmake these DES issues, label feature", "…\nfile one ENG
# issue per test": the items first, then what to make of each — said as the list after the request
_OF_EACH = LazyRe(
    r"(?i)\b(?:these|those|them|both|each|every|per|эти|этим|этих|тех|их|обе|обеих|оба|каждо\w*|кажд\w+|по\s+одной|"
    r"по\s+задаче|по\s+тикету)\b"
)
_ONE_PER = LazyRe(
    r"(?i)\b(?:one|an?|одн[ау]|по\s+одной)\s+((?:[A-Z]{2,5}\s+)?)(issue|ticket|task|bug|задач\w*|тикет\w*)\s+"
    r"(?:per|for\s+each|for\s+every|на\s+кажд\w+)\s+[^\W\d_]+"
)


_ISSUES = LazyRe(r"(?i)\b(?:issues?|tickets?|tasks?|bugs?|задач\w*|тикет\w*|баг\w*|таск\w*)\b")


def _listed_then_asked(lines: list[str]) -> str | None:
    items = [i for i, x in enumerate(lines) if _ITEM.match(x)]
    if len(items) < 2 or items != list(range(items[0], items[-1] + 1)) or items[-1] != len(lines) - 2:
        return None
    asked = lines[-1].strip()
    if not (_OF_EACH.search(asked) and _ISSUES.search(asked)):
        return None
    asked = _ONE_PER.sub(lambda m: f"{m.group(1)}{m.group(2)}s for each", asked).rstrip(" .:")
    told = " ".join(x.strip() for x in lines[: items[0]]).rstrip(" :")
    listed = "; ".join(_ITEM.sub("", lines[i]).strip() for i in items)
    return f"{told}. {asked}: {listed}" if told else f"{asked}: {listed}"


def _with_quote(lines: list[str], quoted: list[str]) -> str:
    said = [x for x in quoted if x.strip()]
    # "> Max Weber: I'm off until Monday": who said it, then what — a dash, so no colon of the quote is
    # read as the request's own heading
    body = " ".join(
        _SPEAKER.sub(r"\1 — ", x.strip(), count=1) for x in said if not _SIGNATURE.match(x)
    ).strip()
    signed = " ".join(x.strip(" —–-") for x in said if _SIGNATURE.match(x))
    first = next(i for i, x in enumerate(lines) if _QUOTED.match(x))
    heading = " ".join(x.strip() for x in lines[:first] if x.strip())
    if _FORWARDED.fullmatch(heading.rstrip(" :")):  # "fwd from email:" above the quote: where it came from
        lines = lines[first:]
    elif written := _WRITTEN_BY.fullmatch(heading.rstrip(" :")):  # "Email from John Smith:": who wrote it
        lines, signed = lines[first:], signed or written.group(1)
    request = " ".join(x.strip() for x in lines if x.strip() and not _QUOTED.match(x))
    return _with_quote_said(request, body, signed)


# "fwd from email", "from Slack", «переслано из почты»: where the quote came from, nothing else
_FORWARDED = LazyRe(
    r"(?i)\s*(?:fwd|fw|forwarded|пересла\w*|переслан\w*)?\s*(?:from|из|с)?\s*(?:an?\s+|the\s+)?"
    r"(?:(?:customer|client|their|his|her|клиентское|клиентск\w+|письмо\s+клиента)\s+)?"
    r"(?:e-?mail|slack|telegram|чата?|почты|письма|thread|треда)?\s*"
)
_WRITTEN_BY = LazyRe(
    r"(?i)\s*(?:an?\s+|the\s+)?(?:e-?mail|message|letter|msg|reply|письмо|сообщение|ответ)\s+(?:from|от)\s+"
    r"([^\s,.;:!?]+(?:\s+[^\s,.;:!?]+){0,3})\s*"
)
_SPEAKER = LazyRe(
    r"^(?!(?i:from|to|cc|subject|date|sent|тема|от|кому|дата)\s*:)([A-ZА-ЯЁ][\w.'-]*(?:\s+[A-ZА-ЯЁ][\w.'-]*)?(?:\s*\([^)]{1,40}\))?)\s*:\s+"
)


# "…напиши в комменте спасибо Олегу": the comment's own words follow it (not where it goes: "on the deal")
_WORDS_OF_ITS_OWN = LazyRe(
    r"(?i)\s*(?!(?:on|to|for|in|into|at|under|about|with|and|и|к|в|во|на|по|для|у|про|с|со|of|it|this|that|это|её|ее|его)\b)"
    r"[^\W\d_]{3,}"
)


def _as_context(words: str) -> str:
    """Someone's words as one clause of context: their sentences joined, their own quote marks dropped."""
    # (a dot inside a word — "jane@globex.com", "v2.4" — is no sentence's end)
    return re.sub(r"\s*[.!?;]+(?!\w)\s*", ", ", words).strip(" ,").replace("«", "").replace("»", "")


def _with_quote_said(request: str, body: str, signed: str) -> str:
    body = body.replace(
        ":", KEPT_COLON
    )  # "> From: …", "> Subject: …": the email's colons are no heading of mine
    if not request:  # only an email, nothing asked of me
        return f"«{body}»"
    if body and _ITS_WORDS_BELOW.search(request):  # «…комментарий с логом от Ромашки:» above the pasted log
        return f"{request.rstrip()} «{body}»"
    pointer = _POINTS_AT_QUOTE.search(request) if body and _NOTE_WORD.search(request) else None
    if pointer and re.search(r":\s*\S{2,}", request[pointer.end() :]):
        pointer = None  # "Add this as a comment on ENG-101: Globex users …": the request says its own words
    if pointer:  # "Log this as a note on the Romashka deal": the note's words are the email's
        request = f"{request[: pointer.start()]}«{body}»{request[pointer.end() :]}"
        # "note this on the alfa deal and remind me …": "note" said first is the verb, as "add a note" is
        request = re.sub(r"(?i)^(\s*)note(?=\s+«)", r"\1add a note", request)
    elif (
        body
        and _NOTE_WORD.search(request)
        and ":" not in request
        and not re.search(r"[«\"“']", request)
        and not _WORDS_OF_ITS_OWN.match(request[_NOTE_WORD.search(request).end() :])  # type: ignore[union-attr]
    ):
        request = f"{request.rstrip(' .')}: «{body}»"  # "add a note on the Initech company": the email, noted
        pointer = _NOTE_WORD.search(request)
    # who wrote it (its signature) is who "he"/"his deal" in the request is; the email's words are context,
    # one quoted clause (its sentences joined, so none of them is read as a request of mine)
    context = _as_context("" if pointer else " ".join(x for x in (body, signed) if x))
    # (the request after it starts a sentence of its own, even typed in lower case)
    return f"«{context}». {request[:1].upper()}{request[1:]}" if context else request


def _card(lines: list[str]) -> str | None:
    """ "new contact\\nname: Sarah Connor\\nemail: …" → "new contact: Sarah Connor, email …"."""
    lines = [_ITEM.sub("", x) for x in lines]  # "• Name: Pied Piper", "- team: DES": a field each
    head = lines[0] if not _CARD_LINE.match(lines[0]) or _key(lines[0]) is None else ""
    head = _RECORD_WORD.sub("", head)  # "New company record:": a new company
    fields = lines[1:] if head else lines
    parts = []
    titled = ""
    for line in fields:
        key, said = _key(line), _CARD_LINE.match(line)
        if key is None or said is None:
            return None
        if key in ("title", "название") and _AN_ISSUE.search(head):  # an issue's title, not a job title
            titled = f"«{said.group(2).strip(_QUOTE_MARKS)}»"
            continue
        value = said.group(2).strip()
        if key in ("assignee", "исполнитель") and _AN_ISSUE_SAID.search(
            head
        ):  # "update ENG-102:\n- Assignee: Oleg"
            parts.append(f"{'назначь на' if key == 'исполнитель' else 'assign to'} {value}")
            continue
        parts.append(f"{key} {value}".strip())
    parts = [titled, *parts] if titled else parts
    if len(parts) < 2:
        return None
    return f"{head.rstrip(' :')}: {', '.join(parts)}" if head else ", ".join(parts)


def _key(line: str) -> str | None:
    m = _CARD_LINE.match(line)
    return _CARD_KEYS.get(m.group(1).strip().lower()) if m else None


def _table(lines: list[str]) -> str | None:
    """ "update these amounts\\n| deal | amount |\\n|---|---|\\n| Globex pilot | 35k |" → one line a row:
    "Globex pilot — amount 35k"."""
    rows = [[c.strip() for c in x.strip().strip("|").split("|")] for x in lines if x.strip().startswith("|")]
    rows = [r for r in rows if not all(re.fullmatch(r":?-{2,}:?", c) for c in r)]
    if len(rows) < 2 or any(len(r) != len(rows[0]) or len(r) < 2 for r in rows):
        return None
    header, body = rows[0], rows[1:]
    items = [
        f"{r[0]} — " + ", ".join(f"{h} {v}" for h, v in zip(header[1:], r[1:], strict=True) if v)
        for r in body
    ]
    return "\n".join(f"- {x}" for x in items)


def _values(lines: list[str]) -> str | None:
    """«Обнови суммы:\\nРомашка — 1 350 000 ₽\\nАльфа-Лизинг — 950 000 ₽»: the field the heading names, set
    on each record listed: «Ромашка — сумма 1 350 000 ₽»."""
    head, items = lines[0], lines[1:]
    if not head.rstrip().endswith(":") or len(items) < 1:
        return None
    field = next((f for stem, f in _FIELD_NOUN.items() if re.search(rf"(?i)\b{stem}", head)), None)
    found = [_VALUE_LINE.match(_ITEM.sub("", x)) for x in items]
    if field is None or not all(found):
        return None
    return "\n".join(f"- {m.group(1)} — {field} {m.group(2)}" for m in found if m)


def _about(lines: list[str]) -> str | None:
    """«По Ромашке:\\n1) сделку в переговоры\\n2) …»: a heading that names what every item is about, not a
    request of its own, is said with each item."""
    head, items = lines[0].strip(), lines[1:]
    about = re.fullmatch(r"(?i)((?:по|про|для|re|for|about|on)\s+[^:]{2,40}):", head)
    subject = re.fullmatch(r"(?i)(?:re|subject|тема)\s*:\s*([^:]{2,40}?)\s*", head)  # "Re: Globex pilot"
    if (about is None and subject is None) or len(items) < 2 or not all(_ITEM.match(x) for x in items):
        return None
    if about is not None:
        said = about.group(1)
    else:
        assert subject is not None
        said = f"{'по' if re.search('[а-яё]', head, re.I) else 'about'} {subject.group(1)}"
    return "\n".join(f"- {said} {_ITEM.sub('', x).strip()}" for x in items)
