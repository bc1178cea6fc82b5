"""A place said as "the same" as one named before: «закрой CS-14 и в той же команде сделай задачу …», "close
ENG-101 and create an issue in the same team" — the team is the earlier issue's, named in its place."""

from __future__ import annotations

from planner._lazy_re import LazyRe
from planner.text import ISSUE_KEY

__all__ = ["same_team_named"]

_SAME_TEAM = LazyRe(
    r"(?i)(?<!\w)(?:(?:в|во)\s+(?:той\s+же|этой\s+же|тот\s+же)\s+команде|(?:в|во)\s+(?:ту\s+же|эту\s+же)\s+команду|"
    r"(?:in|into|to|for)\s+the\s+same\s+team)(?!\w)"
)


def same_team_named(text: str) -> str:
    """`text` with "in the same team" said as the team key of the issue named before it."""
    same = _SAME_TEAM.search(text)
    if same is None:
        return text
    before = list(ISSUE_KEY.finditer(text[: same.start()]))
    if not before:
        return text
    key = before[-1].group(0).split("-")[0].upper()
    said = f"в команде {key}" if same.group(0).lower().startswith(("в", "во")) else f"in team {key}"
    return text[: same.start()] + said + text[same.end() :]
