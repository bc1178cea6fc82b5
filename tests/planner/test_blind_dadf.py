"""What the sets DA–DF taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, run

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return list(reply["plan"]["intents"])


# ---- a change to everything that matches keeps every filter said -----------------------------------------


async def test_a_label_put_on_a_projects_issues_keeps_the_project_that_shares_its_name(
    anna: Conversation,
) -> None:
    r = await anna.say("повесь метку onboarding на все задачи проекта Customer Onboarding")
    (bulk,) = intents(r)
    assert bulk["filters"] == {"project": "Customer Onboarding"}
    assert drafted(r) == []  # both of its issues carry the label already
    assert r["status"] == "answered"


# ---- questions about the assistant are answered, never drafted ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "what can you actually do? can you create stuff in Linear or only read?",
        "что ты умеешь?",
        "ты умеешь только читать или менять тоже?",
        "can you create issues in linear?",
    ],
)
async def test_a_question_about_what_it_can_do_is_answered_with_its_scope(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and drafted(r) == []
    assert "Attio" in r["user_message"] and "Linear" in r["user_message"]


@pytest.mark.parametrize("text", ["create something in linear", "создай что-нибудь в линеаре"])
async def test_a_placeholder_is_no_title(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    "text", ["заметку к ромашке добавь", "Создай в Attio задачу", "add a note to globex"]
)
async def test_a_note_or_task_made_of_request_words_only_asks_what_it_says(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


# ---- someone's words and a report pasted ---------------------------------------------------------------------


async def test_a_quoted_chat_keeps_its_words_a_no_in_it_is_no_correction(anna: Conversation) -> None:
    r = await anna.say(
        "from the Globex chat:\n\nJane: we're fine with SSO via Okta, no SAML needed for the pilot\n\n"
        "add that as a comment on CS-14"
    )
    assert drafted(r) == ["linear:comment_issue"]
    assert "Okta, no SAML needed" in intents(r)[0]["body"]


async def test_a_pasted_ticket_with_subject_and_body_becomes_an_issue_with_title_and_description(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Support ticket #4471 pasted below, turn it into an ENG bug, assign Oleg:\n\n"
        "Subject: Password reset link expired immediately\n"
        "Body: Users at Acme Corp report the reset link says 'expired' even when clicked within a minute. "
        "Started after Monday's deploy."
    )
    assert drafted(r) == ["linear:create_issue"]
    (issue,) = intents(r)
    assert issue["title"] == "Password reset link expired immediately"
    assert "Started after Monday's deploy" in issue["description"]
    assert issue["assignee"] == "Oleg Ivanov" and issue["labels"] == ["bug"]
    done = await run(anna, r)
    assert done["status"] == "executed"


async def test_a_report_told_in_sentences_is_titled_by_its_first_and_described_by_all(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Customer report from Jane Doe at Globex: when they export a report with more than 10k rows to CSV, the "
        "download just stops at around 8 MB. Happens in both Chrome and Firefox. Their finance team can't close "
        "the month without it. Please file a bug for Engineering, high priority."
    )
    (issue,) = intents(r)
    assert issue["title"].startswith("when they export a report with more than 10k rows to CSV")
    assert "Firefox" in issue["description"] and issue["priority"] == "high"


async def test_a_description_said_in_quotes_after_the_title_is_kept(anna: Conversation) -> None:
    r = await anna.say("создай задачу в ENG «Починить экспорт» с описанием «падает на больших файлах»")
    (issue,) = intents(r)
    assert issue["title"] == "Починить экспорт" and issue["description"] == "падает на больших файлах"


# ---- several things in one message ------------------------------------------------------------------------------


async def test_a_deal_said_won_then_moved_and_a_template_run_is_both(anna: Conversation) -> None:
    r = await anna.say("Acme Logistics pilot is won, move it and run the onboarding template")
    assert drafted(r)[0] == "attio:update_deal" and drafted(r).count("linear:create_issue") == 4


async def test_the_second_of_two_issues_taken_back_by_its_place_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "ok create an issue for the billing page copy in DES, and also one for the pricing calc bug in ENG — "
        "actually skip the second one, Oleg already has it"
    )
    (issue,) = intents(r)
    assert issue["team"] == "Design" and "billing page copy" in issue["title"]


async def test_issues_made_for_a_pasted_list_take_a_level_said_of_one_of_them(anna: Conversation) -> None:
    r = await anna.say(
        "from the Umbrella kickoff notes:\n- need HL7 import (must have)\n- audit trail export (nice to have)\n\n"
        "make two ENG feature issues for those, the HL7 one high priority"
    )
    made = intents(r)
    assert [i["title"] for i in made] == ["need HL7 import (must have)", "audit trail export (nice to have)"]
    assert [i.get("priority") for i in made] == ["high", None]


async def test_inline_numbered_items_are_one_issue_each(anna: Conversation) -> None:
    r = await anna.say(
        "file two bugs in DES: (1) dark mode toggle resets on page refresh (2) avatar upload preview is "
        "stretched on Android"
    )
    assert drafted(r) == ["linear:create_issue", "linear:create_issue"]


async def test_a_task_for_oneself_after_a_note_sentence_is_a_request_of_its_own(anna: Conversation) -> None:
    r = await anna.say(
        "Джейн в карточку заметку: главный контакт по внедрению теперь она. и себе задачу на понедельник — "
        "позвонить Джейн, обсудить kickoff"
    )
    assert drafted(r) == ["attio:create_note", "attio:create_task"]
    assert intents(r)[0]["body"] == "главный контакт по внедрению теперь она"


async def test_an_issue_named_before_a_colon_then_a_comment_and_a_move_is_both(anna: Conversation) -> None:
    r = await anna.say("ENG-103: add a comment 'repro steps attached in Sentry' and move it to Todo")
    assert drafted(r) == ["linear:comment_issue", "linear:update_issue"]
    assert intents(r)[0]["body"] == "repro steps attached in Sentry"


async def test_a_note_asked_as_the_same_as_a_comment_says_the_same(anna: Conversation) -> None:
    r = await anna.say(
        "Comment on the Globex requirements issue that Jane sent over the security questionnaire, and add the "
        "same as a note on the Globex company in the CRM."
    )
    comment, note = intents(r)
    assert note["body"] == comment["body"] == "Jane sent over the security questionnaire"


# ---- values said are the values drafted ------------------------------------------------------------------------


async def test_an_amount_with_thousands_and_cents_is_that_amount(anna: Conversation) -> None:
    r = await anna.say("set Acme Logistics pilot to 12,500.50 USD - the exact figure from the signed quote")
    (deal,) = intents(r)
    assert deal["amount"] == 12500.5


async def test_an_intent_amount_with_thousands_and_cents_is_accepted(anna: Conversation) -> None:
    r = await anna.call(
        "plan", intents=[{"op": "update_deal", "deal": "Acme Logistics pilot", "amount": "12,500.50"}]
    )
    assert r["status"] == "draft_pending" and intents(r)[0]["amount"] == 12500.5


async def test_a_corrected_sum_keeps_the_scale_and_currency_it_replaces(anna: Conversation) -> None:
    r = await anna.say("создай сделку для Инитек на 25 тысяч долларов ой нет на 30 стадия квалификация")
    (deal,) = intents(r)
    assert deal["amount"] == 30000 and deal["currency"] == "USD" and deal["stage"] == "Qualification"


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("move Romashka to Won — sorry, not won yet, Negotiation", "Negotiation"),
        ("ромашка согласилась на кп переведи их в переговоры", "Negotiation"),
        ("сделку ромашки переведи в выиграна ой нет рано еще давай в переговоры", "Negotiation"),
    ],
)
async def test_the_stage_a_deal_is_sent_to_is_the_one_drafted(
    anna: Conversation, text: str, stage: str
) -> None:
    r = await anna.say(text)
    assert [i.get("stage") for i in intents(r)] == [stage]


async def test_a_new_companys_deal_keeps_its_owner(anna: Conversation) -> None:
    r = await anna.say(
        "Boss says: add Massive Dynamic (massivedynamic.com) as a company and open a 75k deal for them in Lead, "
        "owned by Max"
    )
    assert intents(r)[1]["owner"] == "Max Weber"


async def test_a_quote_in_the_ask_is_the_note_not_the_sentence_before(anna: Conversation) -> None:
    r = await anna.say(
        "Jane confirmed the pilot scope — put a note on Jane Doe 'scope confirmed: 3 warehouses' and close CS-14"
    )
    assert intents(r)[0]["body"] == "scope confirmed: 3 warehouses"


async def test_a_story_then_a_polite_ask_to_note_it_is_a_note_not_a_task(anna: Conversation) -> None:
    r = await anna.say(
        "so um I just got off the phone with John Smith from Acme and he said they need the contract by the 5th "
        "of December otherwise legal won't sign it this year so can you note that on his record"
    )
    assert drafted(r) == ["attio:create_note"]


async def test_a_record_named_then_a_field_changed_is_a_change_of_that_record(anna: Conversation) -> None:
    r = await anna.say("Ли Вэй: поменяй email на li.wei@acmelog.cn")
    assert drafted(r) == ["attio:update_record"]


# ---- what someone else asked for, quoted ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ('Boss says: "remind me to send John Smith the contract on Monday"', "attio:create_task"),
        ("Шеф просит: «созвон с Ромашкой в понедельник в 12, минут на 40». Поставь, пожалуйста",
         "googlecalendar:create_event"),
    ],
)  # fmt: skip
async def test_a_request_quoted_from_the_boss_is_drafted(anna: Conversation, text: str, op: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [op]


# ---- an issue's project, state and priority said the way people say them ------------------------------------


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("move ENG-103 to Q1 Launch", {"project": "Q1 Launch"}),
        ("put ENG-103 in Q1 Launch", {"project": "Q1 Launch"}),
        ("add ENG-103 to Q1 Launch", {"project": "Q1 Launch"}),
        ("ENG-101 belongs in Mobile App, move it there", {"project": "Mobile App"}),
        ("ENG-106 can wait, throw it back to backlog", {"state": "Backlog"}),
        ("ENG-102 is urgent now, the CEO wants it before the demo", {"priority": "urgent"}),
    ],
)
async def test_an_issue_change_said_plainly_is_drafted(
    anna: Conversation, text: str, change: dict[str, str]
) -> None:
    r = await anna.say(text)
    (intent,) = intents(r)
    assert intent["op"] == "update_issue"
    assert {k: intent.get(k) for k in change} == change


async def test_issues_counted_and_listed_after_a_colon_are_made(anna: Conversation) -> None:
    r = await anna.say(
        "3 issues in ENG for the v2 rollout: feature flags, migration script, rollback runbook"
    )
    assert [i["title"] for i in intents(r)] == ["feature flags", "migration script", "rollback runbook"]


async def test_a_russian_noun_one_letter_from_a_verb_is_not_taken_for_it(anna: Conversation) -> None:
    r = await anna.say("три задачи в ENG по релизу: флаги, миграция, откат")
    assert [i["title"] for i in intents(r)] == ["флаги", "миграция", "откат"]


async def test_an_owner_given_with_an_arrow_is_the_new_owner(anna: Conversation) -> None:
    r = await anna.say("globex pilot: owner -> Max, amount 32k")
    (deal,) = intents(r)
    assert deal["owner"] == "Max Weber" and deal["amount"] == 32000


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("rename ENG-104 to Update API docs for v2.1", "Update API docs for v2.1"),
        ("add a sub-issue under ENG-105 for handling denied notification permissions", None),
    ],
)
async def test_capitalised_words_after_to_are_a_title_not_a_person(
    anna: Conversation, text: str, title: str | None
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending"
    (intent,) = intents(r)
    assert "assignee" not in intent
    if title:
        assert intent["title"] == title
    else:
        assert intent["parent"] == "ENG-105" and intent["title"] == "handling denied notification permissions"


async def test_a_note_on_someone_about_calls_is_a_note_not_an_event(anna: Conversation) -> None:
    r = await anna.say("заметка на ивана сидорова — любит созвоны утром до 11")
    assert drafted(r) == ["attio:create_note"]


async def test_a_follow_up_opened_in_a_team_is_an_issue_there(anna: Conversation) -> None:
    r = await anna.say("Mark DES-7 done and open a follow-up in DES: tablet layouts for onboarding screens")
    assert drafted(r) == ["linear:complete_issue", "linear:create_issue"]
    assert intents(r)[1]["title"] == "tablet layouts for onboarding screens"


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("bump every urgent issue down to high", {"priority": "high"}),
        ("глобекс пилот закрыли, ставь won", {"stage": "Won"}),
    ],
)
async def test_a_direction_or_an_imperfective_verb_says_the_same_change(
    anna: Conversation, text: str, change: dict[str, str]
) -> None:
    r = await anna.say(text)
    (intent,) = intents(r)
    assert change.items() <= {**intent, **(intent.get("changes") or {})}.items()


# ---- a deal's currency ------------------------------------------------------------------------------------------


async def test_a_deals_currency_changed_keeps_its_number_and_is_executed(anna: Conversation) -> None:
    r = await anna.say("change the Initech renewal currency to EUR")
    (deal,) = intents(r)
    assert deal["currency"] == "EUR" and "amount" not in deal
    (args,) = [a["args"] for a in r["plan"]["actions"] if not a["read_only"]]
    assert args["values"]["value"] == {"currency_value": 18000, "currency_code": "EUR"}
    assert "destructive" in {x["kind"] for x in r["plan"]["risks"]}
    await run(anna, r)


async def test_a_currency_and_a_sum_said_together_are_one_change(anna: Conversation) -> None:
    r = await anna.say("сделка ромашка внедрение: поменяй валюту на евро и сумму на 12 800")
    (deal,) = intents(r)
    assert (deal["amount"], deal["currency"]) == (12800, "EUR")


async def test_a_currency_sent_as_a_word_by_a_client_is_its_code(anna: Conversation) -> None:
    r = await anna.call(
        "plan", intents=[{"op": "update_deal", "deal": "Initech renewal", "currency": "евро"}]
    )
    assert r["status"] == "draft_pending" and intents(r)[0]["currency"] == "EUR"


async def test_a_reassignment_from_someone_to_someone_else_with_why_is_drafted(anna: Conversation) -> None:
    r = await anna.say("reassign ENG-101 from Oleg to Max, Oleg is out sick")
    (issue,) = intents(r)
    assert issue["assignee"] == "Max Weber" and r["status"] == "draft_pending"
    r = await anna.say("re-assign CS-12 на Олега, я на больничном до понедельника")
    assert intents(r)[0]["assignee"] == "Oleg Ivanov" and r["status"] == "draft_pending"


# ---- DG–DI: notes, owners and issues said around each other -------------------------------------------------


async def test_a_note_asked_for_after_what_was_told_carries_what_was_told(anna: Conversation) -> None:
    r = await anna.say(
        "Созвонились с Initech, Иван Сидоров доволен, хотят докупить 40 лицензий. Закинь заметку в компанию Initech"
    )
    (note,) = intents(r)
    assert note["record"] == "Initech" and "40 лицензий" in note["body"]


async def test_a_note_for_the_deal_after_a_company_and_a_person_goes_on_the_companys_deal(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Алфа лизинг — переговоры идут туго, Мария хочет скидку 7%. Запиши заметку к сделке, стадию пока не трогай"
    )
    assert drafted(r) == ["attio:create_note"]
    assert intents(r)[0]["record"] == "Альфа-Лизинг — расширение" and "скидку 7%" in intents(r)[0]["body"]


async def test_an_owner_change_and_a_note_written_after_it_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Globex pilot — владельцем ставь Макса и напиши заметку: передал Максу, я на конференции до 4 декабря"
    )
    assert drafted(r) == ["attio:update_deal", "attio:create_note"]
    assert intents(r)[0]["owner"] == "Max Weber"


async def test_the_owner_said_as_me_now_is_the_one_asking(anna: Conversation) -> None:
    r = await anna.say("Сделка Acme Logistics — pilot: владелец теперь я, сумма 14 000")
    (deal,) = intents(r)
    assert deal["owner"] == "Anna Kuznetsova" and deal["amount"] == 14000


async def test_another_issue_in_its_own_sentence_is_left_alone_without_undoing_the_change_before(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Morning triage: ENG-103 confirmed on macOS 14 and Windows 11, assign it to Oleg. ENG-101 I can't repro "
        "anymore, leave it as is. And file a new one in DES: 'Export button disabled for viewers', label bug."
    )
    change, new = intents(r)
    assert (change["issue"], change["assignee"]) == ("ENG-103", "Oleg Ivanov")
    assert new["team"] == "Design" and "assignee" not in new  # Oleg was said of ENG-103, not of the new one


async def test_a_new_issue_named_after_and_with_its_verb_left_out_is_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Globex pilot to Won, note 'signed 2-year deal', and an ENG issue 'Provision Globex prod tenant' for Oleg "
        "by Dec 5"
    )
    assert drafted(r) == ["attio:update_deal", "attio:create_note", "linear:create_issue"]
    assert intents(r)[1]["body"] == "signed 2-year deal"


@pytest.mark.parametrize(
    ("text", "project"),
    [
        ("в Q1 Launch добавь задачу написать гайд по миграции на v2 метка docs", "Q1 Launch"),
        ("задача в дизайн: макет страницы тарифов для Website Redesign", "Website Redesign"),
    ],
)
async def test_a_projects_name_said_before_or_after_the_title_is_the_project(
    anna: Conversation, text: str, project: str
) -> None:
    r = await anna.say(text)
    (issue,) = intents(r)
    assert issue["project"] == project and project not in issue["title"]


async def test_a_deal_called_something_after_a_corrected_sum_keeps_both(anna: Conversation) -> None:
    r = await anna.say(
        "создай сделку для Initech на двадцать нет на тридцать тысяч долларов называется Initech API доступ"
    )
    (deal,) = intents(r)
    assert deal["name"] == "Initech API доступ" and deal["amount"] == 30000


async def test_no_assignee_said_is_no_value_left_out(anna: Conversation) -> None:
    r = await anna.say(
        "create an ENG issue 'Audit rate limits on public API', low priority, no assignee for now."
    )
    (issue,) = intents(r)
    assert r["status"] == "draft_pending" and "assignee" not in issue


# ---- a bulk change said with why ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        (
            "close all open bugs in ENG, hotfix 3.4.1 is out",
            {"team": "Engineering", "state": "open", "label": "bug"},
        ),
        ("закрой вообще все задачи команды ENG релиз вышел", {"team": "Engineering", "state": "open"}),
        ("заархивируй все задачи команды ENG, начинаем с чистого листа", {"team": "Engineering"}),
        (
            "все баги в engineering закрой они уже пофикшены",
            {"team": "Engineering", "state": "open", "label": "bug"},
        ),
        ("push all deals stuck in Negotiation back to Proposal", {"stage": "Negotiation"}),
    ],
)
async def test_why_said_after_a_bulk_change_is_no_filter_to_ask_about(
    anna: Conversation, text: str, filters: dict[str, str]
) -> None:
    r = await anna.say(text)
    (bulk,) = intents(r)
    assert bulk["op"] == "update_matching" and bulk["filters"] == filters


async def test_which_ones_after_a_bulk_change_still_narrow_it(anna: Conversation) -> None:
    r = await anna.say("close all CS issues, the ones assigned to oleg")
    assert intents(r)[0]["filters"]["assignee"] == "Oleg Ivanov"


async def test_a_system_told_to_do_something_is_no_colleague_to_remind(anna: Conversation) -> None:
    r = await anna.say("Boss: 'tell Linear to stop emailing me every time someone comments'")
    assert drafted(r) == []


async def test_the_same_said_inside_a_notes_words_is_those_words(anna: Conversation) -> None:
    r = await anna.say("закрой CS-14 и заметку в Globex: созвон в то же время")
    assert intents(r)[1]["body"] == "созвон в то же время"
