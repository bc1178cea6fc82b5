"""Words that are not requests: yes and no to a pending draft (seed 004), greetings, thanks, and
things this server does not do — each gets a short true answer instead of a routing question."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from planner.text import norm

__all__ = ["OTHER_SYSTEM", "SmallTalk", "is_no", "is_yes", "small_talk"]

_YES = {
    "да", "yes", "ok", "ок", "okay", "ага", "угу", "конечно", "подтверждаю", "подтвердить", "confirm", "sure",
    "yep", "yeah", "go", "давай", "do it", "go ahead", "да, подтверждаю", "верно", "точно", "y", "да давай",
    "yes please", "да, давай", "ok go", "подтверждаю да", "да подтверждаю", "lgtm",
}  # fmt: skip
_NO = {
    "нет", "no", "cancel", "отмена", "отмени", "не надо", "не нужно", "stop", "nope", "never mind", "n", "не",
    "отменить", "нет, не надо", "no thanks",
}  # fmt: skip
# a destination in a system this server does not manage
OTHER_SYSTEM = re.compile(
    r"\b(в|во|на|in|to|into|on|a|an|the|новый|новую)?\s*(jira|джир[аеуы]|trello|трелло|asana|асан[аеуы]|notion|ноушн|"
    r"hubspot|хабспот\w*|salesforce|pipedrive|clickup|youtrack|ютрек\w*|bitrix\w*|битрикс\w*|amocrm|амо\s*crm|github|"
    r"гитхаб\w*|gitlab)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:привет\w*|здравствуй\w*|добр(?:ый|ое|ого)\s+(?:день|утро|вечер|утра|дня)|хай|hi|hello|hey|good\s+"
    r"(?:morning|afternoon|evening)|yo)\b[\s,!.]*(?:(?:как\s+(?:дела|ты|вы|жизнь)|how\s+(?:are\s+you|is\s+it\s+going|"
    r"are\s+things)|what'?s\s+up|там)\b)?[\s?!.,)(:]*$",
    re.IGNORECASE,
)
_HOW_ARE_YOU = re.compile(r"^(?:как\s+(?:дела|ты|вы)|how\s+are\s+you|what'?s\s+up)[\s?!.]*$", re.I)
_THANKS = re.compile(
    r"^(?:(?:ну\s+)?(?:ладно|ok|okay|ок|отлично|супер|great|cool|perfect|круто)[\s,!.]*)?"
    r"(?:спасибо|благодарю|спс|thanks?|thank\s+you|thx|ty|cheers)(?:\s+(?:большое|огромное|a\s+lot|so\s+much|"
    r"тебе|вам))*[\s,!.]*(?:(?:that'?s\s+all(?:\s+for\s+now)?|это\s+всё|это\s+все|пока|bye|до\s+свидания)[\s!.]*)?$",
    re.IGNORECASE,
)
_BYE = re.compile(
    r"^(?:(?:ну\s+)?(?:ладно|ok|ок)[\s,]+)?(?:пока|до\s+свидания|bye|goodbye|see\s+you)[\s!.]*$", re.I
)
# questions and requests no toolkit here can answer: weather, jokes, news, maths, translation
_OFF_TOPIC = re.compile(
    r"\b(?:погод\w*|weather|анекдот\w*|шутк\w*|joke\w*|новост\w*|news|курс\s+(?:доллара|евро|валют)|exchange\s+rate|"
    r"переведи\s+на|translate|стих\w*|poem|рецепт\w*|recipe|сколько\s+будет|what\s+is\s+\d|кто\s+ты|who\s+are\s+you|"
    r"сыграем|play\s+a\s+game|песн\w*|song)\b",
    re.IGNORECASE,
)


def _short(text: str) -> str:
    return re.sub(r"[\s!.,]+", " ", norm(text)).strip()


def is_yes(text: str) -> bool:
    return _short(text) in _YES


def is_no(text: str) -> bool:
    return _short(text) in _NO


@dataclass
class SmallTalk:
    kind: Literal["greeting", "thanks", "off_topic"]
    ru: str
    en: str


_SCOPE_RU = "Я работаю с Attio (сделки, компании, контакты), Linear (задачи, проекты) и Google Calendar."
_SCOPE_EN = "I work with Attio (deals, companies, contacts), Linear (issues, projects) and Google Calendar."


def small_talk(text: str) -> SmallTalk | None:
    """A greeting, thanks or an off-topic request, with what to say; None for anything else."""
    low = norm(text).strip()
    if not low:
        return None
    if _GREETING.match(low) or _HOW_ARE_YOU.match(low):
        return SmallTalk(
            "greeting",
            f"Привет! {_SCOPE_RU} Что сделать? Например: «что по сделке Globex pilot?» или «создай задачу в ENG».",
            f'Hi! {_SCOPE_EN} What should I do? For example: "what\'s up with the Globex pilot deal?" or '
            f'"create an issue in ENG".',
        )
    if _THANKS.match(low) or _BYE.match(low):
        return SmallTalk("thanks", "Пожалуйста! Обращайтесь.", "You're welcome!")
    if _OFF_TOPIC.search(low):
        return SmallTalk(
            "off_topic",
            f"С этим не помогу. {_SCOPE_RU}",
            f"I can't help with that. {_SCOPE_EN}",
        )
    return None
