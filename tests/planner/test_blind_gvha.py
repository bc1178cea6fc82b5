"""What the sets GV–HA taught, one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25
12:00 MSK; the Globex pilot is worth 30 000 USD, Alfa-Leasing's expansion 800 000 RUB, ENG-103 is "Crash on export
to PDF")."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, run, writes

pytestmark = pytest.mark.anyio


def args_of(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a["args"] for a in reply["plan"]["actions"] if not a["read_only"]]


def issue_input(reply: dict[str, Any], n: int = 0) -> dict[str, Any]:
    created = [a for a in reply["plan"]["actions"] if a["operation"] == "create_issue"]
    return created[n]["args"]["variables"]["input"]


def amount(reply: dict[str, Any]) -> float:
    (one,) = [a for a in args_of(reply) if "values" in a and "value" in a["values"]]
    return float(one["values"]["value"]["currency_value"])


# ---- a question whether a record exists, then what to do with the answer ---------------------------------------


async def test_an_issue_asked_about_that_exists_is_not_made_again(anna: Conversation) -> None:
    r = await anna.say("Есть задача про экспорт в PDF? Если нет — заведи баг")
    assert r["status"] == "answered" and drafted(r) == []
    assert "ENG-103" in r["user_message"]


async def test_a_company_asked_about_that_is_missing_is_made_with_the_name_the_question_said(
    anna: Conversation,
) -> None:
    r = await anna.say("Do we have Pied Piper in the CRM? If not, create the company, domain piedpiper.com")
    assert drafted(r) == ["attio:create_company"]
    assert args_of(r)[0]["name"] == "Pied Piper" and args_of(r)[0]["domains"] == ["piedpiper.com"]
    await run(anna, r)


async def test_a_company_asked_about_that_exists_is_not_made_again(anna: Conversation) -> None:
    r = await anna.say("Есть у нас в CRM компания Альфа-Лизинг? Если нет — создай, домен alfaleasing.ru")
    assert r["status"] == "answered" and drafted(r) == [] and "Альфа-Лизинг" in r["user_message"]


async def test_if_so_acts_on_the_issue_the_question_found(anna: Conversation) -> None:
    r = await anna.say(
        "Do we have an issue for the Initech quarterly check-in? If so, assign it to Max and make it medium priority."
    )
    assert drafted(r) == ["linear:update_issue"]
    assert args_of(r)[0]["priority"] == 3 and args_of(r)[0]["assigneeId"]


async def test_if_so_with_nothing_found_changes_nothing(anna: Conversation) -> None:
    r = await anna.say("Is there an issue about dark mode? If so, close it")
    assert r["status"] == "answered" and drafted(r) == []


# ---- a sum added to or taken from a deal -------------------------------------------------------------------------


async def test_a_sum_added_to_a_deal_is_added_to_what_it_is_worth(anna: Conversation) -> None:
    r = await anna.say("add 2k to the globex pilot")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 32000


async def test_a_deal_raised_by_a_sum_without_the_word_amount(anna: Conversation) -> None:
    r = await anna.say("raise Globex pilot by 5000")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 35000


async def test_a_question_about_a_deal_then_a_sum_added_to_it(anna: Conversation) -> None:
    r = await anna.say("What's the Globex pilot worth? Add 2,000 to it")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 32000
    r = await anna.say("Сколько стоит сделка Globex pilot? Прибавь к ней 5000")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 35000


async def test_an_add_on_deal_is_made_not_raised(anna: Conversation) -> None:
    r = await anna.say("Заведи сделку «Initech add-on» для Initech на 9 000 USD в квалификации")
    assert drafted(r) == ["attio:create_deal"]


async def test_a_deal_that_grew_is_changed_never_made_anew(anna: Conversation) -> None:
    r = await anna.say("Сделка с Альфа-Лизингом выросла, ставь 950 тысяч рублей")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 950000


# ---- self-corrections -----------------------------------------------------------------------------------------------


async def test_a_time_said_again_changes_the_time_only(anna: Conversation) -> None:
    r = await anna.say("Put the Umbrella meeting on Thursday at 2pm, one hour. Actually make it 2:30.")
    (event,) = args_of(r)
    assert event["start_datetime"].startswith("2026-11-26T14:30") and event["event_duration_hour"] == 1


async def test_a_time_said_again_keeps_how_long(anna: Conversation) -> None:
    r = await anna.say("Поставь созвон с Марией в понедельник в 12 на полчаса, нет, лучше в 13")
    (event,) = args_of(r)
    assert event["start_datetime"].startswith("2026-11-30T13:00") and event["event_duration_minutes"] == 30


async def test_a_duration_said_again_keeps_the_day_and_the_title(anna: Conversation) -> None:
    r = await anna.say(
        "block 2 hours for the boss on Friday at 1pm — actually make it 90 minutes — title: investor prep"
    )
    (event,) = args_of(r)
    assert event["start_datetime"].startswith("2026-11-27T13:00")
    assert (event["event_duration_hour"], event["event_duration_minutes"]) == (1, 30)
    assert "investor prep" in event["summary"]


async def test_an_amount_taken_back_after_a_pause(anna: Conversation) -> None:
    r = await anna.say("Set Acme Corp license amount to 55k... ugh, no, 60k")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 60000


async def test_a_team_taken_back_is_the_team_said_last(anna: Conversation) -> None:
    r = await anna.say(
        "Создай задачу в Linear «обновить онбординг-гайд», команда CS... хотя нет, пусть будет дизайн"
    )
    assert drafted(r) == ["linear:create_issue"]
    assert "DES" in r["plan"]["actions"][-1]["preview"]


async def test_a_priority_made_that_urgent(anna: Conversation) -> None:
    r = await anna.say("Create an ENG issue 'Rate limit the public API', priority high — make that urgent")
    assert issue_input(r)["priority"] == 1


# ---- pasted action items and dictated lists ----------------------------------------------------------------------


async def test_action_items_signed_off_are_each_done(anna: Conversation) -> None:
    r = await anna.say(
        "Action items from today's Initech QBR:\n- Max: add a note on Initech — they want SSO in Q1, budget approved\n"
        '- Oleg: Linear issue in ENG "SAML SSO for Initech tenant", due Dec 11\nthat\'s all, thx'
    )
    assert sorted(drafted(r)) == ["attio:create_note", "linear:create_issue"]
    created = issue_input(r)
    assert created["title"] == "SAML SSO for Initech tenant" and created["dueDate"] == "2026-12-11"
    assert created.get("assigneeId")  # Oleg's


async def test_a_new_issue_in_a_list_is_never_the_issue_before_it(anna: Conversation) -> None:
    r = await anna.say(
        "Action items (eng sync, Nov 25)\n1. Max — DES-7 back to In Progress (review feedback)\n"
        '2. Anna — new ENG issue "Rate limit the public search API", label security, high\n3. Oleg — close ENG-101'
    )
    assert sorted(drafted(r)) == ["linear:complete_issue", "linear:create_issue", "linear:update_issue"]
    des7 = next(a for a in args_of(r) if "issueId" in a and "stateId" in a and "priority" not in a)
    assert "labelIds" not in des7  # the new issue's label and priority stay on the new issue


async def test_a_line_with_its_system_in_brackets_keeps_it(anna: Conversation) -> None:
    r = await anna.say(
        "Итоги планёрки:\n1. Олег — ENG-101 (таймаут логина), срок пятница\n2. Макс — ENG-105 перевести в In Review\n"
        "3. Анна — написать Ивану Петрову про SSO (задача в CRM, до понедельника)"
    )
    assert sorted(drafted(r)) == ["attio:create_task", "linear:update_issue", "linear:update_issue"]
    task = next(a for a in args_of(r) if "content" in a)
    assert "(" not in task["content"] and task["deadline_at"].startswith("2026-11-30")


async def test_dictated_items_are_read_apart_the_second_one_more_of_the_same(anna: Conversation) -> None:
    r = await anna.say(
        "так записывай первое олегу задачу в линейре проверить логи платежей до пятницы второе максу в дизайн "
        "нарисовать пустые состояния для мобилки без срока"
    )
    assert drafted(r) == ["linear:create_issue", "linear:create_issue"]
    assert issue_input(r, 1)["title"].startswith("нарисовать пустые состояния")


async def test_a_new_issues_project_said_next(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи баг в ENG: в мобильном приложении не грузится аватар, на Макса... нет, на Олега, и добавь в проект Mobile App"
    )
    assert drafted(r) == ["linear:create_issue"] and issue_input(r).get("projectId")


# ---- questions, declines, records --------------------------------------------------------------------------------


async def test_a_request_asked_with_its_other_answer_is_a_question(anna: Conversation) -> None:
    r = await anna.say("move the iOS thing to done? or is it still broken")
    assert drafted(r) == []
    r = await anna.say("Wait, did we already move Globex to Won? I thought we did")
    assert drafted(r) == []


async def test_an_errand_elsewhere_is_declined_with_what_i_do(anna: Conversation) -> None:
    for said in (
        "Выставь Ромашке счёт в 1С на 1,2 млн",
        "Could you order pizza for the whole team on Friday?",
    ):
        r = await anna.say(said)
        assert r["status"] == "needs_clarification" and drafted(r) == [] and r["plan"]["actions"] == []
        assert "Attio" in r["clarifying_question"]
    r = await anna.say("Закрой ENG-101 и закажи пиццу на всю команду")  # the issue is a request of its own
    assert drafted(r) == ["linear:complete_issue"]


async def test_a_note_on_a_deal_a_company_does_not_have_is_asked(anna: Conversation) -> None:
    r = await anna.say("Добавь заметку к сделке с Umbrella Health: ждут демо на следующей неделе")
    assert r["status"] == "needs_clarification" and "Umbrella Health" in r["clarifying_question"]
    (choice,) = r["choices"]
    r = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value=choice["value"]
    )
    assert drafted(r) == ["attio:create_note"] and args_of(r)[0]["parent_object"] == "companies"


async def test_the_company_not_the_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Can you put a note on Acme Logistics (the company, not the deal): Li Wei is leaving at the end of December."
    )
    assert drafted(r) == ["attio:create_note"] and args_of(r)[0]["parent_object"] == "companies"


async def test_a_russian_womans_name_is_kept_as_said(anna: Conversation) -> None:
    r = await anna.say("Создай в CRM контакт Анастасия Белова из Ромашки, anastasia.belova@romashka.ru")
    (person,) = args_of(r)
    assert person["values"]["name"][0]["full_name"] == "Анастасия Белова"


async def test_bulk_assignment_except_the_ones_already_theirs(anna: Conversation) -> None:
    r = await anna.say("Все открытые баги — на Олега, кроме тех, что уже у него")
    assert drafted(r) == ["linear:update_issue"]
    assert not [i for i in writes(r) if i["op"] == "create_issue"]


async def test_a_due_date_heading_then_also_a_comment(anna: Conversation) -> None:
    r = await anna.say(
        "Due date for CS-13: December 5. Also leave a comment there: waiting on IdP metadata from the client"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]
    assert any(a.get("dueDate") == "2026-12-05" for a in args_of(r))


async def test_a_label_put_on_is_never_taken_off_in_the_same_change(anna: Conversation) -> None:
    r = await anna.say("Сними метку bug с ENG-101, это скорее фича — повесь feature")
    preview = r["plan"]["actions"][-1]["preview"]
    assert "+feature" in preview and "−feature" not in preview and "−bug" in preview


async def test_a_deals_dashed_name_keeps_a_short_words_dot(anna: Conversation) -> None:
    r = await anna.say("Заведи сделку Инитек — доп. модули, 9 500 долларов, стадия квалификация")
    assert args_of(r)[0]["values"]["name"] == "Инитек — доп. модули"
    r = await anna.say(
        "add company Wayne Enterprises, wayne.com, and a deal for them: Wayne pilot, 45k, Lead"
    )
    assert [a["values"]["name"] for a in args_of(r) if "values" in a] == ["Wayne pilot"]


# ---- asked first, then changed by an amount ------------------------------------------------------------------------


async def test_a_sum_knocked_off_the_deal_just_asked_about(anna: Conversation) -> None:
    r = await anna.say("How much is the Alfa-Leasing deal? Knock 50k off, they negotiated hard.")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 750000
    r = await anna.say("Слушай, а сколько у нас сейчас стоит Globex pilot? Накинь сверху 5 тысяч.")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 35000


async def test_a_share_added_to_what_a_deal_is_worth(anna: Conversation) -> None:
    r = await anna.say("How much is Romashka worth right now? Add 10% to it.")
    assert drafted(r) == ["attio:update_deal"] and amount(r) == 1320000
    r = await anna.say("cut the Globex pilot by 10%")
    assert amount(r) == 27000


async def test_a_due_date_moved_by_an_amount_of_time(anna: Conversation) -> None:
    # ENG-106 is due Fri 2026-11-27
    for said, day in (
        ("Сдвинь срок ENG-106 на неделю вперёд", "2026-12-04"),
        ("push ENG-106 a week", "2026-12-04"),
        ("Перенеси дедлайн по ENG-106 на два дня позже", "2026-11-29"),
        ("Какой срок у ENG-106? Сдвинь на неделю вперёд.", "2026-12-04"),
        ("move ENG-106 to In Progress, and shift the due date by 3 days", "2026-11-30"),
    ):
        r = await anna.say(said)
        assert [a.get("dueDate") for a in args_of(r)] == [day], said


async def test_a_day_of_next_week_is_a_day_not_a_shift(anna: Conversation) -> None:
    r = await anna.say("Срок по ENG-104 сдвинь на вторник следующей недели")
    assert [a.get("dueDate") for a in args_of(r)] == ["2026-12-01"]
    r = await anna.say("Comment on CS-12: John asked to push the call by a week")
    assert drafted(r) == ["linear:comment_issue"] and "push the call by a week" in args_of(r)[0]["body"]


async def test_a_deal_pushed_one_stage_forward_goes_to_the_next_stage_but_never_to_won(
    anna: Conversation,
) -> None:
    r = await anna.say("What stage is Acme Logistics pilot at? Push it one stage forward.")  # it is in Lead
    assert drafted(r) == ["attio:update_deal"] and args_of(r)[0]["values"]["stage"] == "Qualification"
    r = await anna.say("move the Alfa-Leasing deal to the next stage")  # in Negotiation: won or not is asked
    assert r["status"] == "needs_clarification" and drafted(r) == []
