"""«Переоткрой ENG-101», "reopen it": a closed issue goes back to its team's first open state; an issue
that is still open is said to be so, and nothing is drafted (the reported «я закрыл её по ошибке» that
often comes with it is why, not a second change)."""

from __future__ import annotations

from planner._lazy_re import LazyRe
from planner.analysis import Clause
from planner.context import BuildContext
from planner.intents.models import UpdateIssue
from planner.rules import rule
from planner.rules.issues import resolve_issue

__all__ = ["reopened"]

_REOPEN = LazyRe(
    r"(?i)\b(?:re-?open\w*|переоткр\w+|(?:открой|откройте|открыть)\s+(?:\w+\s+)?(?:снова|заново|обратно)|"
    r"(?:снова|заново|обратно)\s+(?:открой|откройте|открыть))\b"
)
_CLOSED_KINDS = ("completed", "canceled")


@rule(27, writes=True)
async def reopened(clause: Clause, ctx: BuildContext) -> bool:
    if not _REOPEN.search(clause.text):
        return False
    issue = await resolve_issue(clause, ctx)
    if issue is None:
        return False
    ident = str(issue.get("identifier"))
    state = issue.get("state") or {}
    if state.get("type") not in _CLOSED_KINDS:
        ctx.notes.append(
            ctx.t(
                f"{ident} не закрыта — она в состоянии {state.get('name')}, переоткрывать нечего.",
                f"{ident} isn't closed - it is {state.get('name')}, so there is nothing to reopen.",
            )
        )
        return True
    team = issue.get("team") or {}
    states = await ctx.directory.states(str(team.get("id") or ""))
    # the team's first state that is neither closed nor a backlog: "Todo" in a default workflow
    target = next((s for s in states if s.extra.get("type") == "unstarted"), None) if states else None
    await ctx.emit(UpdateIssue(issue=ident, state=target.name if target else "Todo"), issue=issue)
    return True
