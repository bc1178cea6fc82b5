"""Intents: the typed language between what a person says and the plan (DESIGN §5a).

text / a client's model / a `command` -> intents (validated here) -> resolution -> actions.
"""

from planner.intents.describe import describe
from planner.intents.models import FIND_OBJECTS, INTENT_TYPES, WRITE_OPS, Filters, Intent, IntentBase
from planner.intents.schema import intents_schema, op_summary, toolkit_of
from planner.intents.validate import MISSING, IntentsError, Parsed, Rejected, missing_fields, parse_intents

__all__ = [
    "FIND_OBJECTS", "INTENT_TYPES", "MISSING", "WRITE_OPS", "Filters", "Intent", "IntentBase", "IntentsError",
    "Parsed", "Rejected", "describe", "intents_schema", "missing_fields", "toolkit_of", "op_summary", "parse_intents",
]  # fmt: skip
