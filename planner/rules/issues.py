"""Linear issues a request points at — by identifier (ENG-123), by position or number in the list shown
before, or by words of the title (seed 004's order) — and what to do with them: complete, archive,
comment, update, read."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from typing import Any

from planner._lazy_re import LazyRe
from planner.analysis import CUES, KEPT_COLON, Clause, analyse, head_of, identifiers_in
from planner.context import BuildContext
from planner.coverage import asks_for_something
from planner.dates import MONTH_NAME, extract_moment
from planner.dialogue import asks_how
from planner.directory import Entity
from planner.intents import MISSING
from planner.intents.models import (
    ArchiveIssue,
    CommentIssue,
    CompleteIssue,
    CreateIssue,
    Filters,
    Find,
    UpdateIssue,
    priority_name,
)
from planner.resolve import Mention, find_mentions, keys_for, match_words
from planner.rules import rule
from planner.rules._common import (
    POINTED_AT_ONE,
    find,
    one_said_before,
    priority_of,
    quoted,
    said_outside_quotes,
    strip_spans,
    strong,
)
from planner.rules._linear_common import (
    ADD_EXISTING,
    COMMENT_ON_AN_ISSUE,
    LABEL_ON,
    PRIORITY_MADE,
    asks,
    assignee_texts,
    dictated_list,
    excepted,
    find_user,
    my_issue_choices,
    team_state,
)
from planner.text import IN_QUOTES, is_imperative, is_infinitive

__all__ = [
    "issue_asked_about",
    "issue_by_reference",
    "issue_by_words",
    "issues_by_title_words",
    "resolve_issue",
    "sub_issues",
]


async def resolve_issue(clause: Clause, ctx: BuildContext) -> dict[str, Any] | None:
    ident = ctx.answer("issue") or (clause.identifiers[0] if clause.identifiers else None)
    if ident is None and ctx.memory.get("issue"):
        return dict(ctx.memory["issue"])
    if ident is None:
        return None
    issue = await ctx.directory.issue(ident)
    if issue is None:
        choices = await my_issue_choices(ctx)
        listing = "\n".join(f"• {label}" for label, _ in choices)
        raise ctx.ask(
            "issue",
            ctx.t(
                f"Не нашёл задачу «{ident}». Ваши задачи:\n{listing}",
                f"I couldn't find a task matching '{ident}'. Here are your current tasks:\n{listing}",
            ),
            choices=choices,
            risk="missing_required",
        )
    ctx.note_entity(
        "issue",
        ident,
        Entity(
            "issue",
            str(issue["id"]),
            str(issue.get("title", "")),
            str(issue.get("identifier", "")),
            issue.get("url"),
        ),
        [],
        1.0,
    )
    ctx.memory["issue"] = issue
    return issue


_ASSIGN_TAIL = LazyRe(
    r"(?i)[.;,]\s*(?:and\s+|и\s+)?(?:assign(?:ed)?(?:\s+(?:it|them))?(?:\s+to)?|назначь(?:\s+(?:её|ее|их|его))?\s+на|"
    r"(?:за)?асс?айн\w*(?:\s+на)?)\s+"  # "…, assign max", «…, ассайни на Олега»
    r"([^\W\d_][\w-]*)\s*[.!]?\s*$"
)
_EVERYTHING = LazyRe(r"(?i)\b(?:всё|все|everything|all)\b")
_THE_ONE = LazyRe(r"(?i)\s+ones?\s*$")
_PRONOUN_IT = LazyRe(r"(?i)\b(?:it|её|ее|его)\b")
_MADE_URGENT = LazyRe(
    r"(?i)\b(?:make|сделай)\s+(?:(?:the|this|that|our|my|эту|этот|задачу|тикет)\s+[^,.;:]{0,60}?\b|(?:it|them|её|ее|его|их)\s+)"
    + PRIORITY_MADE
)
# an issue id inside the quoted words of a comment ('Duplicate of CS-12', «дубль CS-12»)
_IDS_IN_QUOTES = LazyRe(r"(?i)(?<=[«\"“'])[^«»\"“”']*?\b([a-z]{1,10}-\d+)\b[^«»\"“”']*?(?=[»\"”'])")
_OPENS_A_NEW_ONE = LazyRe(
    r"(?i)\b(?:create|open|file|log|raise|make|start|spin\s+up)\s+(?:a|an|one|new|another)\s+(?:new\s+)?(?:[\w-]+\s+)?"
    r"(?:issue|ticket|bug|task)\b|\b(?:создай|заведи|открой|сделай)\s+(?:нов\w+\s+)?(?:задачу|тикет|баг|issue|таск\w*)\b"
    # "New ENG issue 'Rate limit …', high priority", "new issue for Oleg - …": said without a verb
    r"|^\s*(?:a\s+)?new\s+(?:[A-Za-z]{2,5}\s+)?(?:issue|ticket|bug|task)\b|^\s*нов\w+\s+(?:задач\w*|тикет\w*|баг\w*)\b"
)
_COMMENT_THEN_QUOTE = LazyRe(r"(?i)\b(?:коммент\w*|comment)\s*[:—–-]?\s*(?:[«\"“]([^«»\"“”]{2,})[»\"”])")
_QUOTE_THEN_ASK = LazyRe(
    r"(?i)\s*(?:'([^']{2,})'|[«\"“]([^«»\"“”]{2,})[»\"”])\s*[,;]?\s+(?:and|и|а\s+также|then|also)\s+(.+)$"
)
_PROJECT_AS_FIELD = LazyRe(r"(?i)(?:^|[:,;]\s*|\d\s+)(?:проект|project)\s*[:—-]?\s+([^,;.]+?)\s*(?=[,;.]|$)")
_CHANGE_THEN_COMMENT = LazyRe(
    r"(?is)^(?P<change>.+?)[,;]?\s+(?:and|и|а\s+также|then|also)\s+(?:leave|add|post|write|drop|оставь|добавь|напиши)\s+"
    r"(?:a\s+)?(?:comment|коммент\w*)\s*[:—–-]?\s*(?P<body>\S.*)$"
)
_QUOTED_THEN_DETAILS = LazyRe(
    r"\s*(?:'([^']{2,})'|[«\"“]([^«»\"“”]{2,})[»\"”])\s*((?:[→,;—–(-]|->)[^'«»\"“”]*)?"
)
# "schedule CS-15 for December 10", «запланируй CS-15 на 10 декабря»: an issue's day is its due date
_SCHEDULED = LazyRe(r"(?i)\b(?:schedul\w*|запланир\w*|planned\s+for|plan\s+(?:it\s+)?for)\b")
_TO_THEM = LazyRe(r"(?i)\b(?:ему|ей|на\s+него|на\s+неё|на\s+нее|him|her)\b")
_THEM = LazyRe(r"(?i)\b(?:them|both|их|обе|оба|обеих|обоих)\b")
_THE_X_ONE = LazyRe(r"(?i)\bthe\s+(?:[\w-]+\s+){1,4}one\b")


_MADE_BY_ITS_TITLE = LazyRe(
    r"(?i)\b(?:new|нов\w+|завед\w*|завест\w*|созда\w*|create|open|file|log)\b(?:\s+(?:an?|the|в|во|in|a|one)\b|"
    r"\s+(?-i:[A-Z]{2,5})\b|\s+(?:issue|task|ticket|bug|задач\w*|тикет\w*|баг\w*|linear|линеар\w*))*\s*[\"«“]"
)


@rule(30)
async def issue_by_reference(clause: Clause, ctx: BuildContext) -> bool:
    several = ctx.memory.get("issues") or []
    if (
        not clause.identifiers
        and len(several) > 1
        and ctx.clause_index > 0
        and _THEM.search(clause.text)
        and clause.has("complete", "archive", "delete", "assign", "priority", "due", "move", "put", "comment")
    ):  # «задачи CS-14 и DES-7 выполнены; прошу их закрыть»: "them" are the issues just named
        clause = replace(clause, identifiers=list(several))
    quoted_one = ctx.memory.get("quoted_issue")
    if (
        quoted_one
        and not clause.identifiers
        and clause.commands()
        and (clause.has("issue", "task") or bool(_PRONOUN_IT.search(clause.text)))  # «…». Закрой её
        and not clause.creates()
        and not ctx.memory.get("issue")
    ):  # «[10:14] Олег: ENG-106 готово» — закрой тогда задачу: the issue the pasted words name
        clause = replace(clause, identifiers=[str(quoted_one)])
    in_quotes = " ".join(m.group(0) for m in IN_QUOTES.finditer(clause.text)).upper()
    if clause.identifiers and (
        clause.has("note", "deal", "company", "person", "crm", "attio")
        or any(i.upper() in in_quotes for i in clause.identifiers)  # «…we need net-60 payment terms»
    ):
        # "Note on Initech: …, net-30 payment terms": in words about a CRM record, only a team's key names an issue
        keys = {str(t.extra.get("key", "")).upper() for t in await ctx.directory.teams()}
        theirs = [i for i in clause.identifiers if i.split("-", 1)[0].upper() in keys]
        if len(theirs) != len(clause.identifiers):
            clause = replace(clause, identifiers=theirs)
    left_out = set(excepted(clause.text)[0])
    if left_out:  # "everything in ENG Todo → Backlog, except ENG-106": the one left out is no target
        clause = replace(clause, identifiers=[i for i in clause.identifiers if i not in left_out])
        if not clause.identifiers:
            return False
    # the issues named in a comment's or a description's own words are no target: "comment on ENG-101 that ENG-103 was
    # merged into it", "ENG-102 description: 'Blocked by … DES-7 …'" — only those said before those words are
    said_that = _COMMENT_SAYS_THAT.search(clause.text) if len(clause.identifiers) > 1 else None
    own_words_from = [said_that.end()] if said_that and clause.has("comment") else []
    before_colon = clause.text.split(":", 1)[0]
    if clause.after_colon is not None and re.search(r"(?i)\b(?:description|описани\w*)\b", before_colon):
        own_words_from.append(len(before_colon))
    for end in own_words_from:
        named_first = {i.upper() for i in identifiers_in(clause.text[:end])}
        if len(clause.identifiers) > 1 and named_first:
            clause = replace(clause, identifiers=[i for i in clause.identifiers if i.upper() in named_first])
    quoted_ids = _IDS_IN_QUOTES.findall(clause.text)
    if (
        quoted_ids
        and clause.has("comment")
        and ctx.memory.get("issue")
        and not [i for i in clause.identifiers if i not in {q.upper() for q in quoted_ids}]
    ):  # "Set CS-15 to Canceled and comment 'Duplicate of CS-12'": the words of the comment name no target
        clause = replace(clause, identifiers=[])
    refers = bool(clause.identifiers) or (
        ctx.memory.get("issue")
        and (
            clause.has("assign", "due", "priority", "rename")
            or _LABEL_CUE.search(clause.text)
            and not clause.has("deal", "company", "person")
            or await _label_alone(clause, ctx)
            or clause.has("comment", "complete", "move", "put")
            and re.search(r"\b(it|её|ее|его|эту|этой|там|туда|неё|нее)\b", clause.text, re.I)
            # "Set ENG-105 to urgent and add it to the Q1 Launch project": that issue, into a project
            or bool(_IT_INTO_A_PROJECT.search(clause.text))
            # "ENG-101 blocks the release. make it urgent": its priority, said with "make"
            or bool(_MADE_URGENT.search(clause.text))
            and bool(_PRONOUN_IT.search(clause.text))
            # "закрой ENG-101 и напиши в комментарии, что…": a comment right after an issue is on it
            or clause.has("comment")
            and ctx.clause_index > 0
            # (the comment's own words may say "notes": "comment: kickoff held, notes in Drive")
            and not said_outside_quotes(
                head_of(clause, ctx.now) if clause.after_colon is not None else clause, ctx.now, "note"
            )
            # «ENG-103 назначь на макса и возьми в работу»: a state said next is the same issue's
            or clause.has("move", "put")
            and ctx.clause_index > 0
            and bool(_STATE_NEXT.fullmatch(clause.text))
            # «CS-13 по ромашке уже сделали, закрой пожалуйста»: the verb alone, said of the issue just named
            or clause.has("complete", "archive", "delete")
            and ctx.clause_index > 0
            and bool(_JUST_THE_VERB.fullmatch(clause.text))
            # «ENG-105: дедлайн на 22 декабря и повесь на меня»: whom, said of the issue just named
            or ctx.clause_index > 0
            and bool(_ON_SOMEONE.fullmatch(clause.text))
        )
        and not clause.has("deal")
        # "archive CS-15 and create a CS issue … assigned to Oleg": a new issue is not the one before
        and not (
            clause.creates()
            and clause.has("issue", "task", "project")
            and not clause.has("comment")
            and not _IT_INTO_A_PROJECT.search(clause.text)
            # ("close ENG-105 and add label bug", "…, add bug": a label for it, no new bug)
            and not _ADDS_A_LABEL.match(clause.text)
            and not await _label_alone(clause, ctx)
        )
        # «завести в ENG «Алерты на рост 5xx», приоритет высокий»: a new one said by its title is never the last
        and not (not clause.identifiers and _MADE_BY_ITS_TITLE.search(clause.text))
    )
    if not refers:
        return False
    if len(set(clause.identifiers)) > 1:
        ctx.memory["issues"] = list(dict.fromkeys(clause.identifiers))  # what a later "close them" means
    if await _verbless_assignments(clause, ctx):  # "cs-15 на олега", "eng-102 на олега, eng-105 на макса"
        return True
    parent = _PARENT.search(clause.text)  # "make ENG-104 a sub-issue of ENG-102": ENG-102 is no target
    if parent and len(set(clause.identifiers)) > 1:
        clause = replace(clause, identifiers=[i for i in clause.identifiers if i != parent.group(1).upper()])
    reading = clause.asks() and not clause.commands() or clause.text.rstrip().endswith("?")
    related = [  # (a read names each issue it asks about: «что с CS-14 и DES-7?», "the status of ENG-101 and …")
        i
        for i in dict.fromkeys(clause.identifiers)
        if not reading
        and _RELATED_TO.search(before := _before_ident(clause.text, i))
        # «В ENG-101 и ENG-103 оставь комментарий»: the place said first is where the change goes
        and not re.fullmatch(
            r"(?i)\W*(?:(?:и|а|and|also|ещё|еще)\s+)?(?:(?:оставь|добавь|напиши)\s+(?:комментари\w*|коммент)\s+|"
            r"(?:leave|add|post)\s+(?:a\s+)?comment\s+)?(?:в|во|in|on|на|к)\s*",
            before,
        )
    ]
    if related and len(set(clause.identifiers)) > len(related):  # "…folded into ENG-105, so archive DES-7"
        clause = replace(clause, identifiers=[i for i in clause.identifiers if i not in related])
    own = _each_its_own(clause)
    if own:  # «CS-12 в работу, CS-14 на ревью»: each issue with its own change
        for piece in own:
            ctx.answers.pop(ctx.qid("issue"), None)
            await issue_by_reference(analyse(piece, ctx.now), ctx)
        return True
    if len(set(clause.identifiers)) > 1:  # "закрой ENG-101 и ENG-106": the same change for each
        listed = re.match(r"(?i)\s*((?:[a-z]{1,10}-\d+\s*(?:,|\bи\b|\band\b|&)?\s*){2,})(?=\S)", clause.text)
        for ident in dict.fromkeys(clause.identifiers):
            one = replace(clause, identifiers=[ident])
            if listed:  # «ENG-101 и ENG-106 в ревью»: each said as if alone, "ENG-101 в ревью"
                one = replace(
                    analyse(f"{ident} {clause.text[listed.end(1) :]}", ctx.now), identifiers=[ident]
                )
            ctx.answers.pop(ctx.qid("issue"), None)
            await issue_by_reference(one, ctx)
        return True
    issue = await resolve_issue(clause, ctx)
    if issue is None:
        return False
    ident = str(issue.get("identifier") or issue["id"])
    team_id = str((issue.get("team") or {}).get("id", ""))
    # "how do I close ENG-101?" asks how: the close is offered as a question (core's `_offer`)
    # ('"Your v2 API docs still show …" -> comment on ENG-104 with that': a quote's words ask nothing)
    unquoted = (
        analyse(_QUOTE_SPANS.sub(" ", clause.text), ctx.now) if _QUOTE_SPANS.search(clause.text) else clause
    )
    question = (
        unquoted.has("query") or unquoted.text.rstrip().endswith("?") or bool(ctx.memory.get("asking"))
    ) and not asks_how(clause.text)  # "when's ENG-105 due" is dictated without its "?"
    # "eng-104 какой там срок", "что с CS-13?", "Олег уже назначен на ENG-106?"
    if question and (unquoted.asks() and not unquoted.commands() or ctx.memory.get("asking")):
        await ctx.emit(Find(object="issues", filters=Filters(record=ident)), record=issue)
        if clause.has("deal"):  # "show me ENG-101 and the Globex pilot deal"
            deals = [m for m in await find(ctx, clause, "deal") if m.score >= 0.9]
            if deals:
                deal = ctx.choose("deal", "deal", clause.text, deals, ctx.t("Какую сделку?", "Which deal?"))
                if deal is not None:
                    await ctx.emit(
                        Find(object="deals", filters=Filters(record=deal.name)), record=("deals", deal)
                    )
        return True
    undue = _UNDUE.search(clause.text) if not clause.has("comment") else None
    clear_due = False
    if undue:  # "eng-104 remove due date", «убери срок»
        rest = analyse(
            re.sub(r"[\s,;—–-]+$", "", f"{clause.text[: undue.start()]} {clause.text[undue.end() :]}"),
            ctx.now,
        )
        if not (rest.has("move", "put", "priority", "assign", "rename") or priority_of(rest.text)):
            await ctx.emit(UpdateIssue(issue=ident, due="none"), issue=issue)
            return True
        clause, clear_due = rest, True  # «приоритет CS-14 — низкий, срок убрать»: the rest, and no due date
    if _OUT_OF_PROJECT.search(clause.text) and not clause.has("comment"):
        # «убери ENG-104 из проекта Q1 Launch», "take ENG-104 out of the project": no project, the issue stays
        await ctx.emit(UpdateIssue(issue=ident, project="none"), issue=issue)
        return True
    unassigned = _UNASSIGN.search(clause.text)
    clear_assignee = False
    if (  # "unassign ENG-101", «сними исполнителя» ("… from Oleg and give it to me" is a hand-over)
        unassigned and not clause.has("comment") and not _GIVEN_AFTER.search(clause.text[unassigned.end() :])
    ):
        left = f"{clause.text[: unassigned.start()]} {clause.text[unassigned.end() :]}"
        left = re.sub(  # "DES-7 unassign + back to todo": the issue, then where it goes
            r"(?i)^\s*([A-Z]{1,10}-\d+)[\s,;+&]+(?:and\s+|и\s+)?(?:back\s+)?(?:to|into)\s+", r"\1 → ", left
        )
        rest = analyse(re.sub(r"(?i)[\s,;+&]+(?:and|и)?[\s,;+&]*$", "", left), ctx.now)
        more = rest.has("move", "put", "priority", "due", "rename") or _BARE_STATE_ITEM.search(rest.text)
        if not (more or re.search(r"(?i)(?:→|->|=>|\bto\b)", rest.text)):
            await ctx.emit(UpdateIssue(issue=ident, assignee="none"), issue=issue)
            return True
        clause, clear_assignee = rest, True  # "ENG-102 back to backlog, unassign": the rest, then nobody
    if clause.has("comment"):
        if _UNASSIGN.search(clause.text.split(":", 1)[0]):  # "ENG-102 unassign + коммент: …": both were asked
            await ctx.emit(UpdateIssue(issue=ident, assignee="none"), issue=issue)
        moved = _STATE_THEN_COMMENT.match(clause.text) if clause.after_colon is not None else None
        if moved:  # «ENG-106 на ревью коммент: ключ заменён»: its state said first, then the comment's words
            await issue_by_reference(analyse(f"{ident} {moved.group('state')}", ctx.now), ctx)
        body = clause.after_colon or _comment_body(clause.text) or MISSING
        quoted_in = _COMMENT_THEN_QUOTE.search(body) if clause.after_colon else None
        if (
            quoted_in
        ):  # «CS-12: созвон провели. Оставь коммент «звонок состоялся…»»: the quoted words are the comment
            body = quoted_in.group(1)
        then = _QUOTE_THEN_ASK.match(body)
        if then and analyse(then.group(3), ctx.now).commands():
            # "comment on CS-12: '…' and push its due to Dec 1": the comment, then a change of the same issue
            await ctx.emit(
                CommentIssue(issue=ident, body=(then.group(1) or then.group(2))[:10_000]), issue=issue
            )
            tail = then.group(3)  # ("… and close": the same issue, said by nothing)
            pointed = re.search(r"(?i)\b(?:it|its|его|её|ее|[A-Z]{1,10}-\d+)\b", tail)
            await issue_by_reference(analyse(tail if pointed else f"{ident} {tail}", ctx.now), ctx)
            return True
        first = _CHANGE_THEN_COMMENT.match(body) if clause.after_colon else None
        if first and analyse(first.group("change"), ctx.now).has(
            "due", "priority", "assign", "move", "put", "rename"
        ):
            # "ENG-101: due date the 1st of December, and leave a comment '…'": the change, then the comment
            await issue_by_reference(analyse(f"{ident} {first.group('change')}", ctx.now), ctx)
            words = re.sub(
                r"^\s*(?:[«\"“]([^«»\"“”]+)[»\"”]|'([^']+)')\s*[.!]?\s*$", r"\1\2", first.group("body")
            )
            await ctx.emit(CommentIssue(issue=ident, body=words[:10_000]), issue=issue)
            return True
        that = _THAT_AS_A_COMMENT.search(clause.text) if clause.after_colon is None else None
        if that:  # 'FYI: «Globex wants the pilot to start Jan 15.» Leave that as a comment on CS-14': the words told
            told = clause.text[: that.start()].strip(" ,;")
            body = (
                quoted(told or str(ctx.memory.get("full_text", "")), at_least=8)
                or told
                or _why_said_before(ctx)
            )
            body = body or MISSING
        linked = _THE_LINK.search(clause.text)
        if linked and (
            body is MISSING or _THE_LINK.fullmatch(str(body).strip(" .")) or not str(body).strip()
        ):
            # "PR is up: https://…/482 (APNs token refresh)\ndrop the link as a comment on ENG-105": that link
            full = str(ctx.memory.get("full_text", "")).replace(
                KEPT_COLON, ":"
            )  # (a link's colon was set aside)
            urls = re.findall(r"https?://\S+(?:\s+\([^()]{1,80}\))?", full)
            body = " ".join(u.rstrip(".,;") for u in urls) or body
        head = clause.text.split(":", 1)[0]
        if _CLOSE_WITH.search(head):  # «закрой ENG-103 с комментарием «…»», "close it with a comment": both
            await ctx.emit(CompleteIssue(issue=ident), issue=issue)
        # «напиши в коммент «клиент подтвердил …»»: the words, not the quotes around them
        # "PR is up: github.com/… — drop the link in a comment too": the words about the comment are not in it
        body = re.sub(
            r"(?i)\s+[—–-]\s+(?:(?:and|also|pls|please)\s+)*(?:drop|put|add|leave|post|paste)\b[^—–]*\b(?:comment|коммент\w*)\b[^—–]*$",
            "",
            body,
        )
        # "ENG-101: comment 'repro only on 3G'": the word that says what it is goes too
        body = re.sub(r"(?i)^\s*(?:comment|коммент\w*)\s*[:—–-]?\s*(?=['«\"“])", "", body)
        # "comment «…the email…» to CS-13": where it goes, said after the quote, is no part of it
        body = re.sub(
            r"(?i)(?<=[»\"”])\s+(?:to|on|in|under|в|к|под)\s+[A-Za-z]{1,10}-\d+\s*[.!]?\s*$", "", body
        )
        body = re.sub(r"^\s*«([^«»]+)»\s*[.!]?\s*$", r"\1", body)  # (its own quotes inside: «… "SAML: …" …»)
        body = re.sub(r"^\s*(?:[«\"“]([^«»\"“”]+)[»\"”]|'([^']+)')\s*[.!]?\s*$", r"\1\2", body)
        if _POINTS_BACK.fullmatch(
            body
        ):  # «…: "SSO настроили, тестим". Оставь коммент в CS-13 с этим»: those words
            quoted_before = [q for said in ctx.memory.get("said") or [] if (q := quoted(said, at_least=3))]
            body = quoted_before[-1] if quoted_before else body
        if _ONLY_WHERE.fullmatch(body):  # "comment that on the issue" with nothing before it: no words said
            body = MISSING
        await ctx.emit(CommentIssue(issue=ident, body=body[:10_000]), issue=issue)
        return True
    if (
        clause.has("delete", "archive")
        and not _LABEL_CUE.search(clause.text)
        and not await _labels(clause, ctx, issue)
    ):
        await ctx.emit(ArchiveIssue(issue=ident), issue=issue)
        return True
    if clause.has("complete") and not asks(clause):
        await ctx.emit(CompleteIssue(issue=ident), issue=issue)
        return True
    change: dict[str, Any] = {}
    found: dict[str, Any] = {"issue": issue}
    described = re.search(r"\b(?:description|описани\w*)\b", clause.text.split(":", 1)[0], re.I)
    if described and clause.after_colon:  # "Write a description for ENG-103: crash happens only…"
        words = _ADD_THAT_LAST.sub("", clause.after_colon.strip())  # ("…. Add that": the ask, not its words)
        change["description"] = _UNQUOTED.sub(r"\1", words)[:10_000]
        had = str(issue.get("description") or "").strip() if isinstance(issue, dict) else ""
        if had and _ADDED_TO.search(clause.text.split(":", 1)[0]):  # "Add to the ENG-105 description: …"
            change["description"] = f"{had}\n\n{clause.after_colon.strip()}"[:10_000]
        # the description's words are its own: "…to: open any report, export to PDF" assigns no one
        clause = replace(head_of(clause, ctx.now), identifiers=clause.identifiers)
    elif said_as := _DESCRIBED_AS.search(clause.text):  # «ENG-103 добавь описание падает при экспорте …»
        change["description"] = said_as.group(1).strip()[:10_000]
    moving = clause.has("put", "move") or bool(_SEND_TO.search(clause.text))  # "send ENG-105 back to Todo"
    parent = _PARENT.search(clause.text)  # "make ENG-104 a sub-issue of ENG-102"
    if parent and parent.group(1).upper() != ident:
        change["parent"] = parent.group(1).upper()
    bare_to = re.match(
        r"(?i)\s*[a-z]{1,10}-\d+\s+(?:to|into|в|во|на|->|→)\s", clause.text
    )  # "ENG-104 to In Review"
    state_named = (
        await _state_named(clause, ctx, team_id)
        if moving or bare_to or _BARE_STATE_ITEM.search(clause.text)
        else None
    )  # "cs-15 → me, todo, due Dec 3": a state said alone among the changes
    # "Move ENG-102 to In Progress": a state named after "to" is not a person
    named = [
        c
        for c in assignee_texts(clause)
        if not re.fullmatch(r"[A-Z]{1,10}-\d+", c)  # "повесь на ENG-101 метку": an issue, not a person
        and not MONTH_NAME.match(c)  # "push the due date to December 18": a date
        and extract_moment(c, ctx.now).day is None  # "перенеси срок на пятницу": a day, not a person
        and (
            state_named is None
            or c.lower() not in state_named.name.lower()
            # ("move DES-7 to In Progress with high priority": the state, then more of the change)
            and not c.lower().startswith(state_named.name.lower() + " ")
        )
        and not re.fullmatch(r"(?i)p[0-4]", c)  # "bump ENG-102 to P1": a priority
    ]
    named = [  # "move ENG-103 to Q1 Launch": a project's name, not a person's; "rename … to Update API docs": a title
        c
        for c in named
        if not [m for m in await find(ctx, clause, "project", text=c) if m.score >= 0.9]
        and not re.search(rf"(?i)\b(?:rename|переименуй)\b[^,;]*?\b(?:to|в|на)\s+{re.escape(c)}", clause.text)
        and not (
            _SETS_TITLE.search(clause.text) and re.search(rf"\b(?:to|в|на)\s+{re.escape(c)}", clause.text)
        )
    ]
    users = await ctx.directory.users()
    # a word in lower case is a person only if it names one ("на олега"; "to low" is a priority)
    named = [
        c
        for c in named
        if c[:1].isupper()
        or find_mentions(keys_for(c), users)
        or _ME_WORD.fullmatch(c)
        or POINTED_AT_ONE.fullmatch(c)
    ]
    pair = _PAIR.search(clause.text)  # "ENG-105 to Oleg, urgent, due Friday": no verb, still theirs
    paired = bool(
        pair
        and not moving
        and (
            _ME_WORD.fullmatch(pair.group(2))  # «CS-15 на меня и срок через неделю»
            or [m for m in await find(ctx, clause, "user", text=pair.group(2)) if m.score >= 0.5]
        )
    )
    if pair and paired and not named:
        named = [pair.group(2)]
    for alone in [] if paired or moving and named else _FIELD_ITEM_ALONE.finditer(clause.text):
        if _ME_WORD.fullmatch(alone.group(1)) or [
            m for m in await find(ctx, clause, "user", text=alone.group(1)) if m.score >= 0.5
        ]:  # "eng-103 -> todo, oleg, due mon": a colleague among the fields
            named, paired = [alone.group(1)], True
            break
    taker = _TAKES.search(clause.text)  # "@oleg take cs-15": theirs now
    if (
        taker
        and (not named or named[0] == taker.group(1))  # "Oleg takes ENG-103" is also _WHO's "Oleg"
        and [m for m in await find(ctx, clause, "user", text=taker.group(1)) if m.score >= 0.5]
    ):
        named, paired = [taker.group(1)], True
    if clause.has("assign") or named and (moving or paired):
        who = None
        for candidate in named or [clause.text]:
            who = await find_user(clause, ctx, candidate)
            if who is not None:
                break
        if who is None and _TO_THEM.search(clause.text) and ctx.clause_index > 0:
            # «…передай Максу, а тикет CS-14 по ней — тоже ему»: the colleague just named
            who = await one_said_before(ctx, clause, "user")
        if who is None:
            raise ctx.ask(
                "assignee",
                ctx.t("На кого назначить?", "Who should it be assigned to?"),
                choices=[(u.name, u.id) for u in (await ctx.directory.users())[:5]],
            )
        change["assignee"], found["assignee"] = who.name, who
    scheduled = (  # "CS-15 scheduled for December 10" (at an hour, for a while, it is a meeting)
        clause.moment.day
        and clause.moment.at is None
        and not clause.duration
        and _SCHEDULED.search(clause.text)
    )
    # «ENG-104 — до 3 декабря», "ENG-104 by Dec 3": the issue, then by when (a list of the week's plans)
    by_a_day = clause.moment.day is not None and bool(_BY_A_DAY.match(clause.text))
    if clause.has("due") or (clause.moment.day and clause.has("put", "move")) or scheduled or by_a_day:
        if clause.moment.day is None:
            raise ctx.ask("due", ctx.t("Какой срок поставить?", "What due date should it have?"))
        change["due"] = clause.moment.day.isoformat()
        # «дедлайн сдвинь на 10 декабря, доки к пятнице не успеваем»: the date said with the due date
        due_said = re.search(  # ("…to Friday, December 4th": the date said after the day is still its)
            r"(?i)\b(?:срок\w*|дедлайн\w*|due(?:\s+date)?|deadline)\b([^,;]*(?:,\s*(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
            r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|янв|фев|мар|апр|ма[яй]|июн|июл|авг|сен|окт|ноя|дек)"
            r"[a-zа-я]*(?:\s+\d{1,2}(?:st|nd|rd|th)?)?)?)",
            clause.text,
        )
        near = extract_moment(due_said.group(1), ctx.now).day if due_said else None
        if near is not None:
            change["due"] = near.isoformat()
        pushed = _PUSHED_TO.search(clause.text)
        later = extract_moment(pushed.group(1), ctx.now).day if pushed else None
        if (
            later is not None
        ):  # "ENG-105 is due Dec 15 but …, push it to Dec 22": where it goes, not where it was
            change["due"] = later.isoformat()
    said_alone = re.search(
        r"(?i)(?:^|,)\s*(?:urgent|high|low|medium|срочно|срочная|высокий|низкий)\s*(?:,|$)", clause.text
    )
    made = re.search(
        r"(?i)\b(?:make|set|mark|raise|bump|lower|сделай|сделать|ставь|ставьте|повысь|подними|понизь)\b",
        clause.text,
    )  # "make cs 14 urgent", "raise ENG-101 and ENG-105 to urgent"
    if (
        clause.has("priority")
        or priority_of(clause.text)
        and (clause.has("put", "move") or said_alone or made)
    ):
        p = priority_of(clause.text)
        if p is None and _NO_PRIORITY.search(clause.text):
            p = 0  # «снимите приоритет с CS-15», "clear the priority": none
        if p is None:
            raise ctx.ask(
                "priority",
                ctx.t("Какой приоритет?", "Which priority?"),
                choices=[("Urgent", "1"), ("High", "2"), ("Medium", "3"), ("Low", "4")],
            )
        change["priority"] = priority_name(p)
    if labelled := await _labels(clause, ctx, issue):
        for side, entities in labelled.items():
            change[side], found[side] = [x.name for x in entities], entities
    if "due" not in change and (defer := _defer(clause, ctx)):  # "push the due date to …" said it once
        kind, due = defer
        if kind == "someday":
            backlog = await team_state(ctx, team_id, type_="backlog")
            if backlog is not None:
                change["state"], found["state"] = backlog.name, backlog
        elif due:
            change["due"] = due
    renaming = (
        clause.has("rename")
        or clause.has("move")
        and bool(_TITLE_WORD.search(clause.text))
        or bool(_SETS_TITLE.search(clause.text))  # "set title of DES-7 to …", «поменяй название ENG-102 на …»
    )
    if renaming and (title := clause.after_colon or _new_title(clause.text)):  # «название … изменить на «…»»
        change["title"] = title[:500]
    if state_named is not None:
        change["state"], found["state"] = state_named.name, state_named
    made = ctx.memory.get("new_projects", {})
    if (
        made
        and clause.has("move", "put", "create")  # ("… and add ENG-104 to it")
        and re.search(
            r"(?i)\b(?:into|in|to|в)\s+(?:it|него|неё|нее|этот проект)\b|\b(?:туда|there)\b", clause.text
        )
    ):
        change["project"] = ctx.memory["new_project_names"][
            -1
        ]  # "create a project X … and move ENG-104 into it"
    elif (
        (moving or clause.has("create"))  # ("add ENG-103 to Q1 Launch")
        and state_named is None
        and not change
        and (into := re.search(r"(?i)\b(?:into|to|in|в|во)\s+(.+?)\s*[.!]?$", clause.text))
        and (
            named_project := [
                m for m in await find(ctx, clause, "project", text=into.group(1)) if m.score >= 0.9
            ]
        )
    ):  # "move ENG-103 into Q1 Launch": a project said without the word
        change["project"], found["project"] = named_project[0].entity.name, named_project[0].entity
    elif (field := _PROJECT_AS_FIELD.search(clause.text)) and (
        named_field := [m for m in await find(ctx, clause, "project", text=field.group(1)) if m.score >= 0.9]
    ):  # «ENG-103: исполнитель макс, проект Mobile App, срок 4 декабря»: the project said as a field
        change["project"], found["project"] = named_field[0].entity.name, named_field[0].entity
    elif clause.has("move", "put", "create") and re.search(r"\b(проект\w*|project)\b", clause.text, re.I):
        projects = [m for m in await find(ctx, clause, "project") if m.score >= 0.9]
        partly = [m for m in await find(ctx, clause, "project") if m.score >= 0.5]
        if not projects and len(partly) == 1:  # "ENG-103 -> project website": Website Redesign, the only fit
            projects = partly
        answered = ctx.answer("project")
        if not projects and answered:
            projects = [m for m in await find(ctx, clause, "project", text=answered) if m.score >= 0.9]
        if not projects:  # seed 002: a project that does not exist is a question, never a silent create
            existing = await ctx.directory.projects()
            raise ctx.ask(
                "project",
                ctx.t(
                    "Такого проекта в Linear нет. В какой проект?",
                    "There is no such project in Linear. Which project?",
                ),
                choices=[(p.name, p.name) for p in existing[:5]],
                free_text=False,
            )
        change["project"], found["project"] = projects[0].entity.name, projects[0].entity
    if clear_assignee:
        change["assignee"] = "none"
    if clear_due:
        change["due"] = "none"
    if change:
        last = ctx.intents[-1] if ctx.intents and ctx.clause_index > 0 else None
        labels_only = {"labels_add", "labels_remove"}
        if (
            isinstance(last, UpdateIssue)
            and last.issue.upper() == ident.upper()
            # (labels only: a clause whose change is merged is no longer checked for words left unread)
            and set(change) <= labels_only
            # ("ENG-102: description '…' and add label docs": one change of it, with both)
            and not set(change) & set(last.model_dump(exclude_none=True))
            and not ctx.memory.get("sent_intents")
            and await ctx.amend_last(**change)
        ):
            return True  # "Add the label onboarding to CS-14 and remove customer-request": one change of it
        await ctx.emit(UpdateIssue(issue=ident, **change), **found)
        return True
    if asks_for_something(clause) and not clause.asks():  # a command whose change was not understood
        said = ctx.answer("change")
        # the person said it again: their words are read once; still not understood, it is asked again
        if said and said.strip() and ident not in said and not ctx.memory.get("change_reread"):
            ctx.memory["change_reread"] = True
            return await issue_by_reference(analyse(f"{ident} {said.strip()[:300]}", ctx.now), ctx)
        raise ctx.ask(
            "change",
            ctx.t(
                f"Не понял, что изменить в {ident}: «{clause.text[:150]}». Скажите иначе (статус, исполнитель, срок, приоритет…).",
                f"I didn't understand what to change on {ident}: '{clause.text[:150]}'. Say it another way "
                "(state, assignee, due date, priority…).",
            ),
        )
    await ctx.emit(Find(object="issues", filters=Filters(record=ident)), record=issue)
    return True


_ADD_THAT_LAST = LazyRe(
    r"(?i)(?<=[.!])\s+(?:please\s+)?(?:add|save|put|use)\s+(?:that|this|it)(?:\s+(?:too|there))?[.!]?$"
)
# "unlabel bug from ENG-101, it's actually a feature", «это скорее фича»: the label it is, said as why
_IT_IS_REALLY = LazyRe(
    r"(?i)(?:it'?s|it\s+is|это)\s+(?:actually|really|in\s+fact|скорее|на\s+самом\s+деле)\s+(?:an?\s+|a\s+real\s+)?$"
)
_NOT_THAT_BUT_THIS = LazyRe(
    r"(?i)(?:это\s+не|isn'?t|is\s+not|not)\s+(?:an?\s+)?[\w-]+[\s,.;—–-]*(?:а\s+|but\s+)?(?:it'?s|it\s+is|это)\s+(?:an?\s+)?$"
)
_NOT_A = LazyRe(r"(?i)(?:isn'?t|is\s+not|not|это\s+не|не)\s+(?:an?\s+|really\s+|actually\s+|никакой\s+)?$")
_UNQUOTED = LazyRe(r"^[«\"“']([^«»\"“”]+)[»\"”'][.!]?$")  # the description said in quotes: its words
_TAKES = LazyRe(
    r"(?i)(?:^|\s)@?([^\W\d_][\w-]*)\s+(?:takes?|grabs?|picks\s+up|берёт|берет|возьм[её]т|забирает)\s+(?:[a-z]{1,10}-\d+|it\b)"
)
_STATES_SAID = (
    r"(?:работу|ревью|review|бэклог\w*|backlog|progress|in\s+progress|in\s+review|todo|done|готовые)"
)
_STATE_NEXT = LazyRe(
    rf"(?i)\s*(?:и\s+|and\s+|then\s+|потом\s+)?(?:просто\s+|just\s+)?\S+\s+(?:в|to|into)\s+{_STATES_SAID}\s*[.!]?"
    # («…, оставь. Просто в ревью переведи»: the state first, the verb last)
    rf"|\s*(?:и\s+|а\s+|просто\s+|just\s+)*(?:в|to|into)\s+{_STATES_SAID}\s+\S+\s*[.!]?"
)
_DESCRIBED_AS = LazyRe(
    r"(?i)\b(?:добавь|добавить|напиши|написать|поставь|обнови|add|set|write|update)\s+(?:в\s+)?(?:описание|description)\s+"
    r"(?!(?:к|для|to|for|of)\b)(?:—\s*|-\s*)?(\S.{2,})$"
)
# the issue taken out of its project (not archived): «убери ENG-104 из проекта Q1 Launch», "remove it from the
# project", "take ENG-104 out of Q1 Launch project"
_OUT_OF_PROJECT = LazyRe(
    r"(?i)\b(?:убер\w*|убрать|исключи\w*|вынеси\w*|выкинь|удали\w*|remove|take|drop|pull|move)\b[^.;:!?]{0,40}?"
    r"\b(?:из\s+проекта|out\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?project|from\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?project)\b"
)
_UNASSIGN = LazyRe(
    r"(?i)\bun-?assign(?!ed\b)\w*(?:\s+(?:it|this|that|them)\b)?|\b(?:сними|снять|убери|убрать|удали|удалить|remove|clear)\s+(?:с\s+\S+\s+)?"
    r"(?:the\s+)?(?:исполнител\w*|ответственн\w*|assignee|owner)\b"
    r"|\b(?:сними|снять|убери)\s+[А-ЯЁа-яё]+[ауяю]\s+с\s+(?:задач\w*\s+)?[A-Z]{1,10}-\d+"  # «сними олега с CS-13»
)
_PUSHED_TO = LazyRe(
    r"(?i)\b(?:push|move|shift|bump|slip|extend|postpone|перенеси|перенести|сдвинь|сдвинуть|передвинь|отодвинь)\w*\b"
    r"[^,;.]*?\b(?:to|until|till|на|до)\s+([^,;]+)$"
)
_GIVEN_AFTER = LazyRe(
    r"(?i)\b(?:give|hand|assign|reassign|pass)\b[^,;]*\bto\b|\b(?:назначь|отдай|передай|переназначь|кинь|поручи|повесь)\b"
    r"|\b(?:возьм[её]т|бер[её]т|забер[её]т)\b|\b\w+\s+(?:takes|will\s+take)\b"  # «…, пусть возьмёт Макс»
)
_NO_PRIORITY = LazyRe(
    r"(?i)\b(?:сним\w*|снять|убери\w*|убрать|удали\w*|сбрось\w*|remove|clear|drop|unset|reset)\s+(?:the\s+|its\s+)?"
    r"(?:приоритет\w*|priority)\b|\bбез\s+приоритета\b|\bno\s+priority\b"
    # "set priority to none", «приоритет — никакой»
    r"|\b(?:priority|приоритет\w*)\s+(?:to\s+|на\s+|в\s+|—\s*|-\s*|:\s*)?(?:none|no\s+priority|нет|никакой|ноль|0)\b"
)
_UNDUE = LazyRe(
    r"(?i)\b(?:сними|снять|убери|убрать|удали|удалить|сотри|remove|clear|drop|delete|unset)\s+(?:the\s+|its\s+|у\s+не[её]\s+)?"
    r"(?:due(?:\s+date)?|deadline|дедлайн\w*|срок\w*)\b"
    # («…, срок убрать», "due date — remove it", «без срока»: the field said first)
    r"|\b(?:срок|дедлайн|due\s+date|deadline)\s*[:—–-]?\s*(?:убрать|убери|снять|сними|удалить|удали|remove(?:\s+it)?|clear(?:\s+it)?|none|нет)\b"
    r"|\bбез\s+срока\b|\bno\s+due\s+date\b"
)
_PAIR = LazyRe(
    r"\b([A-Z]{1,10}-\d+)\s+(?:(?:тоже|too|also|as\s+well)\s+)?(?:[—–-]\s+(?:на\s+|to\s+)?|"
    r"(?:передай|отдай|назначь|assign)\s+(?:на\s+|to\s+)?|"
    r"(?:на|to|->|→|for)\s+)(меня|мне|me|[^\W\d_][\w-]*)",  # "DES-7 передай Олегу, а ENG-105 — мне"
    # («… и CS-15 тоже на меня»: the same hand-over, said again)
    re.IGNORECASE,
)


async def _verbless_assignments(clause: Clause, ctx: BuildContext) -> bool:
    """Each issue said with a person and no verb is given to that person ("cs-15 на олега"), and so is
    each of several with one verb ("Assign ENG-103 to Oleg and ENG-102 to Anna")."""
    pairs = _PAIR.findall(clause.text)
    several = (
        len(pairs) > 1 and clause.has("assign") and not clause.has("complete", "comment", "create", "delete")
    )
    verbs = (
        "complete",
        "delete",
        "archive",
        "comment",
        "create",
        "rename",
        "priority",
        "due",
        "assign",
        "move",
        "put",
    )
    if not several and clause.has(*verbs):
        return False  # a verb says what to do; this reads only "ID на <person>"
    if not pairs or len(pairs) < len(set(clause.identifiers)):
        return False
    rest = re.sub(
        r"(?i)\b(?:и|а|and|тоже|too|also|then|потом|ну|кинь|перекинь|закинь|отдай|передай|плиз|pls|please)\b",
        " ",
        _PAIR.sub(" ", clause.text),
    )
    if not several and re.search(r"[^\W\d_]{2,}", rest):
        return False  # «ENG-103 на Олега, в работу»: more than the hand-over is said — read as one issue's changes
    found = []
    for ident, person in pairs:
        who = await find_user(clause, ctx, person)
        issue = await ctx.directory.issue(ident.upper())
        if who is None or issue is None:
            return False
        found.append((issue, who))
    for issue, who in found:
        ident = str(issue.get("identifier"))
        ctx.memory["issue"] = issue
        await ctx.emit(UpdateIssue(issue=ident, assignee=who.name), issue=issue, assignee=who)
    return True


_ME_WORD = LazyRe(r"(?i)me|myself|i|я|меня|мне|себя|себе")
_POSITION = {
    "first": 0, "1st": 0, "перв": 0, "second": 1, "2nd": 1, "втор": 1, "third": 2, "3rd": 2, "трет": 2,
    "last": -1, "последн": -1,
}  # fmt: skip
_FILLER = LazyRe(
    r"\b(?:mark|as|done|complete|completed|close|finish|finished|resolve|delete|remove|archive|comment|on|the|a|an|"
    r"issue|task|ticket|in|my|list|i'm|i am|with|закрой|закрыть|заверши|выполни|удали|отметь|задачу|задача|задаче|тикет|"
    r"баг|бага|багу|багом|bug|по|rename|переименуй|"
    r"как|готово|сделано|выполненной|выполненную|в|моем|моём|списке|из|про|about|с|я|закончил|закончила|done|"
    r"assign|назначь|to me|на меня|it|its|it's|эту|её|ее|прокомментируй|прокомментировать|откомментируй|"
    r"доделал|доделала|сделал|сделала|для|bump|raise|increase|lower|priority|приоритет|повысь|подними|понизь|"
    r"срок|due|date|поставь|set|okay|ok|thing|stuff|is|was|you|can|could|now|just|so|we|i|this|that|it's|"
    r"please|pls|plz|плз|пожалуйста|уже|всё|все|move|put|переведи|перенеси|сделанную|сделанной|заархивируй|"
    r"архивируй|archive|эту|этот|эта|leave|оставь|комментарий|коммент|добавь|add|описание|description|к|"
    # the hand-over said in every way: «тикет про API перекинь на Макса»
    r"перекинь|перебрось|передай|отдай|повесь|кинь|закинь|тикету|тикета|тикетом|задачке|задачку|give|hand|"
    r"reassign|make|urgent|срочной|срочным|go|can\s+go|"
    r"fix|почини|исправь|and|"
    r"дедлайн|дедлайна|deadline|сдвинь)\b",  # "Fix the login thing and give it to Max": what to do with it names no issue
    re.IGNORECASE,
)

_A_NEW_ISSUE = LazyRe(
    r"(?i)\b(?:a\s+new|new|нов(?:ую|ая|ый|ое|ой)|ещ[её]\s+одн[ау])\s+(?:[\w-]+\s+)?"
    r"(?:issue|task|bug|ticket|задач\w*|задачк\w*|тикет\w*|баг\w*|таск\w*)\b"
)


# where only an issue goes (no deal stage is called so): "…in review", "…to in progress", «…в ревью»
_TO_AN_ISSUE_STATE = LazyRe(
    r"(?i)\b(?:to|into|in|в|во|на)\s+(?:the\s+)?(?:in\s+review|review|in\s+progress|todo|to\s+do|backlog|ревью|"
    r"бэклог|беклог)\s*[.!]?\s*$"
)


_COMMENT_SAYS_THAT = LazyRe(r"(?i)\b(?:comment|коммент\w*|комментари\w*)\b[^:«\"]*?\s(?:that|saying|что)\s")


@rule(32)
async def issue_by_words(clause: Clause, ctx: BuildContext) -> bool:
    """An issue named by position ("the first one"), number ("#2") or words of its title (seed 004)."""
    if (
        clause.identifiers
        or dictated_list(clause.text)  # «три задачи в ENG первая …, вторая …»: new ones, not "the third"
        or not (
            clause.has("complete", "delete", "archive", "comment", "assign", "rename")
            or bool(
                LABEL_ON.search(clause.text)
            )  # "add the X label to the PDF export crash": an issue, however said
            or (
                clause.has("priority", "due", "move", "put")
                or bool(LABEL_ON.search(clause.text) or ADD_EXISTING.search(clause.text))
                or bool(_MADE_URGENT.search(clause.text))  # "make the push notifications one urgent"
            )
            and (
                clause.has("issue", "task")
                # "Lower the priority of the PDF crash to medium": only an issue has a priority
                or clause.has("priority")
                and bool(re.search(r"(?i)\bpriority\s+of\b|\bприоритет\w*\s+(?:у|для)\b", clause.text))
                or bool(_THE_X_ONE.search(clause.text))  # "make the push notifications one urgent"
                # "put the login timeout fix in review": a state only an issue has
                or clause.has("move", "put")
                and bool(_TO_AN_ISSUE_STATE.search(clause.text))
                or bool(ctx.memory.get("told"))
                or bool(quoted(clause.text, at_least=5, apostrophes=True))
            )  # "bump priority on the API ticket", "move the api docs issue to …", "Put 'Login page redesign' into …"
        )
        or clause.has("deal", "note", "crm", "attio")  # "mark my Attio task … as done" is a CRM task
        or clause.has("rename")
        and clause.has("company", "person")  # «переименуй компанию globex в …»
    ):
        return False
    if clause.asks() and not clause.commands() or ctx.memory.get("asking"):
        return False  # "на кого можно назначить задачу?" asks, it does not assign
    if _A_NEW_ISSUE.search(clause.text) and not clause.identifiers:
        return False  # "we need a new issue in engineering called offline mode for ios …": none there is
    if _EVERYTHING.search(clause.text) and not clause.has("issue", "task"):
        return False  # «удали всё по акме»: everything, not one issue whose words fit
    if (
        clause.after_colon
        and not head_of(clause, ctx.now).has("complete", "delete", "archive", "comment", "assign")
        and not ADD_EXISTING.search(clause.text.split(":", 1)[0])
    ):
        return False  # "todo for me in linear: …, high prio" introduces a new task
    deals = [m for m in await find(ctx, clause, "deal") if m.score >= 0.9]
    if not clause.has("issue", "task") and any(m.score >= 1.0 for m in deals):
        return False  # "move Globex pilot to Closed": a deal said in full, whatever issue shares its words
    said = quoted(clause.text)
    named_only = not clause.has("issue", "task") and not said  # "finished the login page redesign"
    if _OPENS_A_NEW_ONE.search(clause.text):
        return False  # "Open an issue in ENG to refresh them, label it docs": a new issue, whatever it is labelled
    if (
        clause.creates()
        and not (LABEL_ON.search(clause.text) or ADD_EXISTING.search(clause.text))
        and not _MADE_URGENT.search(clause.text)  # "make the push notifications issue urgent"
        and not COMMENT_ON_AN_ISSUE.search(clause.text)  # «закинь коммент в тикет про onboarding: …»
    ) or re.match(r"\s*(покажи|найди|show|list|find|search)\b", clause.text, re.I):
        return False
    if re.search(r"(?i)\bпостав\w*\s+(?:мне|ему|ей|им|нам|\w+у)\s+(?:задач\w*|таск\w*)\b", clause.text):
        return False  # «поставь мне задачу починить логин» sets a new task, it names none
    then = re.search(
        r"(?i)\bпостав\w*\s+(?:задач\w*|таск\w*)\s+(?:[А-ЯЁ]\w*[уюе]\s+)?([^\W\d_]+)", clause.text
    )
    if then and is_infinitive(then.group(1)):  # «поставь задачу (Олегу) позвонить Джейн»
        return False  # «поставь задачу позвонить Ивану завтра»: what to do, so a new task
    listing: list[dict[str, Any]] = list(ctx.conversation.get("last_list") or [])
    low = clause.text.lower()
    pos = next((v for k, v in _POSITION.items() if re.search(rf"\b{k}", low)), None)
    num = re.search(r"#\s*(\d{1,3})\b|\b(?:task|issue|задач[ау])\s+(\d{1,3})\b", low)
    if pos is not None or num:
        index = pos if pos is not None else int(num.group(1) or num.group(2)) - 1  # type: ignore[union-attr]
        if listing and -len(listing) <= index < len(listing):
            ident = str(listing[index].get("identifier"))
            clause.identifiers.append(ident)
            return await issue_by_reference(clause, ctx)
        choices = await my_issue_choices(ctx)
        raise ctx.ask(
            "issue",
            ctx.t(
                "Какую задачу? Я ещё не показывал список в этом разговоре.",
                "Which issue? I haven't shown a list in this conversation yet.",
            ),
            choices=choices,
        )
    # "прокомментируй задачу про onboarding: ждём доступы": after the colon is the comment, not the issue
    described = clause.after_colon and ADD_EXISTING.search(clause.text.split(":", 1)[0])
    named_by = (
        clause.text.split(":", 1)[0]
        if (clause.has("comment") or described) and clause.after_colon
        else clause.text
    )
    # "…, since Acme and Globex both reported it", "…, the customer confirmed it's fixed": why, not which issue
    named_by = re.split(r"(?i),?\s+(?:since|because|потому\s+что|так\s+как|т\.\s?к\.)\s", named_by)[0]
    named_by = re.split(
        r"(?i),\s+(?=(?:the\s+\w+|they|she|he|we|i|it'?s|клиент\w*|он[аи]?|мы|я)\s+\w+)", named_by
    )[0]
    if clause.has("rename"):  # "rename the Initech check-in issue to '…'": the new name names no issue
        named_by = re.sub(r"(?i)\s+(?:to|в|на)\s+[«\"'“].*$", "", named_by)
        said = quoted(named_by)  # (nor do its quotes: «переименуй тикет про onboarding в «…»»)
    if clause.has("assign"):  # "assign the onboarding issue to Max": Max names the assignee, not the issue
        named_by = re.sub(r"\s+(?:to|на|для|for)\s+[A-ZА-ЯЁ][\w-]*(?:\s+[A-ZА-ЯЁ][\w-]*)?\s*$", "", named_by)
        # (typed in lower case, "…назначь на макса": the last words, when they name someone of the team)
        whom = re.search(r"(?i)\s+(?:to|на|для|for)\s+([^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s*$", named_by)
        if whom and [m for m in await find(ctx, clause, "user", text=whom.group(1)) if m.score >= 0.5]:
            named_by = named_by[: whom.start()]
    elif label_on := LABEL_ON.search(named_by):  # «повесь метку bug на задачу про экспорт»: after the label
        named_by = named_by[label_on.end() :]
    elif clause.has("move", "put"):
        # "move the api docs issue to in progress": where it goes names no issue («поставь срок на пятницу задаче
        # про экспорт»: the issue is said after the day, and stays)
        named_by = re.sub(
            r"\s+(?:to|into|в|во|на)\s+(?!(?:задач|тикет|issue|ticket|the\s+issue))(?![^,;]*\b(?:задаче|тикету|задачи|тикета)\b)"
            r"[^,;]+$",
            "",
            named_by,
        )
    if (
        clause.moment.spans and named_by == clause.text
    ):  # «…по задаче про чекин на 15 декабря»: the date is the change
        named_by = strip_spans(named_by, clause.moment.spans)
    phrase = said.strip() if said else re.sub(r"\s{2,}", " ", _FILLER.sub(" ", named_by)).strip(" .,!?:")
    # «закрой ту, что про онбординг», "close the one about onboarding": the words after it name which
    about = _THE_ONE_ABOUT.match(phrase) if not said else None
    if about:
        phrase, named_only = phrase[about.end() :].strip(), False
    elif not said and _ONLY_A_POINTER.fullmatch(phrase):
        phrase = ""  # «закрой ту», "close that one": pointed at, nothing named — no title has these letters
    one = _THE_ONE.search(phrase) if not said else None
    if one:  # "close the login one": "one" stands for an issue; the words before it name which
        if await _names_crm_record(clause, ctx):
            return False  # "close the acme one" may as well be a deal: the other rules ask
        phrase = phrase[: one.start()].strip() or phrase
        named_only = False
    level = (
        _BY_PRIORITY.search(named_by) if not said else None
    )  # "give the urgent issue to Max": by its priority
    phrase = phrase or (level.group(0) if level else "")
    if not phrase:
        return await _issue_told_before(clause, ctx) or await _which_issue(clause, ctx)
    answered = ctx.answer("issue")
    if answered:
        clause.identifiers.append(answered)
        return await issue_by_reference(clause, ctx)
    found = await _open_issues_of(ctx, level.group(1) or level.group(2)) if level else []
    if not found:
        found = await ctx.directory.search_issues(phrase)
    if not found:
        found = await issues_by_title_words(phrase, ctx)  # "экспорт в PDF" names "Crash on export to PDF"
    if not found and not said:
        found = await _most_words(phrase, ctx)  # "we shipped the login timeout fix": most of a title, said
    if said:
        exact = [r for r in found if str(r.get("title", "")).lower() == phrase.lower()]
        found = exact or found
    if (
        len(found) == 1
        and not clause.has("issue", "task")
        and _closer_to_a_deal(
            phrase, found[0], [m for m in await find(ctx, clause, "deal") if m.score >= 0.5]
        )
    ):
        return (
            False  # "hand the Acme Corp license over to Oleg": more of the deal's name said than the issue's
        )
    if (
        found
        and not said
        and not clause.has("issue", "task")
        and len([k for k in keys_for(phrase) if len(k.text) > 2]) <= 1
        and await _names_crm_record(clause, ctx)
    ):
        return (
            False  # «удали Acme»: a company's name, whatever issue title shares its word — the CRM rules ask
        )
    if len(found) <= 1 and not said:
        siblings = await _issues_of_a_project_named(phrase, ctx)
        if (
            not found
            or len(siblings) > 1
            and found[0].get("identifier") in {r.get("identifier") for r in siblings}
        ):
            found = siblings  # "the mobile issue": as much the project Mobile App's as DES-7 «Mobile onboarding …»'s
    if len(found) == 1:
        clause.identifiers.append(str(found[0].get("identifier")))
        return await issue_by_reference(clause, ctx)
    if named_only or not found and await _names_crm_record(clause, ctx):
        return False  # not clearly about an issue: other rules (a CRM task, a question) may know better
    if not found:
        choices = await my_issue_choices(ctx)
        listing_txt = "\n".join(f"• {label}" for label, _ in choices)
        raise ctx.ask(
            "issue",
            ctx.t(
                f"Не нашёл задачу «{phrase}». Ваши задачи:\n{listing_txt}",
                f"I couldn't find a task matching '{phrase}'. Here are your current tasks:\n{listing_txt}",
            ),
            choices=choices,
        )
    options = [(f"{r.get('identifier')} {r.get('title')}", str(r.get("identifier"))) for r in found[:5]]
    numbered = "\n".join(f"{i + 1}. {label}" for i, (label, _) in enumerate(options))
    raise ctx.ask(
        "issue",
        ctx.t(
            f"Нашёл несколько задач по «{phrase}»:\n{numbered}\nКакую вы имели в виду?",
            f"I found multiple tasks that match '{phrase}':\n{numbered}\nWhich one did you mean?",
        ),
        choices=options,
        risk="ambiguous",
        free_text=False,
    )


# an issue said by its priority alone: "the urgent issue", «срочную задачу», "the high-priority one"
_BY_PRIORITY = LazyRe(
    r"(?i)\b(?:the|this|that|эту|ту)\s+(urgent|high[\s-]priority|срочн\w+|высокоприоритетн\w+)"
    r"\s+(?:issue|ticket|task|one|bug|задач\w*|тикет\w*)\b|^\s*\w+\s+(срочн\w+|высокоприоритетн\w+)\s+(?:задач\w*|тикет\w*)\b"
)


async def _open_issues_of(ctx: BuildContext, level: str) -> list[dict[str, Any]]:
    """The open issues of that priority, in every team."""
    wanted = 1 if level.lower().startswith(("urgent", "срочн")) else 2
    out: list[dict[str, Any]] = []
    for r in await _every_issue(ctx):
        state = r.get("state")
        kind = str(state.get("type", "")) if isinstance(state, dict) else ""
        if r.get("priority") == wanted and kind not in ("completed", "canceled"):
            out.append(r)
    return out


_ADDS_A_LABEL = LazyRe(
    r"(?i)\s*(?:(?:and|also|и|а|ещё|еще)\s+)*(?:add|put|set|добавь\w*|поставь\w*|повесь\w*)\s+(?:(?:ей|ему|it|the|a)\s+)?"
    r"(?:label|tag|метк\w*|лейбл\w*|тег\w*)\b"
)
_LABEL_CUE = LazyRe(r"\b(метк\w*|тег\w*|лейбл\w*|категори\w*|label\w*|tag\w*)\b", re.I)
_LABEL_RU = {"баг": "bug", "ошибка": "bug", "фича": "feature", "безопасность": "security", "документация": "docs",
             "секьюрити": "security", "секурити": "security", "доки": "docs",
             "онбординг": "onboarding", "запрос клиента": "customer-request"}  # fmt: skip


_LABEL_VERB = LazyRe(
    # ("take the bug label off ENG-101": the verb and its "off" apart)
    r"(?i)\b(?P<off>убери|убрать|сними|снять|удали|удалить|remove|drop|untag|strip|take\s+off|take(?=\s+(?:the\s+)?[\w-]+\s+(?:label|tag)\s+off\b))\b|"
    r"\b(?:добавь|добавить|повесь|повесить|навесь|поставь|пометь|add|tag|put|set|label)\b"
)


async def _label_alone(clause: Clause, ctx: BuildContext) -> bool:
    """ "…, добавь feature" right after an issue: a verb and a label's name, and nothing else."""
    verb = _LABEL_VERB.match(clause.text.strip())
    if verb is None or len(clause.keys) > 3:
        return False
    rest = clause.text.strip()[verb.end() :].strip(" .,!").lower()
    rest = re.sub(r"\s+(?:instead|вместо\s+(?:него|неё|нее|этого))$", "", rest)  # "…, add security instead"
    return rest in {x.name.lower() for x in await ctx.directory.labels()} or rest in _LABEL_RU


async def _labels(clause: Clause, ctx: BuildContext, issue: dict[str, Any]) -> dict[str, list[Entity]] | None:
    """ "добавь метку bug к ENG-104", "сними метку bug с ENG-103 и повесь feature", "ENG-103: убери
    bug, добавь feature": which labels go and which come — each goes the way of the verb before it.
    A label's name right after such a verb is a label change even without the word "label"."""
    team = issue.get("team")
    labels = await ctx.directory.labels(
        str(team["id"]) if isinstance(team, dict) and team.get("id") else None
    )
    low = clause.text.lower()
    names = {lbl.name.lower(): lbl for lbl in labels} | {
        ru: lbl for ru, en in _LABEL_RU.items() for lbl in labels if lbl.name == en
    }
    said = sorted(
        (m.start(), lbl)
        for name, lbl in names.items()
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", low)
    )
    # "put it in Customer Onboarding": a word of a project's name said whole is no label
    projects = [
        m.span()
        for p in await ctx.directory.projects()
        for m in re.finditer(rf"(?<![\w-]){re.escape(p.name.lower())}(?![\w-])", low)
    ]
    said = [(at, lbl) for at, lbl in said if not any(a <= at < b for a, b in projects)]
    # "Remove the bug label from ENG-101 — turned out it's a config issue, not our bug": the label in why is no change
    why = re.search(
        r"\s[—–]\s|,\s+(?:it'?s|it\s+is|turned|since|because|as|так\s+как|потому|это)\b", clause.text
    )
    if why and not _LABEL_VERB.search(low[: why.start()]):
        why = None  # ("ENG-101 isn't a bug, it's a feature request — swap the labels": the ask comes after)
    if (
        why
        and any(at < why.start() for at, _ in said)
        and not _LABEL_VERB.search(low[why.end() :])
        and not any(is_imperative(w) for w in re.findall(r"[а-яё]{4,}", low[why.end() :]))
    ):
        said = [(at, lbl) for at, lbl in said if at < why.start() or _IT_IS_REALLY.search(low[:at])]
    elif why and any(at < why.start() for at, _ in said):
        # «Сними метку bug с ENG-101, это скорее фича — повесь feature»: the label in why, up to the next ask
        ask = re.search(r"\s[—–-]\s|[.;]\s", low[why.end() :])
        upto = why.end() + ask.start() if ask else why.end()
        said = [
            (at, lbl) for at, lbl in said if not why.start() <= at < upto or _IT_IS_REALLY.search(low[:at])
        ]
    if not _LABEL_CUE.search(clause.text):  # "set the onboarding screens issue to …": its title's words
        title = str(issue.get("title", "")).lower()
        said = [(at, lbl) for at, lbl in said if lbl.name.lower() not in title]
    verbs = list(_LABEL_VERB.finditer(low))
    verbs = [  # «сними label bug»: "label" right after a verb is the noun, not a verb of its own
        v
        for v in verbs
        if not (
            v.group(0) in ("label", "tag") and any(0 <= v.start() - u.end() <= 3 for u in verbs if u is not v)
        )
    ]
    named_after_verb = any(
        any(v.end() <= at <= v.end() + 24 for v in verbs) for at, _ in said
    )  # "убери bug": the label, not the issue
    if not (_LABEL_CUE.search(clause.text) or named_after_verb):
        return None
    if not said:
        raise ctx.ask(
            "label", ctx.t("Какую метку?", "Which label?"), choices=[(x.name, x.id) for x in labels[:5]]
        )
    out: dict[str, list[Entity]] = {}
    for at, lbl in said:
        verb = next((v for v in reversed(verbs) if v.start() < at), None)
        side = "labels_remove" if verb is not None and verb.group("off") else "labels_add"
        if _NOT_A.search(low[:at]):
            side = "labels_remove"  # "ENG-101 isn't a bug, it's a feature request — swap the labels": it is no bug
        elif _IT_IS_REALLY.search(low[:at]) or _NOT_THAT_BUT_THIS.search(low[:at]):
            side = "labels_add"  # "unlabel bug from ENG-101, it's actually a feature", «это не баг это фича»: it is one
        if lbl not in out.setdefault(side, []):
            out[side].append(lbl)
    return out


def _defer(clause: Clause, ctx: BuildContext) -> tuple[str, str | None] | None:
    """Seed 002's defer strategies: someday, next_week, next_month."""
    if not re.search(r"\b(отлож\w*|перенес\w*|defer\w*|postpone\w*|push\w*|snooze\w*)\b", clause.text, re.I):
        return None
    low = clause.text.lower()
    today = ctx.now.date()
    if re.search(r"когда-нибудь|потом|someday|later|backlog|бэклог", low):
        return "someday", None
    if re.search(r"следующ\w+ месяц|next month|на месяц", low):
        first = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
        return "next_month", first.isoformat()
    if re.search(r"следующ\w+ недел|next week|на неделю", low):
        return "next_week", (today + timedelta(days=7 - today.weekday())).isoformat()
    if clause.moment.day:
        return "date", clause.moment.day.isoformat()
    return None


_SUB_CUE = LazyRe(r"(?i)\b(?:подзадач\w*|sub-?issues?|sub-?tasks?|child\s+issues?)\b")
_SPLIT_CUE = LazyRe(
    r"\b(разбей|разбить|раздели|подзадач\w*|sub-?issues?|sub-?tasks?|split|break\s+down)\b", re.I
)


@rule(29, writes=True)
async def sub_issues(clause: Clause, ctx: BuildContext) -> bool:
    """ "Разбей ENG-104 на подзадачи: a, b, c" -> 1..5 sub-issues (seed 002); "create a sub-issue 'X' under
    the Romashka SSO ticket" -> one, under the issue its words name."""
    pointed = (  # "ENG-105 is too big … . Split it into sub-issues: …": the issue just named
        not clause.identifiers
        and ctx.memory.get("issue")
        and re.search(r"(?i)\b(?:it|её|ее|его|эту|this\s+one)\b", clause.text.split(":", 1)[0])
    )
    if _SUB_CUE.search(clause.text) and (clause.after_colon is None or not (clause.identifiers or pointed)):
        return await _one_sub_issue(clause, ctx)
    if (
        not (clause.identifiers or pointed)
        or not _SPLIT_CUE.search(clause.text)
        or clause.after_colon is None
    ):
        return False
    issue = await resolve_issue(clause, ctx)
    if issue is None:
        return False
    listed = clause.after_colon
    given = _ASSIGN_TAIL.search(
        listed
    )  # "…: 'Invalidate the old key in Vault'. Assign to Oleg": whose they are
    assignee = await find_user(clause, ctx, given.group(1)) if given else None
    if given and assignee is None:
        return False  # a name that is no one here: the other rules ask about it
    listed = listed[: given.start()] if given else listed
    level = None
    one = _QUOTED_THEN_DETAILS.fullmatch(listed)
    if one:  # "…: 'Audit other staging secrets' → Oleg, urgent": one title, then whose and how urgent
        items = [one.group(1) or one.group(2)]
        level = priority_name(priority_of(one.group(3) or ""))
        to = re.search(r"(?i)(?:→|->|\bto\b|\bна\b|[—–-])\s*([^\W\d_][\w-]*)", one.group(3) or "")
        if to and assignee is None:
            assignee = await find_user(clause, ctx, to.group(1))
    else:
        items = [x.strip(" .-—•") for x in re.split(r"\s*(?:,|;|\n|\s+и\s+|\s+and\s+)\s*", listed)]
        items = [re.sub(r"^['\"«“](.+)['\"»”]$", r"\1", x) for x in items if x]
        fields = []  # «Подзадачу к ENG-105: протестировать пуши на iOS 17, на Макса»: whose, not a second one
        for x in items[1:]:
            whom = re.fullmatch(
                r"(?i)(?:на|for|to|→|-?>|=>|assign(?:\s+to)?)\s*([^\W\d_][\w-]*)", x
            )  # ("-> max": "> max")
            who = await find_user(clause, ctx, whom.group(1)) if whom else None
            if who is None and re.fullmatch(r"[^\W\d_]+", x):  # "…: android parity, oleg": a colleague alone
                who = await find_user(clause, ctx, x)
            if who is not None and assignee in (None, who):
                assignee = who
                fields.append(x)
            elif priority_of(x) and len(x.split()) <= 2:  # ", срочно", ", high priority"
                level = priority_name(priority_of(x))
                fields.append(x)
            elif re.fullmatch(
                r"(?i)(?:make\s+it\s+|as\s+)?(?:a\s+)?sub-?issue\s+(?:of|under|to)\s+[A-Za-z]{1,10}-\d+", x
            ):
                fields.append(x)  # "…, make it a sub-issue of ENG-101": where it goes, said again
        items = [x for x in items if x not in fields]
    if not 1 <= len(items) <= 5:
        raise ctx.ask(
            "items",
            ctx.t(
                f"Подзадач {len(items)}, а можно от 1 до 5 за раз. Какие оставить?",
                f"That is {len(items)} sub-issues; 1 to 5 at a time. Which ones?",
            ),
        )
    ident = str(issue.get("identifier") or issue["id"])
    for title in items:
        await ctx.emit(
            CreateIssue(
                title=title[:255], parent=ident, assignee=assignee.name if assignee else None, priority=level
            ),
            parent=issue,
            assignee=assignee,
        )
    return True


_SUB_ISSUE_FOR = LazyRe(
    r"(?i)\b(?:sub-?issue|sub-?task|child\s+issue|подзадач\w*)\s+(?:under|of|to|for|in|к|в|для|под)\s+[A-Za-z]{1,10}-\d+\s+"
    r"(?:for|about|to|на|про|по|для|чтобы)\s+(.{3,}?)\s*[.!]?$"
)


# "make 'Fix login timeout' a sub-issue of 'Login page redesign'", «сделай «…» подзадачей «…»»: both there are
_MAKE_A_SUB_ISSUE = LazyRe(
    r"(?i)^\s*(?:please\s+|пожалуйста,?\s+)?(?:make|turn|set|сделай|сделать|сделайте)\s+(?P<child>.+?)\s+"
    r"(?:(?:a|an|into\s+a|as\s+a)\s+)?(?:sub-?issue|sub-?task|child(?:\s+issue)?|подзадач\w*|дочерн\w*(?:\s+задач\w*)?)"
    r"\s+(?:(?:of|under|to|for|у|для|к|под)\s+)?(?P<parent>.+?)\s*[.!]?$"
)


async def _issues_called(phrase: str, ctx: BuildContext) -> list[dict[str, Any]]:
    """The issues a phrase names by its title's words: Linear's search, then every word, then the most words."""
    phrase = phrase.strip(" .,:;'\"«»“”")
    if not phrase:
        return []
    if re.fullmatch(r"[A-Za-z]{1,10}-\d+", phrase):  # (a whole title said is read as its id before the rules)
        row = await ctx.directory.issue(phrase.upper())
        return [row] if row else []
    found = await ctx.directory.search_issues(phrase)
    found = found or await issues_by_title_words(phrase, ctx)
    return found if len(found) == 1 else await _most_words(phrase, ctx)


async def _made_a_sub_issue(clause: Clause, ctx: BuildContext) -> bool:
    """An issue there is made a sub-issue of another, both named by their titles: a change of its parent."""
    m = _MAKE_A_SUB_ISSUE.match(clause.text)
    if not m or len(set(clause.identifiers)) > 1:
        return False  # (by ids: the change rule reads "make ENG-104 a sub-issue of ENG-102")
    child, parent = await _issues_called(m["child"], ctx), await _issues_called(m["parent"], ctx)
    if len(child) != 1 or len(parent) != 1 or child[0]["id"] == parent[0]["id"]:
        raise ctx.ask(
            "issue",
            ctx.t(
                "Не нашёл однозначно обе задачи. Какую сделать подзадачей (лучше по номеру, например ENG-101)?",
                "I could not tell both issues apart. Which issue becomes the sub-issue (an id like ENG-101 helps)?",
            ),
            choices=await my_issue_choices(ctx),
        )
    ident = str(child[0].get("identifier") or child[0]["id"])
    await ctx.emit(
        UpdateIssue(issue=ident, parent=str(parent[0].get("identifier") or parent[0]["id"])), issue=child[0]
    )
    return True


async def _one_sub_issue(clause: Clause, ctx: BuildContext) -> bool:
    """One sub-issue, its title quoted (or after a colon), under the issue named by id or by its words."""
    if await _made_a_sub_issue(clause, ctx):
        return True
    title = quoted(clause.text, apostrophes=True) or clause.after_colon
    said_after = None if title else _SUB_ISSUE_FOR.search(clause.text)
    title = said_after.group(1) if said_after else title  # "add a sub-issue under ENG-105 for handling …"
    asked_for = clause.creates() or re.search(r"(?i)\b(?:добавь|заведи|create|add|open)\b", clause.text)
    # "create a new sub-issue, please": nothing said but that one is wanted
    bare = not re.sub(
        r"(?i)\b(?:new|please|pls|пожалуйста|нов\w*|ещё|еще|one|одну)\b",
        " ",
        _FILLER.sub(" ", _SUB_WORDS.sub(" ", clause.text)),
    ).strip(" .,!?:;")
    if not title and asked_for and not clause.identifiers and (bare or _UNDER_AN_ISSUE.search(clause.text)):
        # "create a sub-issue under Crash on export to PDF": where it goes, but not what it is called
        raise ctx.ask("title", ctx.t("Как назвать подзадачу?", "What should the sub-issue be called?"))
    if not title or not asked_for:
        return False
    if clause.identifiers:
        parent = await resolve_issue(clause, ctx)
    else:
        rest = clause.text.replace(title, " ")
        rest = re.sub(r"(?i)\b(?:assign(?:ed)?(?:\s+it)?\s+to|на)\s+\S+", " ", rest)
        phrase = re.sub(r"\s{2,}", " ", _SUB_WORDS.sub(" ", _FILLER.sub(" ", rest))).strip(" .,:;'\"«»")
        found = await _issues_called(phrase, ctx)
        if len(found) != 1:
            raise ctx.ask(
                "issue",
                ctx.t("Под какую задачу завести подзадачу?", "Which issue is it a sub-issue of?"),
                choices=await my_issue_choices(ctx),
            )
        parent = found[0]
    if parent is None:
        return False
    from planner.rules.linear import new_issue_assignee  # lazily: a sibling rule module

    ident = str(parent.get("identifier") or parent["id"])
    assignee, _ = await new_issue_assignee(replace(clause, text=clause.text.replace(title, " ")), ctx)
    await ctx.emit(
        CreateIssue(title=title.strip()[:255], parent=ident, assignee=assignee.name if assignee else None),
        parent=parent,
        assignee=assignee,
    )
    ctx.memory.pop("issue", None)  # "… and assign it to Oleg": "it" is the new one, not its parent
    return True


_UNDER_AN_ISSUE = LazyRe(r"(?i)\b(?:under|of|for|to|под|к|для|у)\s+(?:the\s+)?\S")
_SUB_WORDS = LazyRe(
    r"(?i)\b(?:under|create|add|open|a|an|the|sub-?issues?|sub-?tasks?|подзадач\w*|добавь|заведи|создай|под|к|"
    r"for|of|to|it|and|и|assign\w*)\b"
)


_SEND_TO = LazyRe(r"(?i)\b(?:отправь|отправить|send|верни|вернуть|return|кинь|закинь|закинуть)\b")
_PARENT = LazyRe(
    r"(?i)\b(?:sub-?issue|child|подзадач\w*|дочерн\w*\s+задач\w*)\s+(?:(?:of|for|to|у|для|к|под)\s+)?([A-Z]{1,10}-\d+)"
)
_CLOSE_WITH = LazyRe(
    r"(?i)\b(?:закр\w+|заверши\w*|close[sd]?|closing|resolve[sd]?|complete)\b[^.;:]{0,40}?\b(?:с\s+комментари\w+|with\s+(?:a\s+|the\s+)?comment)"
)
_TITLE_WORD = LazyRe(r"(?i)\b(?:названи\w*|заголов\w*|title|name)\b")
_SETS_TITLE = LazyRe(
    r"(?i)\b(?:set|change|update|edit|fix|поменяй|измени|смени|обнови|поправь|исправь)\s+(?:the\s+)?(?:title|названи\w*|заголов\w*)\b"
)


_QUOTE_SPANS = LazyRe(r"«[^»]*»|\"[^\"]*\"|“[^”]*”")
# what is said goes after the description there is, not instead of it
_ADDED_TO = LazyRe(r"(?i)\b(?:add\s+to|append\s+to|добавь\s+(?:в|к)|допиши\s+(?:в|к)|дополни)\b")
_THAT_AS_A_COMMENT = LazyRe(
    r"(?i)(?:^|(?<=[.!?…»”,])\s+)(?:(?:please|пожалуйста|also|и|а)\s+)*(?:leave|add|put|post|log|drop|write|оставь\w*|добавь\w*|запиши\w*|закинь\w*|"
    r"напиши\w*)"
    r"\s+(?:that|this|it|это|то)\s+(?:as\s+a\s+comment|комментари\w+|в\s+комментари\w*)"
    # "… shows twice on first launch. Comment that on ENG-105", «прокомментируй это в CS-12»: the words before
    r"|(?:^|(?<=[.!?…»”,])\s+)(?:(?:please|also|and|и|а)\s+)*(?:comment|прокомментируй\w*)\s+(?:that|this|это|то)"
    r"(?=\s*(?:(?:on|in|to|в|к|на)\s+(?:[A-Za-z]{1,10}-\d+|(?:the\s+|that\s+)?(?:issue|ticket|task)|it|задач\w+|"
    r"тикет\w*|не[йём]|него))?\s*[.!]?\s*$)"
    # '"Your v2 API docs still show the old auth flow." -> comment on ENG-104 with that': the words quoted
    r"|(?:^|(?<=[.!?…»”>\"])\s*)(?:(?:please|also|and)\s+)*comment\s+on\s+[A-Za-z]{1,10}-\d+\s+with\s+(?:that|this|it)"
    r"(?=\s*[.!]?\s*$)"
)


def _comment_body(text: str) -> str | None:
    said = _QUOTE_AS_COMMENT.search(text)  # "leave «Max: I'm off until Monday» as a comment on ENG-105"
    if said:
        return said.group(1).strip()
    m = re.search(
        r"(?:коммент\w*|comment(?:\s+on)?|напиши\s+в|отпиши\w*|прокомментируй)[\s,]+(?:(?:к|to|on|в|во|у|под|in|for)\s+)?"
        r"(?:(?:ней|нём|нем|неё|нее|ней|it|этой|этом|задаче|тикете|там|there)\b\s*)?(?:[A-Z]{1,10}-\d+(?!\d)\s*)?[:\-—,]?\s*(.+)$",
        re.sub(r"(?i)\b[A-Z]{1,10}-\d+\b", lambda m: m.group(0).upper(), text),
        re.I,
    )
    body = m.group(1).strip() if m else ""
    # "drop a comment saying 'fixed in 2.4.1'", «с текстом «…»»: what it says, then the words
    body = re.sub(
        r"(?i)^(?:saying|that\s+says|reading|with\s+the\s+text|with|с\s+текстом|текст|с)\s*:?\s*(?=[«\"'“])",
        "",
        body,
    )
    # "Add a comment to DES-7 saying the copy is final": what follows "saying" is what it says
    body = re.sub(r"(?i)^(?:saying|that\s+says)\s+(?=\S)", "", body)
    body = re.sub(
        r"^[«\"'“](.+)[»\"'”][.!]?$", r"\1", body.strip()
    )  # "Comment on CS-13 'SSO metadata received'"
    body = re.sub(r"^(?:[A-Z]{1,10}-\d+)\s*[:\-—]?\s*", "", body).strip()
    if re.fullmatch(r"(?i)(?:[A-Z]{1,10}-)?\d*[\W_]*", body):
        return None  # "Comment on ENG-101." says where, not what
    if re.fullmatch(
        r"(?i)(?:on\s+[\w\s'’-]{1,40}?(?:'s|’s)?\s+behalf|от\s+(?:имени|лица)\s+[\w\s-]{1,40})[.!]?", body
    ):
        return None  # "add a comment to ENG-106 on Sarah's behalf": whose it is, not what it says
    if re.fullmatch(r"(?i)(?:the|this|that|our)\s+[\w\s-]{0,40}?\b(?:issue|ticket|task|bug)s?", body):
        return None  # "Comment on the iOS issue": which issue, not what to say
    if re.fullmatch(
        r"(?i)(?:(?:задач\w*|тикет\w*)\s+)?(?:по|про|насч[её]т|about|re|regarding|for)\s+\S+(?:\s+\S+)?[.!]?",
        body,
    ):
        return None  # «добавь коммент к задаче по Globex»: which issue, not what to say
    # "напиши в комментарии, что фикс уехал" / "comment that the build is out": the words after "что"/"that"
    body = re.sub(r"^(?:(?:в|во|in)\s+)?(?:коммент\w*|comments?)\b\s*", "", body, flags=re.I)
    body = re.sub(r"^[,:\-—]?\s*(?:что|that)\s+", "", body, flags=re.I).strip()
    # "comment on the login page redesign that the mockups are ready": the words naming the issue go
    body = re.sub(r"^(?:the\s+)?[^,:;]{3,60}?\s+(?:that|что)\s+(?=\S)", "", body, count=1, flags=re.I).strip()
    return body or None


_QUOTE_AS_COMMENT = LazyRe(
    r"(?i)[«“\"]([^«»“”\"]{3,})[»”\"]\s+(?:as|как)\s+(?:a\s+|the\s+)?(?:comment|коммент\w*|комментари\w*)\b"
)


def _new_title(text: str) -> str | None:
    said = list(re.finditer(r"[«\"“']([^»\"”']+)[»\"”']", text))
    # "Rename 'Mobile onboarding screens' to 'Mobile onboarding screens v2'": the old title, then the new one
    after_to = [q for q in said[1:] if re.search(r"(?i)(?:\bto|\bв|\bна|->|→)\s*$", text[: q.start()])]
    found = after_to[-1] if after_to else said[0] if said else None
    if found:
        return found.group(1).strip()
    # ("ENG-102 to …", "ENG-102 rename to …", «ENG-102 переименуй в …», "title of DES-7 to …")
    m = re.search(
        r"(?:\b[A-Z]{1,10}-\d+|\b(?:rename|переименуй|title|названи\w*|заголов\w*))\s+(?:(?:of\s+|у\s+)?[A-Z]{1,10}-\d+\s+)?"
        r"(?:to|в|на|as)\s+(.+)$",
        text,
        re.I,
    )
    return m.group(1).strip(" .") if m else None


async def _state_named(clause: Clause, ctx: BuildContext, team_id: str) -> Entity | None:
    """ "переведи ENG-102 в In Progress": a workflow state named after "в"/"to"/"into"."""
    if not team_id:
        return None
    states = await ctx.directory.states(team_id)
    # the last place named is where it goes: «из бэклога в Todo», "…в PDF всплыл. Переведи его в Todo"
    alone = _BARE_STATE_ITEM.search(clause.text)
    found = [*_TO_STATE.finditer(clause.text), *([alone] if alone else [])]
    for m in reversed(found):
        wanted = re.sub(r"(?<=in)-", " ", m.group(1).lower().strip(" .«»\"'"))
        for st in states:
            bare = re.sub(r"^(?:status|state|статус|состояние)\s+", "", wanted)  # "в статус In Review"
            if st.name.lower() in (wanted, bare):
                return st
            rest = bare[len(st.name) :] if bare.startswith(st.name.lower()) else ""
            if re.match(r"(?i)\s+(?:with|and|и|с|со|plus)\s", rest):
                return st  # "to In Progress with high priority": the state, then another change
        said = next((name for rx, name in _STATE_GOALS if rx.fullmatch(wanted)), None)  # «в работу»
        if said is not None:
            return next((st for st in states if st.name == said), None)
    return None


# "eng-103 -> todo, oleg, due mon", "ENG-103: oleg, high priority": one word among an issue's fields
# («ENG-106 — срочно, на Макса, срок завтра», «ENG-102: приоритет высокий, исполнитель Олег»: said with "на"/the field)
_FIELD_ITEM_ALONE = LazyRe(
    # («ENG-102 в In Progress, и на меня»: the hand-over said last, with "and")
    r"(?:^\s*[A-Za-z]{1,10}-\d+\s*[:—–]|[,;](?:\s*(?:и|and)(?=\s))?|\s(?:и|and)(?=\s+(?:на|to)\s))\s*"
    r"(?:(?:на|to|→|->|исполнител\w*|ответственн\w*|assignee|owner)\s*[:—-]?\s*)?"
    r"([^\W\d_]{2,20})\s*(?=[,;.]|$)"
)
_BARE_STATE_ITEM = LazyRe(
    r"(?i)(?:^|[,;—–]\s*)(todo|to-do|backlog|in[\s-]progress|in[\s-]review|triage"
    # «ENG-103 — срочно, Олегу, в работу»: where it goes, said alone among the changes
    r"|(?:в|во|на)\s+(?:работу|ревью|проверку|бэклог|беклог|todo|review|backlog))\s*(?=[,;(.!]|$)"
)
# (each place said, overlapping: «…при экспорте в PDF переведи в работу» names "в работу" last)
_TO_STATE = LazyRe(r"(?=(?:\b(?:в|во|на|to|into|in|as)|->|→|=>)\s+([^,;.!]+?)\s*(?:[,;.!]|$))", re.I)


# where an issue is sent, said the way people say it: «в работу», «на ревью», "to review", «в бэклог»
_STATE_GOALS = [
    (re.compile(r"работу|процесс|progress|wip|ин\s+прогресс\w*|прогресс"), "In Progress"),
    (re.compile(r"ревью|review|проверку|code\s+review|ин\s+ревью"), "In Review"),
    (re.compile(r"бэклог|беклог|backlog"), "Backlog"),
    (re.compile(r"todo|to\s+do|тудушки|ту\s*ду|тудушку"), "Todo"),
    (re.compile(r"триаж|triage"), "Triage"),
]


async def _record_in_title(clause: Clause, ctx: BuildContext, title: str) -> bool:
    """Every CRM record the clause names is in this issue's title ("the SSO setup for Romashka")."""
    named = [
        m for kind in ("person", "company", "deal") for m in await find(ctx, clause, kind) if m.score >= 0.9
    ]
    return all(match_words(keys_for(m.entity.name)[:1], keys_for(title)) for m in named)


def _closer_to_a_deal(phrase: str, issue: dict[str, Any], deals: list[Mention]) -> bool:
    """The words say as much of one deal's name as of the issue's title, or more ("close the pilot": two deals
    are pilots, and CS-14's title says «пилоту» — no reason to think it is the issue)."""
    said = [k for k in keys_for(phrase) if len(k.text) > 2]

    def shared(name: str) -> int:
        return sum(match_words([w], keys_for(name)) for w in said)

    in_title = shared(str(issue.get("title", "")))
    return any(shared(m.entity.name) >= in_title for m in deals)


_BY_A_DAY = LazyRe(r"(?i)^\s*[a-z]{2,5}-\d+\s*[—–:,-]?\s*(?:до|к|by|before)\s+\S")
_THE_LINK = LazyRe(r"(?i)\b(?:the|this|that)\s+(?:link|url|pr\s+link)\b|\b(?:эту\s+|эту\s+же\s+)?ссылк\w*\b")


_IT_INTO_A_PROJECT = LazyRe(
    # «…, и добавь в проект Mobile App»: said right after the issue, "it" left out
    r"(?i)^\W*(?:(?:and|и|а|also|ещё|еще)\s+)?(?:добавь|положи|закинь|put|add)\s+(?:в|во|to|into)\s+(?:the\s+)?"
    r"(?:проект\w*|project)\s+\S"
    r"|\b(?:add|put|move|добавь|положи|перенеси)\s+(?:it|them|её|ее|его|их)\s+(?:to|in|into|в|во)\s+(?:the\s+)?"
    r"(?:[\w-]+\s+){0,3}(?:project|проект\w*)\b|\b(?:add|добавь)\s+(?:it|them|её|ее|его|их)\s+(?:to|в)\s+(?:the\s+)?(?:проект\w*|project)\b"
    # «…и привяжи к проекту Customer Onboarding», "and link it to the Q1 Launch project"
    r"|^\W*(?:(?:and|и|а|also|ещё|еще)\s+)?(?:привяжи|свяжи|link)\s+(?:(?:it|them|её|ее|его|их)\s+)?(?:к|с|to|with)\s+(?:the\s+)?"
    r"(?:(?:[\w-]+\s+){0,3}project|проект\w*)\b"
)


def _why_said_before(ctx: BuildContext) -> str:
    """What the clause before said besides its own request: «ENG-105 срок сдвинь на 20 декабря, Apple задерживает
    ревью, и напиши это в комментарии» comments why, not the request again."""
    before = ctx.said_before()
    pieces = [x.strip(" ,.;") for x in re.split(r",\s*|\s[—–-]\s", before) if x.strip(" ,.;")]
    if not pieces or not analyse(pieces[0], ctx.now).commands():
        return before  # "The push prompt shows twice — a regression …. Comment that on ENG-105": all of it
    why = [x for x in pieces[1:] if not analyse(x, ctx.now).commands()]
    return ", ".join(why) if why else before


async def _names_crm_record(clause: Clause, ctx: BuildContext) -> bool:
    for kind in ("person", "company", "deal"):
        if any(m.score >= 0.9 for m in await find(ctx, clause, kind)):
            return True
    return False


async def _issue_told_before(clause: Clause, ctx: BuildContext) -> bool:
    """ "Oleg rotated the leaked staging key this morning, close the task": a request that names no issue
    itself is about the one the sentence before it described — when its words fit that issue and no other."""
    said_before: list[tuple[int, str]] = ctx.memory.get("told") or []
    told = " ".join(text for _, text in said_before)
    if told and any(m.score >= 1.0 for m in await find(ctx, clause, "deal", text=told)):
        return False  # «Globex pilot закрыли, переведи в Won»: the sentence named a deal, not an issue
    found = (await issues_by_title_words(told, ctx) or await _most_words(told, ctx)) if told else []
    if len(found) != 1:
        return False
    ctx.memory["told_used"] = {i for i, _ in said_before}  # they named the issue; they asked for nothing
    clause.identifiers.append(str(found[0].get("identifier")))
    return await issue_by_reference(clause, ctx)


async def _which_issue(clause: Clause, ctx: BuildContext, *, said_issue: bool = False) -> bool:
    """ "close the issue", «закрой задачу»: a change to an issue the request does not name — which one is
    asked (the person's own open issues offered), and the answer is that issue. ("mark the task done" may
    as well be a CRM task: the other rules and the routing question have it.)"""
    if not (said_issue or clause.has("issue") or _ISSUE_IN_RUSSIAN.search(clause.text)):
        return False
    if not clause.has("comment") and (
        clause.creates()
        or clause.after_colon
        or any(is_infinitive(w) for w in re.findall(r"[а-яё]+", clause.text.lower()))
    ):
        return False  # «поставь задачу в ENG подготовить чеклист»: what to do is said — a new one, not which
    answered = (ctx.answer("issue") or "").strip()
    if _AN_ID.fullmatch(answered):
        clause.identifiers.append(answered.upper())
        return await issue_by_reference(clause, ctx)
    found = await issues_by_title_words(answered, ctx) if answered else []
    if len(found) == 1:  # answered in words: "the login one"
        clause.identifiers.append(str(found[0].get("identifier")))
        return await issue_by_reference(clause, ctx)
    raise ctx.ask("issue", ctx.t("Какую задачу?", "Which issue?"), choices=await my_issue_choices(ctx))


@rule(97, writes=True)
async def issue_not_named(clause: Clause, ctx: BuildContext) -> bool:
    """ "set the priority to high", «оставь комментарий: проверил», "move it to in progress": a change only an
    issue has, with no issue (nor any record) named — which issue is asked, never the routing question."""
    if (
        clause.identifiers
        or clause.asks()
        and not clause.commands()
        or not (
            clause.has("priority")
            or clause.has("comment")
            and not clause.has("note", "deal", "crm")
            or clause.has("move", "put")
            and bool(_TO_AN_ISSUE_STATE.search(clause.text))
        )
        or ctx.memory.get("issue")
    ):
        return False
    for kind in ("deal", "company", "person"):
        if strong(await find(ctx, clause, kind)):
            return False  # a record is named: not an issue's change, whatever the words
    if await issues_by_title_words(clause.text, ctx) or await _most_words(clause.text, ctx):
        return False  # "Bump the PDF export crash to high priority": named by its words (what follows may say more)
    return await _which_issue(clause, ctx, said_issue=True)


_THE_ONE_ABOUT = LazyRe(
    r"(?i)^(?:(?:the|that)\s+one|ту|тот|ту\s+задачу|тот\s+тикет)\s*,?\s*(?:(?:что|которая|который|which\s+is|that\s+is|that'?s)\s+"
    r"(?:(?:про|about|on|по|насчёт|насчет|regarding)\s+)?|(?:про|about|on|по|насчёт|насчет|regarding)\s+)(?=\S)"
)
_ONLY_A_POINTER = LazyRe(r"(?i)(?:ту|тот|та|то|эту|этот|это|её|ее|его|it|this|that|(?:that|this|the)\s+one)")
_ISSUE_IN_RUSSIAN = LazyRe(r"(?i)\bзадач[уаие]\b")
_AN_ID = LazyRe(r"(?i)[a-z]{2,5}-\d{1,5}")


async def _most_words(phrase: str, ctx: BuildContext) -> list[dict[str, Any]]:
    """The one issue whose title shares the most words with the phrase — at least two of them, and
    well ahead of any other issue (a tie is no answer)."""
    from planner.resolve import keys_for, match_words

    words = [k for k in keys_for(phrase) if len(k.text) > 2]
    if len(words) < 2:
        return []
    rows = await _every_issue(ctx)
    scored = sorted(
        ((sum(match_words([w], keys_for(str(r.get("title", "")))) for w in words), r) for r in rows),
        key=lambda x: -x[0],
    )
    if not scored or scored[0][0] < 2 or len(scored) > 1 and scored[1][0] >= scored[0][0]:
        return []
    return [scored[0][1]]


async def issues_by_title_words(phrase: str, ctx: BuildContext) -> list[dict[str, Any]]:
    """Issues whose titles contain every word of the phrase, in any language's spelling or case.
    (Linear's search is literal; people say "экспорт" about an issue titled "export".)"""
    from planner.resolve import keys_for, match_words

    keys = keys_for(phrase)
    words = [k for k in keys if len(k.text) > 2]
    # «задача по кп для ромашки»: a short word that is no preposition (кп, qa, ui) must fit the title too
    short = [k for k in keys if len(k.text) <= 2 and k.text not in _SHORT_WORDS and k.text.isalpha()]
    if not words:
        return []
    return [
        r
        for r in await _every_issue(ctx)
        if match_words(words, keys_for(str(r.get("title", ""))))
        and all(s.text in str(r.get("title", "")).lower().split() for s in short)
    ]


async def _issues_of_a_project_named(phrase: str, ctx: BuildContext) -> list[dict[str, Any]]:
    """The issues of the project whose name the phrase's words all fit ("mobile" → Mobile App's issues)."""
    words = [k for k in keys_for(phrase) if len(k.text) > 2]
    if not words:
        return []
    named = {p.id for p in await ctx.directory.projects() if match_words(words, keys_for(p.name))}
    if not named:
        return []
    return [
        r
        for r in await _every_issue(ctx)
        if isinstance(r.get("project"), dict) and r["project"].get("id") in named
    ]


async def _every_issue(ctx: BuildContext) -> list[dict[str, Any]]:
    """Every team's issues, read now (one call per team)."""
    rows: list[dict[str, Any]] = []
    for team in await ctx.directory.teams():
        rows += await ctx.directory.team_issues(team.id)
    return rows


_STATE_THEN_COMMENT = LazyRe(
    r"(?i)^\s*[A-Za-z]{1,10}-\d+\s+(?P<state>(?:на|в|во|to|into|→|->)\s+[^,:;]{2,20}?)[,\s]+(?:и\s+|and\s+|\+\s*)?"
    r"(?:коммент\w*|комментари\w*|comment)\s*:"
)
# what is left of "comment that on the issue" once its verb is read: where, and no words
_ONLY_WHERE = LazyRe(
    r"(?i)\s*(?:on|in|to|at|в|к|на)\s+(?:the\s+|that\s+|this\s+)?(?:issue|ticket|task|it|задач\w*|тикет\w*|не[йём]|него)"
    r"\s*[.!]?\s*"
)
# a comment's words said only as a pointer to what came before: «с этим», "with this", "that"
_POINTS_BACK = LazyRe(
    r"(?i)\s*(?:с\s+|with\s+)?(?:этим|это|этого|this|that|it)(?:\s+(?:текстом|сообщением|message|text))?\s*[.!]?\s*"
)


_SHORT_WORDS = frozenset(
    "по на в во с со к ко и а о об у из от до за не ни же ли бы то of to in on at a an the for by is it or as my me "
    "we us".split()
)


# an issue said as what another is related to, not as one to change: "folded into ENG-105", «дубль ENG-101»
_RELATED_TO = LazyRe(
    r"(?i)\b(?:into|onto|from|with|than|like|as|(?:copy|version|dupe?|child|parent|sub-?issue)\s+of|в|во|из|с|со|чем|как|"
    r"вместо|instead\s+of|duplicate\s+of|"
    r"дубл\w*|part\s+of|same\s+as|related\s+to|blocked\s+by|blocks|после)\s*$"
)


def _before_ident(text: str, ident: str) -> str:
    at = re.search(rf"(?i)\b{re.escape(ident)}\b", text)
    return text[: at.start()] if at else ""


_ON_SOMEONE = LazyRe(
    r"(?i)\W*(?:(?:и|а|and|then)\s+)?(?:повесь|переведи|передай|отдай|кинь|закинь|назначь|assign|give|hand)"
    r"(?:\s+(?:её|ее|его|it|this|её\s+же))?\s+(?:на|to)\s+[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?\W*"
)
_IDENT_CHANGE = LazyRe(r"(?i)\b[A-Z]{1,10}-\d+\b\s*(?:[—–:-]\s*)?(?:в|во|на|to|->|→|into)\s+\S")


def _each_its_own(clause: Clause) -> list[str]:
    """«CS-12 в работу, CS-14 на ревью», "ENG-101 to Done, ENG-104 to In Review": pieces, one issue each, each
    with where it goes — or nothing when the clause is one change for several issues."""
    if len(set(clause.identifiers)) < 2:
        return []
    sentences = [x.strip() for x in re.split(r"(?<=[.!?])\s+(?=\S)", clause.text) if x.strip()]
    named = [x for x in sentences if re.search(r"\b[A-Za-z]{1,10}-\d+\b", x)]
    if len(named) == len(set(clause.identifiers)) > 1 and all(
        len(re.findall(r"\b[A-Za-z]{1,10}-\d+\b", x)) == 1 for x in named
    ):  # «ENG-102 переносим в проект Mobile App. На ENG-105 ставим срок 18 декабря»: a sentence each
        return named
    pieces = [
        p.strip()
        for p in re.split(
            r"\s*[,;]\s*(?:(?:и|а|and)\s+)?|\s+(?:и|а|and)\s+(?=[A-Za-z]{1,10}-\d)", clause.text
        )
    ]
    pieces = [p for p in pieces if p]
    if len(pieces) != len(set(clause.identifiers)) or not all(
        len(re.findall(r"\b[A-Za-z]{1,10}-\d+\b", p)) == 1 and _IDENT_CHANGE.search(p) for p in pieces
    ):
        return []
    return pieces


_JUST_THE_VERB = LazyRe(
    r"(?i)\W*(?:(?:и|а|так\s+что|ну|so|and|then|please|пожалуйста|плз|pls)\W+)*[^\W\d_]+"
    r"(?:\W+(?:пожалуйста|плз|please|pls|уже|already|now|тогда|then|её|ее|его|it|эту|этот|задачу|тикет|таск|"
    r"(?:the|this)\s+(?:issue|ticket|task)|issue|ticket|task))*\W*"
)
_ASKED_OF_AN_ISSUE = LazyRe(
    r"(?i)\b(?:status\s+of|статус\w*|when\s+is|когда|what'?s\s+up\s+with|что\s+там\s+с|что\s+по|anyone\s+working|"
    r"кто-нибудь|due|срок\w*|working\s+on|is\s+the\s+.+\s+(?:done|fixed|in\s+progress)|"
    r"yet|already|happen(?:ed)?|уже|готов[аоы]?|priority|приоритет\w*|assignee|исполнител\w*)\b"  # "… rotated yet?"
)
# the words of a question about an issue that are not the issue's own: what is asked, and the asking
_ASKED_NOT_NAMED = LazyRe(
    r"(?i)\b(?:what'?s|what|when'?s|when|who'?s|who|whose|is|the|a|an|on|of|at|in|for|it|its|issue|task|ticket|"
    r"bug|deadline|due|date|status|state|priority|assigned|assignee|owner|working|right|now|um+|uh+|so|and|"
    r"which|где|что|когда|кто|чья|чей|на|ком|у|в|каком|какой|какая|статус\w*|срок\w*|дедлайн\w*|задач\w*|тикет\w*|"
    r"висит|делает|отвечает|там|с|по|про|для|ну|э+|эм+|короче|слушай|а|и|ли|сейчас|приоритет\w*|исполнител\w*|"
    r"thing|stuff|anyone|anybody|up|with|does|do|did|has|have|linear|линеар\w*|setup|work|still|again|doing|"
    r"handling|занимается|yet|already|been|happen(?:ed)?|done|finished|resolved|shipped|closed|уже|готов[аоы]?|"
    r"сделан\w*|закрыт\w*)\b"
)


@rule(68)
async def issue_asked_about(clause: Clause, ctx: BuildContext) -> bool:
    """ "what's the deadline on the API docs issue", «на ком висит задача по SSO для Ромашки», "who's on
    the leaked key rotation?": a question about one issue named by words of its title — answered with
    that issue, when those words fit it and no other."""
    if clause.identifiers or clause.has("deal", "crm", "attio", "note") or ctx.memory.get("issue"):
        return False
    yes_no = re.match(
        r"(?i)\s*(?:did|has|have|is|are|was|were|does)\b", clause.text
    )  # "did the … call happen"
    if not (clause.asks() or clause.text.rstrip().endswith("?")) or clause.commands() and not yes_no:
        return False
    if re.match(r"(?i)\s*(?:найди|найти|покажи|поищи|выведи|find|search|show|list|look\s+up)\b", clause.text):
        return False  # "Найди задачи про …": a search, answered as one
    about_one = clause.has("issue", "task", "bug") and not re.search(
        r"(?i)\b(?:issues|tasks|tickets|bugs|все|всех|какие|all|any|every|сколько|how\s+many)\b", clause.text
    )
    # "when is the api key thing due", «что там с push notifications», "is anyone working on the PDF export
    # crash?": no word "issue", but a question of the kind asked about issues, and words that fit one
    by_words = not about_one and bool(_ASKED_OF_AN_ISSUE.search(clause.text))
    if not (
        about_one
        or by_words
        or re.search(
            r"(?i)\b(?:who'?s\s+on|who\s+is\s+(?:doing|handling|on|assigned\s+to)|who'?s\s+(?:doing|handling|assigned\s+to)"
            r"|who\s+has|на\s+ком|кто\s+(?:делает|отвечает|занимается))\b",
            clause.text,
        )
    ):
        return False
    phrase = re.sub(r"\s{2,}", " ", _ASKED_NOT_NAMED.sub(" ", clause.text)).strip(" ?.!,'")
    if len(phrase) < 3:
        return False
    if not about_one and [m for m in await find(ctx, clause, "deal") if m.score >= 1.0]:
        return False  # "what is the status of the Globex pilot": a deal said by its full name
    found = await ctx.directory.search_issues(phrase) or await issues_by_title_words(phrase, ctx)
    if len(found) != 1 or by_words and len([k for k in keys_for(phrase) if len(k.text) > 2]) < 2:
        found = await _most_words(phrase, ctx)  # said by words alone: at least two of them fit its title
    if len(found) != 1:
        return False
    if (
        by_words
        and not clause.has("linear")
        and not await _record_in_title(clause, ctx, str(found[0].get("title")))
    ):
        return False  # "What's the status of the Globex deal?": a CRM record asked about, not an issue
    if clause.has("meeting") and not [
        k
        for k in clause.keys
        if k.lemmas & CUES["meeting"] and match_words([k], keys_for(str(found[0].get("title"))))
    ]:
        return False  # "when is my call with Jane?": a meeting, unless the issue's title says it ("onboarding call")
    ident = str(found[0].get("identifier"))
    await ctx.emit(Find(object="issues", filters=Filters(record=ident)), record=found[0])
    return True
