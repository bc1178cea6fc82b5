"""Clauses of a longer message that describe a change without asking for it: «не закрывай ENG-101, а
назначь ENG-102 на Олега», "Max mentioned DES-7 is basically done …, so no action needed there. What I
do need: …", "… And the thing about moving Globex to Won: hold off on that". Their writes are taken out
of the plan and named back as left alone, while the rest of the message is drafted (DESIGN §5a: nothing
unasked becomes a write)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from planner._lazy_re import LazyRe

if TYPE_CHECKING:
    from planner.analysis import Clause
    from planner.context import BuildContext

__all__ = ["Declines", "marks_of"]

Marks = tuple[int, int, int, int, int]  # intents, actions, risks, notes, entities

# "hold off on that", «с этим подожди»: the change said just before is the one put off
_ON_THAT = LazyRe(r"(?i)\b(?:that|this|it|them|это|этим|этого|её|ее|его|их)\b")


# (not «больше ничего», "nothing else": what was asked stands, nothing is added to it)
_NOTHING = LazyRe(
    r"(?i)(?<!больше\s)\b(?:ничего|nothing|anything)\b(?!\s+(?:else|more|другого|лишнего|больше))"
)


# "don't archive anything", «ничего не удаляй»: nothing of one kind (the other changes stand)
_NOTHING_OF_A_KIND = LazyRe(
    r"(?i)\b(?:don'?t|do\s+not|never)\s+(?:archive|delete|close|move|remove|assign|rename)\s+anything\b"
    r"|\bничего\s+не\s+(?:архивир\w*|удаля\w*|удали\w*|закрыва\w*|двига\w*|перевод\w*|назнача\w*)"
)


def of_a_kind(text: str) -> bool:
    """ "don't archive anything", "just leave it": nothing of one kind, or only the change just said, is not
    to be done (what else was asked stands) — unlike "don't do anything yet"."""
    return _NOTHING_OF_A_KIND.search(text) is not None or _NOTHING.search(text) is None


def marks_of(ctx: BuildContext) -> Marks:
    return len(ctx.intents), len(ctx.actions), len(ctx.risks), len(ctx.notes), len(ctx.entities)


@dataclass
class Declines:
    # each clause that wrote: where its work lies, and whether it asked for none of it
    clauses: list[tuple[Marks, Marks, bool]] = field(default_factory=list)
    # records a clause named only to leave them alone («ENG-101 при этом не трогай»)
    left: list[str] = field(default_factory=list)

    def leave(self, identifiers: list[str]) -> None:
        self.left += [x for x in identifiers if x not in self.left]

    def note(self, before: Marks, ctx: BuildContext, declined: bool, text: str = "") -> None:
        """The clause just read produced the writes between `before` and now; `declined`: it asked for
        none of them (otherwise it asked for them plainly). Told that nothing is to be done now («…,
        сейчас ничего не создавайте»), every change said before it is declined too."""
        if declined and _NOTHING.search(text) and not _NOTHING_OF_A_KIND.search(text):
            self.clauses = [(b, a, True) for b, a, _ in self.clauses]
        self.clauses.append((before, marks_of(ctx), declined))

    def put_off(self, text: str) -> bool:
        """A clause that wrote nothing told not to do "that": the change said just before is declined
        («…, — сейчас ничего не создавайте», "don't do anything yet": every change said before it)."""
        if not self.clauses:
            return False
        if _NOTHING_OF_A_KIND.search(text):
            return True  # "…, and third, archive... no wait, don't archive anything": none of that kind, said
        if _NOTHING.search(text):
            self.clauses = [(b, a, True) for b, a, _ in self.clauses]
            return True
        if not _ON_THAT.search(text):
            return False
        before, after, _ = self.clauses[-1]
        self.clauses[-1] = (before, after, True)
        return True

    def drop(
        self,
        ctx: BuildContext,
        scene: list[tuple[tuple[int, int], tuple[int, int]]],
        read: list[tuple[int, Clause, int]],
    ) -> list[str]:
        """Take the declined clauses' work out when some other clause plainly asks for a change (when none
        does, the message as a whole is answered as told-not-to, unsure or hypothetical). Returns the
        changes left alone; `scene` and `read` are shifted to the lists as they are after."""
        # («ENG-106 — срочный уже, оставь. Просто в ревью переведи»: left as it is, then moved — no "not touching")
        changed = {str(getattr(i, "issue", "")).upper() for i in ctx.intents}
        self.left = [x for x in self.left if x.upper() not in changed]
        declined = [(b, a) for b, a, no in self.clauses if no]
        if not declined or all(no for _, _, no in self.clauses):
            return list(self.left) if any(not no for _, _, no in self.clauses) else []
        undone: list[str] = []
        for before, after in reversed(declined):
            undone[:0] = [a.preview for a in ctx.actions[before[1] : after[1]] if not a.read_only]
            del ctx.intents[before[0] : after[0]], ctx.actions[before[1] : after[1]]
            del ctx.risks[before[2] : after[2]], ctx.notes[before[3] : after[3]]
            del ctx.entities[before[4] : after[4]]
            di, da = after[0] - before[0], after[1] - before[1]
            scene[:] = [
                ((i0 - di, a0 - da), (i1 - di, a1 - da)) if i0 >= after[0] else ((i0, a0), (i1, a1))
                for (i0, a0), (i1, a1) in scene
            ]
            read[:] = [
                (n, c, s - di if s >= after[0] else s) for n, c, s in read if not before[0] <= s < after[0]
            ]
        self.clauses.clear()
        return undone + self.left
