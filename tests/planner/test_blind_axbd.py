"""What the sets AX–BD taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, ops, writes

pytestmark = pytest.mark.anyio


async def pick(anna: Conversation, reply: dict[str, Any], value: str) -> dict[str, Any]:
    return await anna.call(
        "pick", plan_id=reply["plan"]["plan_id"], question_id=reply["question_id"], value=value
    )


# ---- everything, except, without ----------------------------------------------------------------------


async def test_close_everything_with_nothing_named_is_asked_before_it_touches_every_issue(
    anna: Conversation,
) -> None:
    r = await anna.say("Закрой всё")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    r = await pick(anna, r, "all")  # "Да, все": then every open issue, counted
    assert drafted(r) == ["linear:complete_issue"] * 11
    r = await anna.say("close everything in ENG")  # a team named is a filter: no question
    assert r["status"] in ("draft_pending", "needs_bulk_confirmation") and drafted(r)


@pytest.mark.parametrize(
    "text", ["close all CS issues except CS-12 & CS-13", "закрой все задачи CS, кроме CS-12 и CS-13"]
)
async def test_issues_said_as_exceptions_are_left_out_of_a_bulk_change(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending"
    [bulk] = r["plan"]["intents"]
    assert bulk["filters"]["exclude"] == ["CS-12", "CS-13"]
    previews = " ".join(a["preview"] for a in r["plan"]["actions"])
    assert "CS-14" in previews and "CS-15" in previews and "CS-12" not in previews and "CS-13" not in previews


async def test_a_template_without_one_of_its_tasks_drafts_the_rest(anna: Conversation) -> None:
    r = await anna.say("renewal tasks for Initech but DON'T create the quote one yet")
    assert [a["preview"] for a in r["plan"]["actions"]] == ["Linear CS: 'Usage review with Initech'"]
    assert "Leaving out: quote" in r["user_message"]
    r = await anna.say("запусти онбординг для Ромашки, кроме SSO")
    assert len(drafted(r)) == 3 and not any("SSO" in a["preview"] for a in r["plan"]["actions"])
    r = await anna.say("онбординг для Globex без исполнителя")  # «без исполнителя» leaves out no task
    assert not any(i.get("skip") for i in r["plan"]["intents"])


# ---- two alternatives: one question -------------------------------------------------------------------


async def test_two_issues_offered_as_alternatives_are_asked_about_and_only_the_picked_one_changes(
    anna: Conversation,
) -> None:
    r = await anna.say("Перенести ENG-101 или лучше ENG-102 на следующую неделю? Не знаю, что важнее")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert [c["value"] for c in r["choices"]] == ["ENG-101", "ENG-102"]
    r = await pick(anna, r, "ENG-102")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-102", "due": "2026-11-30"}]


async def test_two_people_offered_as_alternatives_are_asked_about_and_the_doubt_is_no_title(
    anna: Conversation,
) -> None:
    r = await anna.say("Создай задачу на Олега или Макса, не знаю, кому лучше: починить экспорт")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    r = await pick(anna, r, "Макса")
    [issue] = writes(r)
    assert (issue["title"], issue["assignee"]) == ("починить экспорт", "Max Weber")


async def test_two_stages_offered_as_alternatives_are_asked_about(anna: Conversation) -> None:
    r = await anna.say("Globex pilot переведи в Won или в Lost — смотря что ответит Jane")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert [c["label"] for c in r["choices"]] == ["Won", "Lost"]


# ---- conditions on how things stand now ---------------------------------------------------------------


async def test_a_condition_on_a_deals_stage_is_checked_against_the_deal(anna: Conversation) -> None:
    r = await anna.say("Если сделка по продлению Initech ещё не выиграна, переведи её в переговоры")
    assert r["status"] == "answered" and drafted(r) == []  # it is won: the condition does not hold
    assert "условие не выполнено" in r["user_message"]
    r = await anna.say("Если Globex pilot ещё не выиграна — переводи в Won и сразу заводи задачи онбординга")
    assert ops(r) == ["update_deal", "apply_template"]
    r = await anna.say("if Acme Corp license is still in Qualification move it to Proposal")
    assert writes(r) == [{"op": "update_deal", "deal": "Acme Corp — annual license", "stage": "Proposal"}]


async def test_the_other_branch_of_a_checked_condition_does_not_cancel_the_first(anna: Conversation) -> None:
    r = await anna.say(
        "Если сделка с Ромашкой всё ещё на стадии КП, переведите её, пожалуйста, в переговоры; если же она уже "
        "продвинулась дальше, ничего не трогайте."
    )
    assert writes(r) == [{"op": "update_deal", "deal": "Ромашка — внедрение", "stage": "Negotiation"}]


async def test_a_condition_said_of_an_issue_is_never_read_as_closing_it(anna: Conversation) -> None:
    r = await anna.say("ENG-106 если ещё не закрыта — подними приоритет до срочного")
    assert drafted(r) == []  # it is open and already urgent: nothing to do, and never "close ENG-106"
    assert "urgent" in r["user_message"]
    r = await anna.say("если CS-15 ещё не закрыта, закрой её")
    assert writes(r) == [{"op": "complete_issue", "issue": "CS-15"}]


# ---- what is not asked --------------------------------------------------------------------------------


async def test_news_the_person_doubts_is_named_back_not_drafted(anna: Conversation) -> None:
    r = await anna.say("Запусти, пожалуйста, онбординг для Ромашки, договор вроде подписан")
    assert ops(r) == ["apply_template"]
    assert r["user_message"].startswith("Не трогаю: Attio: сделка «Ромашка — внедрение»")


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("dont move Globex yet, just add a note to the deal: waiting on procurement sign-off", "create_note"),
        (
            "Сделку Альфа-Лизинга не двигай, но добавь к ней заметку: Мария просит рассрочку на 6 месяцев",
            "create_note",
        ),
    ],
)
async def test_dont_this_but_that_drafts_that(anna: Conversation, text: str, op: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending" and ops(r) == [op]


async def test_a_request_taken_back_as_it_ends_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "У Ромашки новый домен romashka.com, обнови компанию. И ещё поставь задачу проверить их SSO… хотя нет, "
        "лучше просто коммент в CS-13: домен сменился на romashka.com"
    )
    assert sorted(ops(r)) == ["comment_issue", "update_record"]


# ---- what a new issue is called, and for whom ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Please create an issue for Sarah.",
        "Эм, мне нужно создать задачу. Наверное, в Linear",
        "Создай задачу и поставь её на пятницу",
    ],
)
async def test_a_new_issue_without_a_title_asks_for_one(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_new_issue_for_someone_or_somewhere_unknown_is_asked_about(anna: Conversation) -> None:
    r = await anna.say("Создай задачу для Оли: проверить переводы на сайте")
    assert r["status"] == "needs_clarification" and "«Оли»" in r["clarifying_question"]
    r = await anna.say("заведи задачу в проект биллинг 2.0 починить округление копеек")
    assert r["status"] == "needs_clarification" and "биллинг 2.0" in r["clarifying_question"]
    r = await anna.say("create an issue for the PDF crash")  # "for" a thing: its title
    assert writes(r)[0]["title"] == "the PDF crash"


async def test_a_bug_described_then_asked_for_is_one_issue(anna: Conversation) -> None:
    r = await anna.say("Баг: при экспорте в Excel теряются даты. Заведи в ENG, приоритет срочный, метка bug")
    [issue] = writes(r)
    assert (issue["title"], issue["priority"], issue["labels"]) == (
        "при экспорте в Excel теряются даты",
        "urgent",
        ["bug"],
    )


async def test_days_listed_for_each_item_make_one_issue_per_day(anna: Conversation) -> None:
    r = await anna.say("make CS tickets for each Q1 webinar: Jan 15, Jan 29, Feb 12, Feb 26, Mar 12, Mar 26")
    made = [(i["title"], i["due"]) for i in writes(r)]
    assert made[0] == ("Q1 webinar — Jan 15", "2027-01-15") and made[-1] == (
        "Q1 webinar — Mar 26",
        "2027-03-26",
    )
    assert len(made) == 6


async def test_a_project_linked_in_its_own_sentence_is_set_and_is_no_part_of_the_title(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Заведи баг в ENG: «Пуши не приходят на Android». Свяжи его с проектом Mobile App, назначь на Макса, "
        "срок 3 декабря"
    )
    [issue] = writes(r)
    assert (issue["title"], issue["project"], issue["assignee"], issue["due"]) == (
        "Пуши не приходят на Android",
        "Mobile App",
        "Max Weber",
        "2026-12-03",
    )


# ---- values as said -----------------------------------------------------------------------------------


async def test_raising_a_deals_amount_changes_it_and_by_adds_to_it(anna: Conversation) -> None:
    r = await anna.say("Please raise the amount on the Alfa-Leasing deal to 950,000 rubles.")
    assert ops(r) == ["update_deal"] and writes(r)[0]["amount"] == 950000  # never a new deal
    r = await anna.say("Увеличь сумму по Альфа-Лизингу на 100 тысяч")
    assert writes(r) == [
        {"op": "update_deal", "deal": "Альфа-Лизинг — расширение", "amount": 900000, "currency": "RUB"}
    ]
    r = await anna.say("reduce the Globex pilot amount by 5k")
    assert writes(r)[0]["amount"] == 25000


async def test_an_owner_and_an_amount_said_together_are_both_changed(anna: Conversation) -> None:
    r = await anna.say("Initech renewal: владелец Анна, сумма 21 000 $")
    [deal] = writes(r)
    assert (deal["amount"], deal["owner"]) == (21000, "Anna Kuznetsova")


async def test_a_product_name_with_a_number_is_no_time_and_eom_is_the_months_last_day(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "закинь в Linear: Альфа-Лизинг просит выгрузку в 1С, команда CS, лейбл customer-request"
    )
    assert "1С" in writes(r)[0]["title"]
    r = await anna.say("create issue 'Security audit prep' in ENG w/ label security, due EOM")
    assert writes(r)[0]["due"] == "2026-11-30"


async def test_a_day_corrected_with_its_preposition_keeps_the_hour(anna: Conversation) -> None:
    r = await anna.say("короче созвон с джейн в четверг в 11 на час а нет не в четверг в пятницу")
    [event] = writes(r)
    assert (event["start"], event["duration_minutes"], event["attendees"]) == (
        "2026-11-27T11:00:00+03:00",
        60,
        ["Jane Doe"],
    )


# ---- calendar and people ------------------------------------------------------------------------------


async def test_people_added_or_invited_to_a_call_are_its_attendees(anna: Conversation) -> None:
    r = await anna.say("add Jane Doe & John Smith to a call Mon 10am for 1h re: integration")
    assert writes(r)[0]["attendees"] == ["Jane Doe", "John Smith"]
    r = await anna.say("Sarah wants Maria Sokolova invited to a 30-minute call on Tuesday at 11am.")
    assert (writes(r)[0]["attendees"], writes(r)[0]["title"]) == (
        ["Maria Sokolova"],
        "Call with Maria Sokolova",
    )
    r = await anna.say("Ivan wants a call Thu 3pm 30min")  # two Ivans: which one comes is asked
    assert r["status"] == "needs_clarification" and "Ivan" in r["clarifying_question"]


async def test_a_new_persons_unknown_company_is_asked_about_never_dropped(anna: Conversation) -> None:
    r = await anna.say("Add Sarah Connor, sarah@cyberdyne.com, CTO at Cyberdyne Systems")
    assert r["status"] == "needs_clarification" and "Cyberdyne Systems" in r["clarifying_question"]
    r = await pick(anna, r, "create")
    assert ops(r) == ["create_company", "create_person"]
    assert writes(r)[0] == {"op": "create_company", "name": "Cyberdyne Systems", "domain": "cyberdyne.com"}


@pytest.mark.parametrize(
    ("text", "name", "title"),
    [
        ("Please add José Álvarez-Núñez (jose@umbrella.health) — he's VP of Talent at Umbrella Health",
         "José Álvarez-Núñez", "VP of Talent"),
        ("new contact: Seán O'Connell, sean.oconnell@initech.io, senior recruiter at Initech",
         "Seán O'Connell", "senior recruiter"),
        ("Anne-Marie D'Souza, anne-marie.dsouza@globex.com, Director of HR Ops at Globex — add her please",
         "Anne-Marie D'Souza", "Director of HR Ops"),
    ],
)  # fmt: skip
async def test_a_new_persons_name_and_job_title_are_kept_as_written(
    anna: Conversation, text: str, name: str, title: str
) -> None:
    [person] = writes(await anna.say(text))
    assert (person["name"], person["job_title"]) == (name, title)


# ---- several steps in one message ---------------------------------------------------------------------


async def test_written_on_an_issue_is_a_comment_on_each_issue_named(anna: Conversation) -> None:
    r = await anna.say("Удали тикет CS-15 — это дубль. А в ENG-102 напиши: макеты готовы, можно верстать")
    assert ops(r) == ["archive_issue", "comment_issue"]
    r = await anna.say(
        "ENG-106 закрой, а в ENG-103 и ENG-101 напиши одно и то же: «после релиза 2.4 проверить повторно»"
    )
    assert [(i["op"], i["issue"]) for i in writes(r)] == [
        ("complete_issue", "ENG-106"),
        ("comment_issue", "ENG-103"),
        ("comment_issue", "ENG-101"),
    ]


async def test_references_back_in_a_plan_go_to_what_was_just_named(anna: Conversation) -> None:
    r = await anna.say("Сделку Globex pilot передай Максу, а тикет CS-14 по ней — тоже ему")
    assert writes(r) == [
        {"op": "update_deal", "deal": "Globex pilot", "owner": "Max Weber"},
        {"op": "update_issue", "issue": "CS-14", "assignee": "Max Weber"},
    ]
    r = await anna.say(
        "Перенеси CS-12 на 2 декабря и назначь на Олега. И ещё поставь ему задачу в Attio подготовить материалы "
        "для John Smith к 1 декабря"
    )
    task = writes(r)[-1]
    assert (task["op"], task["assignee"], task["content"]) == (
        "create_task",
        "Oleg Ivanov",
        "подготовить материалы для John Smith",
    )
    r = await anna.say("Сделай ENG-104 на Олега, а я вместо него беру ENG-103")
    assert [(i["issue"], i["assignee"]) for i in writes(r)] == [
        ("ENG-104", "Oleg Ivanov"),
        ("ENG-103", "Anna Kuznetsova"),
    ]


async def test_one_more_of_the_same_repeats_the_request(anna: Conversation) -> None:
    r = await anna.say(
        "Поставь мне в Attio задачу позвонить Li Wei послезавтра, и ещё одну — отправить ему договор до 4 декабря"
    )
    assert [(t["content"], t["deadline"][:10]) for t in writes(r)] == [
        ("позвонить Li Wei", "2026-11-27"),
        ("отправить ему договор", "2026-12-04"),
    ]


async def test_a_note_then_a_request_that_starts_with_where_it_goes(anna: Conversation) -> None:
    r = await anna.say(
        "Заметку к Initech: обсудили продление на 2 года. Потом по сделке Initech renewal создай задачи продления"
    )
    assert ops(r) == ["create_note", "apply_template"]
    assert writes(r)[0]["body"] == "обсудили продление на 2 года"


async def test_a_ticket_named_in_brackets_is_the_one_changed(anna: Conversation) -> None:
    r = await anna.say("ENG-105 — приоритет срочный. И ещё тот тикет про PDF (ENG-103) отдай Олегу")
    assert {(i["issue"], i.get("priority"), i.get("assignee")) for i in writes(r)} == {
        ("ENG-105", "urgent", None),
        ("ENG-103", None, "Oleg Ivanov"),
    }


# ---- CRM tasks ----------------------------------------------------------------------------------------


async def test_a_to_do_about_a_crm_record_is_a_crm_task(anna: Conversation) -> None:
    r = await anna.say("Задача: сверить акты с Альфа-Лизингом к 30 ноября")
    assert writes(r)[0]["op"] == "create_task" and writes(r)[0]["record"] == "Альфа-Лизинг"
    r = await anna.say("Напомни мне в четверг проверить, оплатил ли Initech счёт")
    assert writes(r)[0]["content"] == "проверить, оплатил ли Initech счёт"
    r = await anna.say(
        "Сделку Acme Logistics переведи в КП и поставь Олегу задачу подготовить предложение к понедельнику"
    )
    assert ops(r) == ["update_deal", "create_task"]
    r = await anna.say("задача максу двадцать седьмого созвониться с джейн доу")
    task = writes(r)[0]
    assert (task["op"], task["deadline"][:10], task["assignee"]) == ("create_task", "2026-11-27", "Max Weber")


# ---- bulk words that create nothing -------------------------------------------------------------------


async def test_bulk_changes_said_with_create_like_words_create_nothing(anna: Conversation) -> None:
    r = await anna.say("Raise all customer-request issues to high priority")
    [bulk] = r["plan"]["intents"]
    assert (bulk["op"], bulk["changes"]) == ("update_matching", {"priority": "high"})
    r = await anna.say("Add the security label to all ENG bugs")
    [bulk] = r["plan"]["intents"]
    assert (bulk["filters"]["label"], bulk["changes"]) == ("bug", {"labels_add": ["security"]})
    r = await anna.say("Переназначь все баги на нового разработчика")
    assert "create_issue" not in ops(r) and drafted(r) == []


# ---- the same, sent as intents by a client's model ----------------------------------------------------


async def test_a_clients_intents_can_leave_issues_and_template_tasks_out(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        intents=[{"op": "find", "object": "issues", "filters": {"team": "ENG", "exclude": ["ENG-101"]}}],
    )
    assert r["status"] == "answered" and "ENG-102" in r["user_message"] and "ENG-101" not in r["user_message"]
    r = await anna.call(
        "plan",
        intents=[
            {"op": "apply_template", "template": "renewal", "deal": "Initech renewal", "skip": ["quote"]}
        ],
    )
    assert [a["preview"] for a in r["plan"]["actions"]] == ["Linear CS: «Usage review with Initech»"]
    r = await anna.call(
        "plan",
        intents=[
            {"op": "apply_template", "template": "renewal", "deal": "Initech renewal", "skip": ["pricing"]}
        ],
    )
    assert r["status"] == "invalid" and "usage-review, quote" in r["user_message"] and drafted(r) == []
