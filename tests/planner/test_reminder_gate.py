"""A reminder of a change never makes the change now: every rule that writes is either one that can make the
reminder (a task, an issue, a time block, or a field of the one just made) or one the gate skips."""

from __future__ import annotations

from planner.core import _CHANGES_NOW, WRITING
from planner.rules import load_rules

# the rules a reminder may become: whatever else writes must be in `_CHANGES_NOW`
REMINDER_MAKERS = {
    "crm_task",
    "create_issue",
    "timeblock",
    "about_the_new_one",
    "description_of_the_new_one",
    "parent_of_the_new_one",
    "project_of_the_new_one",
    "the_same_for",  # («…, and the same for Max»: one more of what was just made, a reminder if that was one)
}


def test_every_writing_rule_is_either_a_reminder_maker_or_gated() -> None:
    load_rules()  # (the registry fills as the rule modules load)
    assert set(WRITING) - _CHANGES_NOW == REMINDER_MAKERS
