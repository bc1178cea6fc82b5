"""A request read into clauses: where each request starts and ends, and what each piece says.

`_clause` reads one piece (its words' lemmas, cues, date, ids); `_split` cuts a message into pieces,
with `_lists` for a heading and its items and `_reasons` for what only says why.
"""

from planner.analysis._clause import (
    CUES,
    DATIVE,
    HEADED_THING,
    KEPT_COLON,
    NEVER_A_TYPO_OF,
    NEW_SOMETHING_ELSE,
    STATE_NOW_IF,
    TIME_NEEDED,
    Clause,
    analyse,
    command_verbs,
    cue_words,
    head_of,
    identifiers_in,
    leaves_alone,
    reports_past,
)
from planner.analysis._split import TEMPLATE_ALONE, split_clauses, with_its_verb

__all__ = [
    "CUES",
    "DATIVE",
    "HEADED_THING",
    "KEPT_COLON",
    "NEVER_A_TYPO_OF",
    "NEW_SOMETHING_ELSE",
    "STATE_NOW_IF",
    "TEMPLATE_ALONE",
    "TIME_NEEDED",
    "Clause",
    "analyse",
    "command_verbs",
    "cue_words",
    "head_of",
    "identifiers_in",
    "leaves_alone",
    "reports_past",
    "split_clauses",
    "with_its_verb",
]
