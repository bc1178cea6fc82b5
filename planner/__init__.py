"""planner: a request (text, voice transcript or structured command) -> a Plan."""

from planner.core import Outcome, Planner, PlanRequest, is_no, is_yes
from planner.models import Candidate, Choice, ClarificationQuestion, EntityRef, Plan, RiskFlag, Voice

__all__ = [
    "Candidate", "Choice", "ClarificationQuestion", "EntityRef", "Outcome", "Plan", "PlanRequest", "Planner",
    "RiskFlag", "Voice", "is_no", "is_yes",
]  # fmt: skip
