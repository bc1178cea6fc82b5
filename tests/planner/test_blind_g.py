"""What blind set G taught (a B2B team's fortnight: a hurried CS manager, a PM's long messages, a
founder's voice notes, a terse engineer, a rep switching languages), one behaviour each, through the
MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK). Every value the person gave lands in the
draft, and what cannot be read for sure is asked, not guessed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import WORKSPACE, Conversation, drafted

pytestmark = pytest.mark.anyio

PERSON = {p["name"]: p["id"] for p in WORKSPACE["attio"]["people"]}
DEAL = {d["key"]: d["id"] for d in WORKSPACE["attio"]["deals"]}
USER = {u["name"]: u["id"] for u in WORKSPACE["linear"]["users"]}
MEMBER = {m["name"]: m["id"] for m in WORKSPACE["attio"]["workspace_members"]}


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in reply["plan"]["actions"] if not a["read_only"]]


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def issue_input(action: dict[str, Any]) -> dict[str, Any]:
    return action["args"]["variables"]["input"]  # type: ignore[no-any-return]


async def test_a_new_deal_is_named_by_the_words_said_after_its_company(anna: Conversation) -> None:
    for text, name in [
        ("create deal Initech SSO add-on 8000 USD stage Proposal", "Initech SSO add-on"),
        (
            "New deal: Umbrella Health telehealth pilot, 15k USD, Lead, owner Max",
            "Umbrella Health telehealth pilot",
        ),
        ("новая сделка ромашка допмодули 300000 руб лид", "Ромашка допмодули"),
        (
            "заведи новую сделку Initech, эээ, расширение на второй офис, сумма двадцать пять тысяч долларов",
            "Initech — расширение на второй офис",
        ),
    ]:
        r = await anna.say(text)
        assert r["status"] == "draft_pending", text
        assert writes(r)[0]["args"]["values"]["name"] == name, text
    r = await anna.say("Заведи сделку с Ромашкой на 1,2 млн рублей")  # nothing said besides the sum
    assert writes(r)[0]["args"]["values"]["name"] == "Ромашка — новая сделка"


async def test_a_task_put_to_a_colleague_is_theirs_and_their_name_is_no_part_of_its_title(
    anna: Conversation,
) -> None:
    r = await anna.say("Поставь Олегу задачу в Linear починить логин")
    new = issue_input(writes(r)[0])
    assert (new["title"], new["assigneeId"]) == ("починить логин", USER["Oleg Ivanov"])
    r = await anna.say("сделай задачу олегу в linear проверить логи sso у ромашки завтра")
    new = issue_input(writes(r)[0])
    assert (new["title"], new["assigneeId"]) == ("проверить логи sso у ромашки", USER["Oleg Ivanov"])
    r = await anna.say("задача олегу позвонить джейн до понедельника")
    assert intents(r) == [
        {
            "op": "create_task",
            "content": "позвонить джейн",
            "deadline": "2026-11-30T09:00:00+03:00",
            "assignee": "Oleg Ivanov",
            "record": "Jane Doe",
        }
    ]


async def test_a_courtesy_between_commas_does_not_cut_the_request_in_two(anna: Conversation) -> None:
    r = await anna.say("Поставь мне, пожалуйста, задачу в Linear починить логин")
    assert r["status"] == "draft_pending"
    assert issue_input(writes(r)[0])["assigneeId"] == USER["Anna Kuznetsova"]


async def test_a_task_introduced_then_said_with_an_infinitive_is_one_task(anna: Conversation) -> None:
    r = await anna.say("поставь Максу задачу в линейке, сделать демо для Альфы")
    assert [issue_input(a)["title"] for a in writes(r)] == ["демо для Альфы"]
    assert issue_input(writes(r)[0])["assigneeId"] == USER["Max Weber"]


async def test_spoken_and_corrected_amounts_are_the_new_value(anna: Conversation) -> None:
    r = await anna.say("сделку с Ромашкой, короче, эээ, сумму поставь миллион четыреста тысяч рублей")
    assert writes(r)[0]["args"]["values"]["value"] == {"currency_value": 1400000, "currency_code": "RUB"}
    r = await anna.say("Globex pilot: amount было 30к, ставь 27 500, дали скидку")
    assert writes(r)[0]["args"]["values"]["value"]["currency_value"] == 27500
    r = await anna.say("change the Globex pilot amount from 30k to 25k")
    assert writes(r)[0]["args"]["values"]["value"]["currency_value"] == 25000


async def test_details_after_a_new_issues_title_are_its_fields_not_its_title(anna: Conversation) -> None:
    r = await anna.say("create issue: upgrade postgres to 17, assign oleg, due 12/15")
    new = issue_input(writes(r)[0])
    assert (new["title"], new["assigneeId"], new["dueDate"]) == (
        "upgrade postgres to 17",
        USER["Oleg Ivanov"],
        "2026-12-15",
    )
    r = await anna.say("open an ENG issue to add multi-currency invoices, due Dec 15.")
    assert issue_input(writes(r)[0])["title"] == "add multi-currency invoices"


async def test_a_meeting_invites_everyone_named_and_its_topic_names_it(anna: Conversation) -> None:
    r = await anna.say("созвон с Олегом и Марией Соколовой через неделю в 12, полчаса")
    assert intents(r)[0]["attendees"] == ["Oleg Ivanov", "Maria Sokolova"]
    r = await anna.say("созвон Олег + Мария Соколова через неделю в 12, полчаса")
    assert intents(r)[0]["attendees"] == ["Oleg Ivanov", "Maria Sokolova"]
    r = await anna.say(
        "эээ созвон с командой в понедельник в десять утра на час, запятая, тема — планирование квартала"
    )
    event = writes(r)[0]["args"]
    assert (event["summary"], event["start_datetime"]) == (
        "Планирование квартала",
        "2026-11-30T10:00:00+03:00",
    )


async def test_two_requests_joined_by_a_plus_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say("ENG-103 assign me + comment: repro on 2.14, looking")
    assert [i["op"] for i in intents(r)] == ["update_issue", "comment_issue"]
    assert intents(r)[0]["assignee"] == "Anna Kuznetsova"


async def test_a_new_contacts_title_is_kept_and_the_sentence_before_the_ask_names_nobody(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "We met Globex's new security lead at the conference yesterday. "
        "Please add Tom Becker (tom.becker@globex.com) as a contact at Globex, title CISO."
    )
    values = writes(r)[0]["args"]["values"]
    assert (values["name"][0]["full_name"], values["job_title"]) == ("Tom Becker", "CISO")
    assert "CISO" in r["user_message"]  # the person sees it before confirming
    r = await anna.say("добавь контакт Павел Орлов, pavel@initech.io, должность — финдиректор, Initech")
    assert writes(r)[0]["args"]["values"]["job_title"] == "финдиректор"


async def test_a_note_on_a_companys_deal_goes_on_the_deal_and_two_deals_are_asked(anna: Conversation) -> None:
    r = await anna.say("add a note on the Alfa deal that they want a Q1 price lock")
    assert writes(r)[0]["args"]["parent_record_id"] == DEAL["alfa-expansion"]
    r = await anna.say("заметка к сделке с Acme: ждут договор")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert len(r["choices"]) == 2


async def test_a_word_two_companies_start_with_is_a_question(anna: Conversation) -> None:
    r = await anna.say("Kick off the onboarding template for Acme")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert {c["label"].split(" (")[0] for c in r["choices"]} == {
        "Acme Corp — annual license",
        "Acme Logistics — pilot",
    }
    r = await anna.say("note on Acme Corp: call back")  # said in full, it is that company
    assert r["status"] == "draft_pending"


async def test_two_changes_said_without_verbs_each_land(anna: Conversation) -> None:
    r = await anna.say("сделку Globex pilot на Макса, а CS-14 на Олега")
    assert [(i["op"], i.get("owner") or i.get("assignee")) for i in intents(r)] == [
        ("update_deal", "Max Weber"),
        ("update_issue", "Oleg Ivanov"),
    ]


async def test_an_imperfective_request_after_a_stage_change_is_a_request_of_its_own(
    anna: Conversation,
) -> None:
    r = await anna.say("Ромашка подписала, короче, переводи сделку в выигранные и, ну, заводи онбординг")
    ops = [i["op"] for i in intents(r)]
    assert "update_deal" in ops and "apply_template" in ops
    r = await anna.say("слушай а ты можешь сам создавать проекты в линеаре или только задачи")
    assert r["draft"] is None  # a question about what it can do


async def test_a_models_write_for_words_that_only_ask_is_said_back_first(anna: Conversation) -> None:
    said = [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won"}]
    r = await anna.call("plan", text="Globex pilot уже в Won?", intents=said)
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert "Globex pilot" in r["clarifying_question"]
    r = await anna.call("plan", text="Can you move Globex pilot to Won?", intents=said)
    assert r["status"] == "draft_pending"  # a request said politely
    assert json.dumps(writes(r)[0]["args"]).count("Won") == 1


async def test_a_reason_said_after_a_request_changes_nothing_and_is_not_read_as_one(
    anna: Conversation,
) -> None:
    r = await anna.say("Delete Li Wei from the CRM, she left Acme Logistics last month")
    assert [i["op"] for i in intents(r)] == ["delete_record"] and r["status"] == "draft_pending"
    r = await anna.say("nuke ENG-102, dupe of DES-7")  # the issue it repeats stays as it is
    assert [(i["op"], i["issue"]) for i in intents(r)] == [("archive_issue", "ENG-102")]
    r = await anna.say("close ENG-101, duplicate of ENG-103")
    assert [(i["op"], i["issue"]) for i in intents(r)] == [("complete_issue", "ENG-101")]
    r = await anna.say("Отметь CS-12 выполненной, созвон с Acme прошёл")  # no meeting to book
    assert [(i["op"], i["issue"]) for i in intents(r)] == [("complete_issue", "CS-12")]
    r = await anna.say("поставь Acme Logistics pilot в stage Proposal, они запросили коммерческое")
    assert [(i["op"], i["stage"]) for i in intents(r)] == [("update_deal", "Proposal")]
    r = await anna.say("Переведи ENG-102 в Canceled, редизайн логина больше не нужен")
    assert [(i["op"], i["state"]) for i in intents(r)] == [("update_issue", "Canceled")]


async def test_a_name_or_a_question_after_a_comma_is_no_reason(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи компанию «Север Инфо» с доменом sever-info.ru и контакт Павел Орлов, pavel@sever-info.ru"
    )
    assert [i["op"] for i in intents(r)] == ["create_company", "create_person"]
    r = await anna.say("а если я напишу «закрой ENG-104», оно сразу закроется?")
    assert r["draft"] is None
    r = await anna.say("Mark every ENG issue as Done, we're resetting the board for the new cycle")
    assert {a["operation"] for a in writes(r)} == {"complete_issue"}


async def test_an_issue_goes_into_a_project_named_without_the_word(anna: Conversation) -> None:
    r = await anna.say("move ENG-103 into Q1 Launch")
    assert [(i["op"], i.get("project")) for i in intents(r)] == [("update_issue", "Q1 Launch")]
    r = await anna.say("move ENG-103 to In Progress")  # a state is still a state
    assert [(i["op"], i.get("state")) for i in intents(r)] == [("update_issue", "In Progress")]


async def test_unassigning_drafts_a_null_assignee_and_never_archives(anna: Conversation) -> None:
    for text in ("unassign ENG-101", "удали исполнителя у ENG-101"):
        r = await anna.say(text)
        assert drafted(r) == ["linear:update_issue"], text
        (action,) = r["plan"]["actions"]
        assert action["args"]["variables"]["input"] == {"assigneeId": None}, text


async def test_lists_and_counts_of_deals_are_deals_not_the_stage_catalog(anna: Conversation) -> None:
    r = await anna.say("покажи pipeline Макса")
    assert "Initech renewal" in r["user_message"]
    r = await anna.say("How many deals do we have in total, across all stages?")
    assert "6" in r["user_message"] and "Globex pilot" in r["user_message"]
    r = await anna.say("какие стадии в воронке?")  # the stages themselves
    assert "Qualification" in r["user_message"] and "Globex" not in r["user_message"]
    r = await anna.say("open bugs in ENG")
    assert (r["status"], r["draft"]) == ("answered", None)
    assert "ENG-101" in r["user_message"] and "ENG-103" in r["user_message"]


async def test_whose_deals_and_who_takes_them_are_told_apart(anna: Conversation) -> None:
    for text in ("Макс забирает обе сделки Олега, переназначь", "передай все сделки Олега Максу"):
        r = await anna.say(text)
        assert [(i["filters"], i["changes"]) for i in intents(r)] == [
            ({"owner": "Oleg Ivanov"}, {"owner": "Max Weber"})
        ], text
    r = await anna.say("альфу передай максу олег в отпуске")
    assert [(i["op"], i["owner"]) for i in intents(r)] == [("update_deal", "Max Weber")]
    r = await anna.say("все неназначенные задачи в linear повесь на Олега")
    assert [(i["filters"], i["changes"]) for i in intents(r)] == [
        ({"assignee": "none"}, {"assignee": "Oleg Ivanov"})
    ]


async def test_a_task_put_with_what_to_do_is_new_and_an_ambiguous_contact_is_asked(
    anna: Conversation,
) -> None:
    r = await anna.say("поставь задачу позвонить Ивану завтра")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert {c["label"].split(" (")[0] for c in r["choices"]} == {"Ivan Petrov", "Ivan Sidorov"}


async def test_a_request_after_a_semicolon_in_a_note_is_a_request_of_its_own(anna: Conversation) -> None:
    r = await anna.say("заметка к сделке ромашки: ждут счёт; и перекинь сделку на олега")
    assert [(i["op"], i.get("body") or i.get("owner")) for i in intents(r)] == [
        ("create_note", "ждут счёт"),
        ("update_deal", "Oleg Ivanov"),
    ]
    r = await anna.say("заметка к Globex: ждут КП; бюджет согласован")  # a statement stays in the note
    assert [i["body"] for i in intents(r)] == ["ждут КП; бюджет согласован"]


async def test_a_deal_said_with_its_stage_field_moves_and_a_new_project_keeps_its_words(
    anna: Conversation,
) -> None:
    r = await anna.say("так, эээ, запиши, сделка Acme Corp annual license, ну, стадия предложение")
    assert [(i["op"], i["stage"]) for i in intents(r)] == [("update_deal", "Proposal")]
    r = await anna.say("создай проект в linear Онбординг enterprise для команды CS")
    assert [(i["op"], i["name"], i["team"]) for i in intents(r)] == [
        ("create_project", "Онбординг enterprise", "Customer Success")
    ]
