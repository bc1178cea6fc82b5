"""Requests said the way people say them, rewritten as the rules read them: a wish for an issue, a colleague told
to do something ("have Max follow up …"), a task addressed by a card or a reminder («в карточку Марии», «напоминалку
мне …»), a verb said last («ENG-101 в ревью переведи»), a lead for a company, an issue's fields said as chat does.
Each rewrite keeps the person's words and only changes how the request is framed (see `planner.hurried`)."""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe

__all__ = ["said_plainly"]


# what "we" do with an issue, as the request to do it
_WE_DO = {
    "закрываем": "закрой", "закрываю": "закрой", "переносим": "перенеси", "переводим": "переведи",
    "двигаем": "подвинь", "назначаем": "назначь", "отдаём": "отдай", "отдаем": "отдай",
    "архивируем": "заархивируй", "удаляем": "удали",
}  # fmt: skip


_WE_SET = LazyRe(r"(?i)ставим|меняем|выставляем|делаем|поднимаем|переносим")
_FIELD_FIRST_SAID = LazyRe(
    r"(?i)(?:сумму|срок|стадию|приоритет|владельца|ответственного|исполнителя|дедлайн|название|"
    r"должность|домен|почту|email)\s+(?:поменяй|поставь|измени|обнови|смени|выстави|сдвинь|перенеси)"
)


_NEW_FIELD_VALUE = LazyRe(
    r"(?i)\b(?:нов\w+|new)\s+(?:домен\w*|сайт\w*|e-?mail\w*|почт\w*|телефон\w*|должност\w*|domain|website|phone|title)\b"
)


def said_plainly(text: str) -> str:
    """`text` with its everyday phrasings of a request put as the rules' plain ones (unchanged when it has none)."""
    # "…lost, they went w competitor, note it": what was just said, noted (a bare "log it" may be a bug to file)
    # (", note that on his record": and where it goes)
    text = re.sub(
        r"(?i)\s*[,;—–-]\s*(?:(?:and|pls|please)\s+)*(?:note|jot|write)\s+(?:it|that|this)(?:\s+down)?"
        r"(?P<where>\s+(?:on|to|in|under)\s+[^.,;!?]{1,40}?)?(?:\s+(?:too|pls|please))?\s*[.!]?\s*$",
        lambda m: f". add that as a note{m.group('where') or ''}",
        text,
    )
    # «ENG-106 в ревью, в ENG-105 комментарий про блокер»: a comment on another issue is a request of its own
    # (after an issue's own change only: «добавьте, пожалуйста, к CS-13 комментарий: …» has its verb)
    text = re.sub(
        r"(?i)(?P<change>\b[A-Z]{1,10}-\d+\s+[^,;\n]{1,40}?)[,;]\s*(?:(?:а|и)\s+)?(?:в|к|под)\s+([A-Z]{1,10}-\d+)\s+"
        r"(?:комментарий|коммент|комент)\w*\s*[:—–-]?\s*(?:что\s+|that\s+)?(?=\S)",
        r"\g<change>; оставь комментарий к \2: ",
        text,
    )
    # «отметь в Linear, что ENG-101 сделано», "mark that ENG-101 is done": the issue closed, said as a fact to record
    text = re.sub(
        r"(?i)\b(?:отметь|отметьте|пометь|пометьте|зафиксируй)(?:\s+(?:в|во)\s+[^\s,]+)?\s*,?\s+что\s+([A-Z]{1,10}-\d+)\s+"
        r"(?:уже\s+)?(?:сделан[оа]?|готов[оа]?|выполнен[оа]?|закрыт[оа]?)\b",
        r"закрой \1",
        text,
    )
    # «ENG-103 в In Progress и на Олега»: one issue's changes, listed with «и» as with a comma
    text = re.sub(
        r"(?i)(\b[A-Z]{1,10}-\d+\s+(?:в|во|на)\s+[^,;.\n]{1,30}?)\s+и\s+(?=(?:в|во|на)\s+[^\W\d_])",
        r"\1, ",
        text,
    )
    # «сумму ставим девятьсот тысяч», «ставим срок на пятницу»: a field set, said as what "we" do (dictated)
    field = r"(?:сумм\w*|срок\w*|стади\w*|приоритет\w*|дедлайн\w*|исполнител\w*|владельц\w*|ответственн\w*)"
    # (each rewrite below is tried only when its words are there: a long paste stays cheap to read)
    if _WE_SET.search(text):
        text = re.sub(
            rf"(?i)(?<!не\s)\b({field})\s+(?:ставим|меняем|выставляем|делаем|поднимаем|переносим)\b",
            r"поставь \1",
            text,
        )
        text = re.sub(
            rf"(?i)(?<!не\s)(?<!мы\s)\b(?:ставим|меняем|выставляем|поднимаем|переносим)\s+(?={field})",
            "поставь ",
            text,
        )
    # «фоллоуап с джоном смитом в пн»: a follow-up said as the borrowed noun, a reminder to do it
    if "ап" in text.lower():
        text = re.sub(
            r"(?i)^(\s*(?:(?:и|а|ещё|еще|также)\s+)?)(фол+оу[\s-]?ап\w*)(?=\s+(?:с|со|по|к|для)\s)",
            r"\1напомни сделать \2",
            text,
        )
    # "reminder for max: renewal quote to initech by dec 1": whom to remind, then what
    if "reminder" in text.lower():
        text = re.sub(
            r"(?i)^\s*(?:a\s+)?reminder\s+for\s+([^\W\d_][\w-]*)\s*:\s*(?=\S)",
            r"remind \1 to do: ",
            text,
        )
    # «сделай Олега исполнителем по всем багам», "make Oleg the assignee on all bugs", "make me the assignee on
    # everything that's unassigned": a hand-over said by the role
    if re.search(r"(?i)исполнител|assignee", text):
        text = re.sub(
            r"(?i)\b(?:сделай|назначь)\s+([^\W\d_][\w-]*)\s+исполнител(?:ем|ями)\s+(?:по|на|в|для|у|во)\s+([^,.;!?]+)",
            r"назначь \2 на \1",
            text,
        )
        text = re.sub(
            r"(?i)\bmake\s+([^\W\d_][\w-]*)\s+(?:the\s+)?assignee\s+(?:on|of|for)\s+([^,.;!?]+)",
            r"assign \2 to \1",
            text,
        )
    # «…: сумму поменяй на 1 500 000»: the field said first, then the verb — put as «поменяй сумму на …»
    if _FIELD_FIRST_SAID.search(text):
        text = re.sub(
            r"(?i)(?:(?<=^)|(?<=[:;,.—–]\s)|(?<=[:;,.]))(\s*)(сумму|срок|стадию|приоритет|владельца|ответственного|исполнителя|"
            r"дедлайн|название|должность|домен|почту|email)\s+(поменяй|поставь|измени|обнови|смени|выстави|сдвинь|перенеси)\b",
            r"\1\3 \2",
            text,
        )
    # «макса на eng-103, приоритет высокий»: whom first, then the issue they go on — «ENG-103 на макса»
    if " на " in text.lower():
        text = re.sub(
            r"(?i)^(\s*)(?!(?:задач|метк|коммент|срок|приоритет|баг|тикет|сделк|заметк|вс[её]|его|её|ее|их|это|эт)\w*\s)"
            r"([а-яё][\w-]*(?:а|я|у|ю|е))\s+на\s+([A-Za-z]{2,5}-\d+)\b",  # («Олежке на …»)
            r"\1\3 на \2",
            text,
        )
    # "turn it into an ENG bug", «сделай из этого задачу», «оформи это как баг»: a new issue
    # ("make it an ENG issue" is read as it is: "it" is what was just said)
    if re.search(r"(?i)\b(?:turn|convert|сделай|оформи)\b", text):
        text = re.sub(
            r"(?i)\b(?:turn|convert)\s+(?:it|this|that|these|them)\s+into\s+"
            r"(?=(?:an?\s+)?(?:[A-Z]{2,5}\s+|new\s+)?(?:bug|issue|ticket|task)s?\b)",
            "create ",
            text,
        )
        text = re.sub(
            r"(?i)\b(?:сделай\s+из\s+(?:этого|него|неё|нее|этих|них)|оформи\s+(?:это|его|её|ее|их)\s+(?:как|в))\s+"
            r"(?=(?:[A-Z]{2,5}\s+)?(?:задач|баг|тикет)\w*\b)",
            "заведи ",
            text,
        )
    # "…he said they need the contract by the 5th so can you note that on his record": the ask after the story,
    # said politely mid-sentence, is a request of its own
    if re.search(r"(?i)\b(?:can|could|would)\s+you\b", text):
        text = re.sub(
            r"(?i)(?<=\w)[,\s]+(?:so|and|but)\s+(?:can|could|would)\s+you\s+(?:please\s+|pls\s+)?"
            r"(?=(?:note|log|jot|add|put|create|make|move|close|set|update|change|assign|archive|file)\b)",
            ". ",
            text,
        )
    # "ENG-103: add a comment '…' and move it to Todo": the issue named, then requests about it (not the comment's
    # words, as "ENG-103: repro steps attached" would be)
    text = re.sub(
        r"(?i)^(\s*[A-Z]{1,10}-\d+)\s*:\s*(?=(?:please\s+)?(?:add|leave|post|write|put|drop|оставь|добавь|напиши|"
        r"закинь)\s+(?:a\s+|the\s+)?(?:comment|коммент\w*|комментари\w*)\b)",
        r"\1 — ",
        text,
    )
    # "3 issues in ENG for the v2 rollout: feature flags, migration script, …": issues counted and listed, to make
    text = re.sub(
        r"(?i)^(\s*)(?=(?:\d{1,2}|two|three|four|five|six|две|два|три|четыре|пять|шесть)\s+(?:new\s+|нов\w+\s+)?"
        r"(?P<noun>issues|tickets|tasks|bugs|задач\w*|тикет\w*|баг\w*)\b[^:?\n]{0,60}:[^?]*,[^?]*$)",
        lambda m: m.group(1) + ("заведи " if re.match(r"[а-яё]", m.group("noun"), re.I) else "create "),
        text,
    )
    # "ENG-101 belongs in Mobile App, move it there": where it belongs is where it goes
    text = re.sub(
        r"(?i)^\s*([A-Z]{1,10}-\d+)\s+(?:belongs|should\s+be|should\s+go|goes)\s+(?:in|into|to|under)\s+([^,.;—–]+?)\s*"
        r"[,.;—–-]+\s*(?:so\s+|please\s+)?(?:move|put)\s+it\s+there\s*[.!]?\s*$",
        r"move \1 to \2",
        text,
    )
    # "ENG-102 is urgent now, the CEO wants it": a level said as what the issue is now is its new priority
    text = re.sub(
        r"(?i)^(\s*)([A-Z]{1,10}-\d+)\s+is\s+(?:now\s+)?(urgent|high|medium|low)(?:\s+priority)?(?:\s+now)?\b(?!\s+(?:priority\s+)?"
        r"(?:issue|bug|ticket|one))",
        r"\1set \2 priority to \3",
        text,
    )
    # "throw it back to backlog", "kick it over to Max": moved
    text = re.sub(
        r"(?i)\b(?:throw|toss|kick|chuck|bounce)\s+(it|them|this|that|[A-Z]{1,10}-\d+)\s+(?:back\s+|over\s+)?(?:to|into|in)\b",
        r"move \1 to",
        text,
    )
    # "open a follow-up in DES: tablet layouts", «заведи фоллоуап в ENG: …»: a follow-up issue in a team
    if re.search(r"(?i)follow-?up|фол+оу", text):
        text = re.sub(
            r"(?i)\b(open|create|file|add|make|log|заведи|создай)\s+(?:a\s+|an\s+)?(?:follow-?up|фол+оу-?ап)"
            r"(?:\s+(?:issue|ticket|задачу))?\s+(in|for|в|для)\s+(?=(?-i:[A-Z]{2,5})\b)",
            lambda m: (
                f"{m.group(1)} {'задачу' if re.match(r'[а-яё]', m.group(1), re.I) else 'an issue'} {m.group(2)} "
            ),
            text,
        )
    # "bump every urgent issue down to high": which way it goes is said by where it goes
    if re.search(r"(?i)\b(?:down|up)\s+to\s", text):
        text = re.sub(
            r"(?i)(\b(?:bump|drop|knock|bring|move|push|lower|raise|take)\b[^,;.]*?)\s+(?:down|up)\s+(?=to\s)",
            r"\1 ",
            text,
        )
    # "ENG-102: retitle to 'X' and …": the issue named first, then its new name
    text = re.sub(
        r"(?i)^(\s*)([A-Z]{1,10}-\d+)\s*[:—–-]\s*(rename|retitle|переименуй)\s+(?:it\s+|её\s+|ее\s+)?(to|в|на)\s+",
        r"\1\3 \2 \4 ",
        text,
    )
    # «в Q1 Launch добавь задачу написать гайд …», «добавь задачу в Q1 Launch написать гайд …»: where it goes, then
    # the title — put as «добавь задачу в Q1 Launch: написать гайд …»
    place = r"((?-i:[A-Z][\w.-]*)(?:\s+(?-i:[A-Z0-9][\w.-]*)){0,3})"
    thing = r"((?:добавь|заведи|создай|add|create|file|open|make)\s+(?:(?:a|an|new|новую)\s+)?(?:задачу|тикет|баг|issue|ticket|task|bug))"
    text = re.sub(
        rf"(?i)^(\s*)(в|во|in|into)\s+{place}\s+{thing}\s+(?!(?:в|во|in|to|into|for|для|на)\s)(?=[^\W\d_])",
        r"\1\4 \2 \3: ",
        text,
    )
    text = re.sub(rf"(?i)^(\s*){thing}\s+(в|во)\s+{place}\s+(?=[а-яё]+(?:ть|ти)\b)", r"\1\2 \3 \4: ", text)
    # "Globex pilot to Won, note '…', and an ENG issue 'Provision …' for Oleg": a new issue named, its verb left out
    text = re.sub(
        r"(?i)([,;]\s*(?:and|и|а\s+также|plus)\s+)(?=(?:an?\s+|new\s+|нов\w+\s+)?(?:(?-i:[A-Z]{2,5})\s+)?(?:issue|ticket|bug|"
        r"задач[уа]|тикет|баг)\s+['\"«“])",
        lambda m: m.group(1) + ("заведи " if re.search(r"[а-яё]", m.group(1), re.I) else "create "),
        text,
    )
    # "John Smith now is COO", "eng-103 mine": word orders of a hurried or non-native writer, put plainly
    text = re.sub(r"(?i)\bnow\s+is\b", "is now", text)
    text = re.sub(
        r"(?i)^\s*([A-Za-z]{2,5}-\d+)\s+(?:is\s+)?(?:mine|on\s+me|моя|мой|моё|на\s+мне|беру)\s*[.!]?\s*$",
        r"assign \1 to me",
        text,
    )
    # «так, эээ, все баги …»: what a dictation starts with is no part of the request
    if re.search(r"(?i)^\s*(?:так|ну|короче|итак|значит|в\s+общем|слушай|смотри)\b|э{2,}|эм|ммм", text):
        text = re.sub(
            r"(?i)^\s*(?:(?:так|ну|короче|итак|значит\s+так|в\s+общем|слушай|смотри)\s*,\s*|(?:э{2,}|эм+|ммм+)\s*,?\s*)+",
            "",
            text,
        )
        text = re.sub(r"(?i)(?<=[,\s])(?:э{2,}|эм+|ммм+)\s*,\s*", "", text)
    # «Сделку Ромашки переведи в Won, а Альфа-Лизинга — в Lost»: the second change said with a dash for its verb
    if ", а " in text:
        text = re.sub(r"(?i),\s*а\s+([^,—–:]{2,40}?)\s+[—–]\s+(в|во|на|to)\s+(?=\S)", r", а \1 \2 ", text)
    # "create company Hooli Labs, …, and an issue in CS to set up their sandbox": the second thing made too
    if re.match(r"(?i)\s*(?:please\s+)?(?:create|add|make|open|set\s+up)\b", text):
        text = re.sub(
            r"(?i),?\s+and\s+(?=an?\s+(?:new\s+)?(?:issue|ticket|task|bug|deal|note)\b)",
            ", and create ",
            text,
        )
    # "an intro call between John Smith and Jane Doe", «созвон между Иваном и Джейн»: both are invited
    if re.search(r"(?i)between|между", text):
        text = re.sub(
            r"(?i)\b(call|meeting|sync|intro|созвон\w*|встреч\w*)\s+(?:between|между)\s+(?=\S)",
            r"\1 with ",
            text,
        )
    # «CS-15 возьму сама»: that issue, to me
    text = re.sub(
        r"(?i)\b([A-Z]{1,10}-\d+)\s+(?:возьму|беру|заберу|забираю)(?:\s+(?:сам[аи]?|себе|на\s+себя|я))?"
        r"(?=\s*(?:[,.;!]|и\b|$))",
        r"\1 на меня",
        text,
    )
    # «ENG-104 сроки горят, ставь urgent»: the deadlines pressing is why, not a due date to set
    text = re.sub(r"(?i)\b(?:сроки|срок|дедлайны?)\s+(?=(?:горят|горит|поджима\w+|жмут|жм[её]т)\b)", "", text)
    # "drop it back to todo", "drop ENG-101 to backlog": moved, not removed
    text = re.sub(
        r"(?i)\bdrop(?=\s+(?:it|this|that|them|[A-Z]{1,10}-\d+)\s+(?:back\s+)?(?:to|into)\s)", "move", text
    )
    # «срочно: ENG-103 в In Progress и на Олега»: how soon it is asked, said as a heading (not the priority)
    text = re.sub(r"(?i)^\s*(?:срочно|срочняк|urgent|asap)\s*[:!—–-]+\s*(?=[A-Z]{1,10}-\d)", "", text)
    # "eng-101 eng-103 eng-106 all to oleg": the issues listed, then where all of them go
    text = re.sub(
        r"(?i)^(\s*[A-Z]{1,10}-\d+(?:(?:\s*,\s*|\s+(?:and|и)\s+|\s+)[A-Z]{1,10}-\d+)+)\s+(?:all|both|все|обе|оба)\s+"
        r"(?:to|->|→|на)\s+",
        r"\1 → ",
        text,
    )
    # «ENG-101 и ENG-102 в проект Website Redesign»: moved there, the verb unsaid
    text = re.sub(
        r"(?i)^(\s*[A-Z]{1,10}-\d+(?:(?:\s*,\s*|\s+(?:and|и)\s+|\s+)[A-Z]{1,10}-\d+)*)\s+"
        r"(?=(?:в|во|into|to)\s+(?:the\s+)?(?:проект\w*|project)\b)",
        lambda m: ("перенеси " if re.search(r"[а-яё]", text, re.I) else "move ") + m.group(1).strip() + " ",
        text,
    )
    # "john smith now COO not VP ops": a person's new title, the old one said to be gone
    text = re.sub(
        r"(?i)^\s*([^\W\d_][\w-]+\s+[^\W\d_][\w-]+)(?:'s|\s+is)?\s+now\s+(?:the\s+|an?\s+)?"
        r"(c[etfoi]o|cmo|cpo|cro|ciso|vp(?:\s+(?:of\s+)?[\w-]+){0,2}|head\s+of\s+[\w-]+(?:\s+[\w-]+)?|"
        r"[\w-]+\s+(?:director|manager|lead|engineer))"
        r"(?:\s*,?\s*(?:not|no\s+longer)\s+[^.;!?]+)?\s*[.!]?\s*$",
        lambda m: (
            f"change {m.group(1)}'s job title to {m.group(2).upper() if len(m.group(2)) <= 4 else m.group(2)}"
        ),
        text,
    )
    # «сделка initech на 25к»: the deal, then the amount it is for
    text = re.sub(
        r"(?i)^(\s*(?:сделк[аиу]|deal)\s+[^,;:\n]{2,40}?)\s+(?:на|for|at)\s+"
        r"(\d[\d\s.,]*\s*(?:к|k|тыс\w*|млн\w*|m)?\.?(?:\s*(?:₽|руб\w*|usd|\$|eur|€|долл\w*))?)\s*[.!]?\s*$",
        lambda m: (
            f"{m.group(1)}, "
            + ("сумма " if re.search(r"[а-яё]", m.group(1), re.I) else "amount ")
            + m.group(2)
        ),
        text,
    )
    # «Сделай Макса владельцем сделки Acme Corp — annual license вместо меня»: the owner changed, no new deal
    text = re.sub(
        r"(?i)\b(?:сделай|назначь|поставь)\s+([^\W\d_][\w-]*)\s+(?:владельцем|ответственн\w+|овнером)\s+"
        r"(?:сделки|по\s+сделке|за\s+сделку|в\s+сделке)\s+(.+?)(?:\s+вместо\s+(?:меня|него|неё|нее|[^\W\d_]+))?\s*([.!]?)\s*$",
        r"смени владельца сделки \2 на \1\3",
        text,
    )
    # "make Max the owner of the Globex deal instead of me": who had it is said, not asked
    text = re.sub(
        r"(?i)(\bowner\b[^.;]*?)\s+instead\s+of\s+(?:me|him|her|[A-Z][\w-]+)\s*([.!]?)\s*$", r"\1\2", text
    )
    # "Comment on ENG-105 'ready for QA' - actually scratch the comment, just close it": the part taken back goes
    scratched = re.match(
        r"(?is)^(?P<first>.+?)\s*[-—–,.;]+\s*(?:(?:actually|wait|no|oh|хотя|ой|а)[,\s]+)*(?:нет[,\s]+)?"
        # ("drop" and "skip" only after a word that takes it back: "…, drop the note on Globex" may ask for one)
        r"(?:(?:(?<=actually )|(?<=wait )|(?<=no )|(?<=no, )|(?<=actually, )|(?<=wait, ))(?:drop|skip)\s+(?:the\s+)?"
        r"(?:comment|note|task|reminder)|(?:scratch|forget|cancel)\s+(?:the\s+)?(?:comment|note|task|reminder)|"
        r"(?:коммент\w*|комментари\w*|заметк\w*)\s+не\s+надо)\b[,.\s]*(?:and\s+|и\s+)?(?:just\s+|просто\s+)?(?P<rest>\S.*)$",
        text,
    )
    if scratched:
        ids = re.findall(r"\b[A-Z]{1,10}-\d+\b", scratched["first"])
        text = f"{' '.join(dict.fromkeys(ids))} {scratched['rest']}".strip()
    # «Прошу вас сделать следующее: …», "Please do the following: …": a heading over the requests, nothing itself
    text = re.sub(
        r"(?i)(?:^|(?<=[.!?]\s))(?:(?:прошу|просим|нужно|надо)\s+(?:вас\s+|тебя\s+)?(?:сделать|выполнить)|"
        r"(?:please\s+|pls\s+|i\s+need\s+you\s+to\s+|can\s+you\s+|could\s+you\s+)?do)\s+(?:следующее|the\s+following)"
        r"(?:\s+(?:please|пожалуйста))?\s*[:—–-]\s*",
        "",
        text,
    )
    # «контакт в Инитеке: Ольга Смирнова, o.smirnova@initech.io, …»: a contact given with an email is a new one
    text = re.sub(
        r"(?i)^\s*(контакт|contact)\b(?=[^?]*?[\w.+-]+@[\w-]+\.\w)(?![^?]*\?)",
        lambda m: "добавь новый контакт" if m.group(1).lower() == "контакт" else "add a new contact",
        text,
    )
    # "Lead from the conference: Sara Lee, sara@hooli.xyz, Head of Sales at Hooli": a new person, given with an email
    text = re.sub(
        r"(?i)^\s*(?:new\s+|нов\w+\s+)?(?:lead|лид)\b[^:\n]{0,40}:\s*(?=[^\n?]*?[\w.+-]+@[\w-]+\.\w)",
        lambda m: (
            "добавь новый контакт: " if re.search(r"[а-яё]", m.group(0), re.I) else "add a new contact: "
        ),
        text,
    )
    # «Занеси это в карточку Марии», «запиши «…» в карточку клиента»: a note on that record (not a field's new
    # value: «у Umbrella Health новый домен …, добавь в карточку компании» changes the domain)
    text = (
        re.sub(
            r"(?i)\b(?:занеси|запиши|внеси|добавь|сохрани|закинь)(?:\s+(?:это|его|её|ее))?\s+в\s+карточк[уе]\s+(?:компании|контакта)\b",
            "обнови запись",
            text,
        )
        if _NEW_FIELD_VALUE.search(text)
        else re.sub(
            r"(?i)\b(?:занеси|запиши|внеси|добавь|сохрани|закинь)((?:\s+(?:это|всё\s+это|«[^«»]+»))?)\s+в\s+карточк[уе]"
            r"(?:\s+(?:контакта|клиента|компании|сделки))?\s+(?=\S)",
            r"запиши\1 заметкой к ",
            text,
        )
    )
    # «поставь напоминалку завтра …», «…, и напоминалку мне на завтра перевыставить счёт»: remind me
    text = re.sub(
        r"(?i)(?<![\w-])(?:(?:поставь|сделай|создай|заведи|добавь|кинь|накинь)\s+(?:мне\s+|себе\s+)?)?напоминалк[уа]"
        r"(?:\s+(?:мне|себе))?(?![\w-])(?!\s*[:—–-])",
        "напомни мне",
        text,
    )
    # "Would be great to have an issue for the flaky checkout test in ENG", "it'd be nice to get a ticket for …":
    # a wish said as one is a request to make it
    text = re.sub(
        r"(?i)^\s*(?:it\s+)?(?:would|'d)\s+be\s+(?:great|nice|good|awesome|cool)\s+to\s+(?:have|get)\s+"
        r"(?=(?:an?|one|a\s+new)\s+(?:issue|ticket|task|bug)\b)"
        r"|^\s*it'd\s+be\s+(?:great|nice|good|awesome|cool)\s+to\s+(?:have|get)\s+(?=(?:an?|one)\s+(?:issue|ticket|task|bug)\b)",
        "create ",
        text,
    )
    # "Can't repro ENG-101 on v2.3 anymore — add a comment saying that and move it …": what was said is the comment
    text = re.sub(
        r"(?i)^(?P<told>[^—–\n]{8,300}?)\s+[—–-]\s+(?P<ask>(?:please\s+|pls\s+)?(?:add|leave|post|drop|write)\s+"
        r"(?:a\s+)?(?:comment|note))\s+(?:saying|that\s+says)\s+(?:that|this|so|it)\b",
        lambda m: f"{m['ask']} «{m['told'].strip()}»",
        text,
    )
    # "Umbrella Health: login page is blank in Firefox ESR. bug, ENG, assign Max, due tomorrow": a bug report, then
    # its fields — a new issue in that team
    text = re.sub(
        r"^(?P<title>[^\n]{5,200}?)[.!]\s+(?:bug|баг)\s*,\s*(?P<key>[A-Z]{2,5})\s*(?P<rest>(?:,\s*[^\n]*)?)$",
        lambda m: f"new {m['key']} bug: {m['title'].replace(':', ' —')}{m['rest']}",
        text,
    )
    # "set up an ENG issue for …": made
    text = re.sub(
        r"(?i)(?:^|(?<=[,;.]\s)|(?<=\band\s)|(?<=\bplease\s))set\s+up\s+(?=(?:an?|new|one)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:issue|ticket|task|bug)s?\b)",
        "create ",
        text,
    )
    # "All his deals go to Anna, all his Linear issues to Max": handed over, said as where they go
    text = re.sub(
        r"(?i)\b(all\s+(?:of\s+)?(?:his|her|their|my|[A-Z][\w-]*'s)\s+(?:[\w-]+\s+){0,2}?(?:deals|issues|tasks|tickets))\s+"
        r"(?:go|goes|should\s+go|will\s+go|can\s+go|move|moves)\s+(?:over\s+)?to\s+(?=[A-Z]|me\b)",
        r"reassign \1 to ",
        text,
    )
    # "I need an issue tracked for X — put it in CS, Oleg owns it": a new issue, its team and assignee
    text = re.sub(
        r"(?i)^\s*(?:i|we)\s+need\s+(an?\s+(?:issue|ticket|task|bug))\s+(?:tracked|filed|created|opened|logged)\s+(?=for\b)",
        r"create \1 ",
        text,
    )
    text = re.sub(r"\s[—–-]\s+put\s+it\s+in\s+([A-Z]{2,5})\b", r" in \1", text)
    if re.search(r"(?i)\b(?:issue|ticket|task|bug)s?\b", text) and not re.search(r"(?i)\bdeals?\b", text):
        text = re.sub(
            r",\s*([A-Z][\w-]+)\s+(?:owns|will\s+own|takes|will\s+take)\s+it\b", r", assign to \1", text
        )
    # "Have Max follow up with Jane Doe …", "tell Oleg to call …", "Max needs a reminder to …": a task for them
    text = re.sub(
        r"(?:^|(?<=[.;!?]\s))(?i:(?:please\s+)?(?:have|get|tell|ask))\s+"
        # (a system is no colleague: "tell Linear to stop emailing me" is a setting of Linear's)
        r"(?!(?i:linear|attio|slack|google|gmail|jira|notion|calendar|telegram|outlook|zoom)\b)([A-Z][\w-]+)\s+(?:to\s+)?"
        r"(?!(?:on|in|under|that|about|know|what|if|whether)\b)(?=[a-z])",
        r"remind \1 to ",
        text,
    )
    text = re.sub(r"^\s*([A-Z][\w-]+)\s+needs\s+a\s+reminder\s+to\s+", r"remind \1 to ", text)
    # «ENG-105 закрываем», «ENG-102 переносим в проект …»: the issue said, then what "we" do with it — do it
    text = re.sub(
        r"(?i)(?<!не\s)\b([A-Za-z]{2,5}-\d+)\s+(закрываем|закрываю|переносим|переводим|двигаем|назначаем|отдаём|отдаем|"
        r"архивируем|удаляем)\b",
        lambda m: f"{_WE_DO[m.group(2).lower()]} {m.group(1)}",
        text,
    )
    # «создай задачу в лин», «в линейре»: Linear, as people type it
    text = re.sub(r"(?i)\b(в|во|in)\s+(?:лин|линейр\w*|линир\w*|линер\w*)(?![\w-])", r"\1 Linear", text)
    # «ENG-101 в ревью переведи»: the issue and where, the verb said last
    text = re.sub(
        r"(?i)^\s*([A-Za-z]{2,5}-\d+)\s+((?:в|во|на)\s+[^\s,.;!?]+(?:\s+[^\s,.;!?]+)?)\s+(переведи|перенеси|перекинь|двинь|"
        r"закинь|отправь|верни)\s*([.!]?)\s*$",
        r"\3 \1 \2\4",
        text,
    )
    # "add a 10k USD lead for Acme Logistics": a new deal, in the stage Lead
    text = re.sub(
        r"(?i)\b(add|create|log|open|make)\s+(?:a|an)\s+(?:new\s+)?((?:[$€₽]?\d[\d.,]*\s*[km]?\s*(?:usd|eur|rub)?\s+)?)"
        r"lead\s+(?=(?:for|with|at)\s)",
        r"\1 a new \2deal in Lead ",
        text,
    )
    return text
