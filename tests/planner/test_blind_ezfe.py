"""What the sets EZ–FE taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, writes

pytestmark = pytest.mark.anyio


async def pick(anna: Conversation, reply: dict[str, Any], value: str) -> dict[str, Any]:
    return await anna.call(
        "pick", plan_id=reply["plan"]["plan_id"], question_id=reply["question_id"], value=value
    )


def args_of(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a["args"] for a in reply["plan"]["actions"] if not a["read_only"]]


# ---- two values and no choice: asked, never the last one said ----------------------------------------------


async def test_two_stages_for_one_deal_are_asked_as_a_choice_and_the_pick_drafts_it(
    anna: Conversation,
) -> None:
    r = await anna.say("Переведи Globex pilot то ли в Won, то ли в Lost, не помню что сказал клиент")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert [c["label"] for c in r["choices"]] == ["Выиграна", "Проиграна"]
    done = await pick(anna, r, "Проиграна")
    assert drafted(done) == ["attio:update_deal"] and args_of(done)[0]["values"] == {"stage": "Lost"}


@pytest.mark.parametrize(
    "said",
    [
        "Переведи ENG-102 то ли в In Review, то ли в Done, не помню",
        "Move ENG-102 to either Done or Canceled, not sure which",
    ],
)
async def test_two_options_said_without_a_choice_draft_nothing(anna: Conversation, said: str) -> None:
    r = await anna.say(said)
    assert r["status"] == "needs_clarification" and drafted(r) == []


# ---- a change said with the others is not dropped ---------------------------------------------------------


async def test_unassign_it_with_a_state_move_keeps_both(anna: Conversation) -> None:
    r = await anna.say("Move ENG-104 back to backlog and unassign it")
    fields = writes(r)[0]
    assert fields["assignee"] == "none" and fields["state"].lower() == "backlog"


async def test_a_state_said_alone_among_an_issues_changes_is_kept(anna: Conversation) -> None:
    r = await anna.say("ENG-103 — Олегу, в работу")
    assert writes(r) == [
        {"op": "update_issue", "issue": "ENG-103", "assignee": "Oleg Ivanov", "state": "In Progress"}
    ]


async def test_a_new_issue_state_said_as_its_last_field_is_its_state(anna: Conversation) -> None:
    r = await anna.say("Заведи в Linear: настроить алерты на 5xx в Grafana, Максу, в бэклог")
    assert writes(r)[0]["state"] == "Backlog" and writes(r)[0]["title"] == "настроить алерты на 5xx в Grafana"


async def test_put_it_in_todo_after_a_new_issue_is_its_state(anna: Conversation) -> None:
    r = await anna.say("Create an issue: migrate CI runners to ARM. Put it in Todo, assign to me")
    assert drafted(r) == ["linear:create_issue"]
    assert writes(r)[0]["state"] == "Todo" and writes(r)[0]["assignee"] == "Anna Kuznetsova"


async def test_quoted_labels_on_an_issue_described_update_it_never_create_one(anna: Conversation) -> None:
    r = await anna.say("Add 'security' and 'customer-request' labels to the SSO issue")
    assert drafted(r) == ["linear:update_issue"]
    assert writes(r)[0]["issue"] == "CS-13"


async def test_a_quoted_note_with_a_comma_is_whole_and_the_next_sentence_is_its_own_request(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Long day. Initech: add note 'happy with renewal, asking about SSO add-on'. Globex pilot amount to 33k. "
        "And remind me Monday to call Jane"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task", "attio:update_deal"]
    note = next(w for w in writes(r) if w["op"] == "create_note")
    assert note["body"] == "happy with renewal, asking about SSO add-on"


async def test_a_voice_note_label_is_no_note(anna: Conversation) -> None:
    r = await anna.say(
        "voice note: Initech wants to expand. Create a deal Initech expansion for Initech, 22.5k USD, in Lead, "
        "and open a CS issue to schedule a usage review with them"
    )
    assert sorted(drafted(r)) == ["attio:create_deal", "linear:create_issue"]
    issue = next(w for w in writes(r) if w["op"] == "create_issue")
    assert "description" not in issue  # the request before it is no context of the issue


async def test_a_meeting_then_and_before_that_a_task_are_two_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Завтра в одиннадцать созвон с Ромашкой на полчаса, и до этого заведи задачу подготовить демо SSO в CS"
    )
    assert sorted(drafted(r)) == ["googlecalendar:create_event", "linear:create_issue"]


async def test_a_note_then_a_new_sentence_with_then_is_the_next_request(anna: Conversation) -> None:
    r = await anna.say(
        "Так, записывай. По Globex: добавь заметку к сделке Globex pilot — хотят продлить пилот на месяц. "
        "Потом... эээ... в Linear, в команде CS, задача — подготовить допсоглашение, срок в пятницу, на меня. Всё."
    )
    assert drafted(r) == ["attio:create_note", "linear:create_issue"]
    issue = writes(r)[1]
    assert issue["title"] == "подготовить допсоглашение" and issue["team"] == "Customer Success"


# ---- said another way ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "op"),
    [
        ("Дай ENG-104 Олегу и поставь средний приоритет", "update_issue"),
        ("Поставь Максу задачу созвониться с Иваном Сидоровым по продлению до пятницы", "create_task"),
        ("Дай Олегу задачу в CRM — созвониться с Ли Вэем до конца недели", "create_task"),
        ("Запиши сделку: Ромашка — техподдержка, 300 тыс. руб., лид, ответственный Макс", "create_deal"),
        ("Найди задачу про экспорт в PDF и повесь её на Олега", "update_issue"),
        ("Поставь приоритет низкий для CS-14 и убери с меня, назначь на Олега", "update_issue"),
        ("Lower the priority of the PDF crash to medium", "update_issue"),
        ("Tag the leaked key issue as bug too", "update_issue"),
        ("close the Globex pilot as won", "update_deal"),
        ("Альфа-Лизинг подписали — закрой сделку как выигранную", "update_deal"),
        ("Смени название сделки Globex pilot на «Globex — пилот 2027»", "update_deal"),
        ("По Initech renewal сумма выросла до 21 000, обнови сделку", "update_deal"),
        ("Create a company record for Pied Piper — domain piedpiper.com", "create_company"),
        ("ENG one-oh-three: bump the priority to high... no wait, leave the priority alone, just assign it to Oleg",
         "update_issue"),
    ],
)  # fmt: skip
async def test_a_request_said_another_way_drafts_its_one_change(
    anna: Conversation, said: str, op: str
) -> None:
    r = await anna.say(said)
    assert r["status"] == "draft_pending" and [w["op"] for w in writes(r)] == [op]


async def test_the_person_given_a_task_is_its_assignee_not_its_words(anna: Conversation) -> None:
    r = await anna.say("Поставь Максу задачу созвониться с Иваном Сидоровым по продлению до пятницы")
    task = writes(r)[0]
    assert task["assignee"] == "Max Weber" and task["content"].startswith("созвониться")


async def test_a_task_given_with_nothing_to_do_asks_its_words(anna: Conversation) -> None:
    r = await anna.say("Поставь Олегу задачу")
    assert r["status"] == "needs_clarification" and "Как назвать задачу" in r["clarifying_question"]


async def test_a_taken_back_change_leaves_only_what_stands(anna: Conversation) -> None:
    r = await anna.say("ENG-103: bump the priority to high... scratch that, just assign it to Oleg")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-103", "assignee": "Oleg Ivanov"}]


async def test_a_sub_issue_said_after_a_new_issue_is_its_parent(anna: Conversation) -> None:
    r = await anna.say(
        "Open an issue in CS to prepare the Romashka SSO runbook and make it a sub-issue of CS-13"
    )
    assert writes(r)[0]["parent"] == "CS-13"
    r = await anna.say("Создай задачу в ENG: написать тесты на экспорт в PDF, родительская — ENG-103")
    assert writes(r)[0]["parent"] == "ENG-103"


async def test_a_project_linked_in_words_is_the_new_issues_project(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи в Linear задачу для CS: подготовить QBR для Globex, срок 1 декабря, и свяжи с проектом Q1 Launch"
    )
    issue = writes(r)[0]
    assert issue["project"] == "Q1 Launch" and issue["title"] == "подготовить QBR для Globex"


async def test_a_new_deal_with_an_unknown_company_and_its_domain_makes_both(anna: Conversation) -> None:
    r = await anna.say("New lead: Stark Industries (stark.com), 120k USD deal, owner Max")
    assert drafted(r) == ["attio:create_company", "attio:create_deal"]
    assert args_of(r)[0]["domains"] == ["stark.com"]


async def test_a_note_to_a_deals_contact_goes_to_that_person(anna: Conversation) -> None:
    r = await anna.say("Add a note to the Globex pilot's contact: asked for a security questionnaire")
    assert drafted(r) == ["attio:create_note"] and args_of(r)[0]["parent_object"] == "people"


async def test_a_topic_then_a_note_to_someone_is_on_that_person(anna: Conversation) -> None:
    r = await anna.say("По Initech: заметку к Ивану Сидорову — хотят расширение на 50 мест.")
    note = writes(r)[0]
    assert (
        note["body"].startswith("хотят расширение на 50 мест") and args_of(r)[0]["parent_object"] == "people"
    )


async def test_a_meeting_guest_list_after_a_comma_is_no_date_word(anna: Conversation) -> None:
    r = await anna.say("Create a meeting: kickoff with Romashka, Dec 2 at 12:00, 60 min")
    assert drafted(r) == ["googlecalendar:create_event"]


async def test_a_count_asked_of_a_list_says_the_count(anna: Conversation) -> None:
    r = await anna.say("Сколько у нас проектов в Linear?")
    assert r["status"] == "answered" and r["user_message"].startswith("Найдено: 4")


async def test_a_command_may_come_with_the_persons_words(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        text="Созвон с Globex завтра в 10 на 30 минут",
        command={
            "intent": "timeblock_create",
            "confidence": 0.92,
            "entities": {
                "title": "Созвон с Globex",
                "start_at": "2026-11-26T10:00:00+03:00",
                "duration_minutes": 30,
            },
        },
    )
    assert r["status"] == "draft_pending" and drafted(r) == ["googlecalendar:create_event"]


# ---- the second round (FF–FK) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "ops"),
    [
        ("Сделку Acme Logistics пилот закрывам как проиграную, ушли к конкурентам, и заметку оставь, что причина — цена.",
         ["update_deal", "create_note"]),
        ("альфа-лизинг подписали 🎉 сделку в won, заметку: подписали на 3 года, и шаблон онбординга",
         ["update_deal", "create_note", "apply_template"]),
        ("ENG-101: due date the 1st of December, and leave a comment 'needs backend fix first'",
         ["update_issue", "comment_issue"]),
        ("Oleg says the Initech renewal quote is ready — create the renewal tasks in Linear and add a note on Initech "
         "that the quote went out today", ["apply_template", "create_note"]),
        ("Короче, по Initech: добавь заметку к компании — хотят ещё 20 лицензий, и заведи на это сделку на 9000 долларов",
         ["create_note", "create_deal"]),
        ("перенеси ENG-104 на понедельник и подними до срочного", ["update_issue"]),
        ("перекинь сделку альфа-лизинг на меня", ["update_deal"]),
        # (two intents, one action: the label and the project are one update of CS-14)
        ("Добавь к CS-14 метку onboarding и привяжи к проекту Customer Onboarding", ["update_issue", "update_issue"]),
        ("ENG-103: исполнитель макс, проект Mobile App, срок 4 декабря", ["update_issue"]),
        ("prio urgent on ENG-102 and ENG-104 pls, both block the release", ["update_issue", "update_issue"]),
        ("Create an issue in Engineering to migrate CI to GitHub Actions, assign it to Oleg, priority medium",
         ["create_issue"]),
        ("Разбей ENG-103 на подзадачи: воспроизвести баг, найти причину, написать тест",
         ["create_issue", "create_issue", "create_issue"]),
    ],
)  # fmt: skip
async def test_each_request_of_a_message_is_drafted(anna: Conversation, said: str, ops: list[str]) -> None:
    r = await anna.say(said)
    assert r["status"] == "draft_pending" and [w["op"] for w in writes(r)] == ops


async def test_make_an_existing_deal_bigger_is_never_a_new_deal(anna: Conversation) -> None:
    r = await anna.say("Make the Globex pilot deal bigger")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_new_deals_name_is_as_said_not_its_companys_full_name(anna: Conversation) -> None:
    r = await anna.say("Umbrella Health wants a pilot — create a deal Umbrella pilot, 20k USD, in Lead")
    assert writes(r)[0]["name"] == "Umbrella pilot"


async def test_a_task_put_on_someone_in_a_new_issues_fields_is_its_assignee(anna: Conversation) -> None:
    r = await anna.say(
        "uh so yeah create an issue for the iOS widget crash, put it on Max, high priority, uh, due Thursday"
    )
    assert writes(r)[0]["assignee"] == "Max Weber" and writes(r)[0]["priority"] == "high"


async def test_every_labelled_issue_put_on_a_day_is_due_that_day(anna: Conversation) -> None:
    r = await anna.say("Все задачи с меткой customer-request поставь на понедельник")
    assert r["status"] == "draft_pending" and all(
        w["op"] == "update_matching" or "due" in w for w in writes(r)
    )


async def test_a_note_to_the_company_goes_to_the_company_of_the_record_in_play(anna: Conversation) -> None:
    r = await anna.say(
        "Короче, по Инитеку: продление они подписали, оно у нас и так в выигранных, так вот — запусти шаблон "
        "продления в Linear, и к компании заметку добавь, что подписали на три года."
    )
    note = next(a["args"] for a in r["plan"]["actions"] if a["operation"] == "create_note")
    assert note["parent_object"] == "companies" and note["content"].startswith("подписали на три года")


# ---- the third round (FL–FQ): never a wrong change ---------------------------------------------------------


async def test_a_delete_taken_back_for_another_change_drafts_only_that(anna: Conversation) -> None:
    r = await anna.say(
        "Delete the Globex pilot deal, they churned. Actually no — don't delete it, just mark it Lost."
    )
    assert drafted(r) == ["attio:update_deal"] and "destructive" not in {
        k["kind"] for k in r["plan"]["risks"]
    }


async def test_one_issue_not_another_is_the_one_changed(anna: Conversation) -> None:
    r = await anna.say("Oops, wrong one earlier — archive CS-15, not CS-14")
    assert writes(r) == [{"op": "archive_issue", "issue": "CS-15"}]


async def test_a_team_nobody_has_is_asked_about_not_read_as_every_team(anna: Conversation) -> None:
    r = await anna.say("Передай все задачи команды QA Олегу")
    assert r["status"] == "needs_clarification" and drafted(r) == [] and "QA" in r["clarifying_question"]


async def test_whose_issues_without_to_whom_hands_nothing_over(anna: Conversation) -> None:
    r = await anna.say("Reassign Oleg's issues")
    assert r["status"] == "needs_clarification" and drafted(r) == [] and "To whom" in r["clarifying_question"]


async def test_a_question_before_a_new_task_is_no_title_of_it(anna: Conversation) -> None:
    r = await anna.say("Посчитай задачи Олега. И создай задачу.")
    assert r["status"] == "needs_clarification" and "Как назвать задачу" in r["clarifying_question"]


@pytest.mark.parametrize(
    ("said", "person"),
    [
        (
            "Please add a note to the CFO at Alfa-Leasing: she approved the Q1 budget for the expansion.",
            "Maria Sokolova",
        ),
        ("Добавь заметку к CTO Ромашки: просит доступ к песочнице до конца месяца", "Ivan Petrov"),
        ("Remind me on Monday to send the pilot report to Globex's procurement lead.", "Jane Doe"),
    ],
)
async def test_someone_named_by_role_at_a_company_is_that_person(
    anna: Conversation, said: str, person: str
) -> None:
    r = await anna.say(said)
    assert r["status"] == "draft_pending"
    assert (
        any(
            e["kind"] == "person" and e["candidates"] and e["candidates"][0]["name"] == person
            for e in r["plan"]["entities"]
        )
        or person in r["user_message"]
    )


async def test_an_outcome_said_alone_whose_deal_is_not_found_is_named_back(anna: Conversation) -> None:
    r = await anna.say(
        "Acme Corp license: they signed. Won, onboarding template, and a 1h kickoff with John Smith on Dec 2 at 4pm"
    )
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_relayed_wish_then_a_dash_then_requests_drafts_each(anna: Conversation) -> None:
    r = await anna.say(
        "Короче, Initech хочет продление — заведи задачи продления в Linear и поставь встречу с Иваном Сидоровым "
        "во вторник в 15:00 на час"
    )
    assert sorted(drafted(r)) == ["googlecalendar:create_event", "linear:create_issue", "linear:create_issue"]
