"""What the sets AL and AM taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

import pytest
from conftest import WORKSPACE, Conversation, ops, writes

pytestmark = pytest.mark.anyio


# ---- a clause that asks for nothing, beside one that asks ----------------------------------------------


async def test_a_change_told_not_to_leaves_the_other_request_drafted(anna: Conversation) -> None:
    r = await anna.say("не закрывай ENG-101, а назначь ENG-102 на Олега")
    assert r["status"] == "draft_pending"
    assert [(i["op"], i["issue"], i.get("assignee")) for i in writes(r)] == [
        ("update_issue", "ENG-102", "Oleg Ivanov")
    ]
    assert "ENG-101" in r["user_message"]  # named back as left alone


async def test_what_a_colleague_mentioned_is_no_request_when_the_person_says_what_they_need(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Max mentioned that DES-7 is basically done and just waiting on review, so no action needed there. "
        "What I do need: assign ENG-103 to Oleg and set it to high priority."
    )
    assert [(i["op"], i["issue"]) for i in writes(r)] == [("update_issue", "ENG-103")]
    [change] = writes(r)
    assert (change["assignee"], change["priority"]) == ("Oleg Ivanov", "high")


async def test_hold_off_on_that_puts_off_the_change_said_just_before_only(anna: Conversation) -> None:
    r = await anna.say(
        "Create an ENG issue 'Deprecate v1 API endpoints' for Oleg. And the thing about moving Globex to Won: "
        "hold off on that until legal signs."
    )
    assert r["status"] == "draft_pending"
    assert ops(r) == ["create_issue"]


async def test_nothing_to_do_there_said_of_another_record_does_not_cancel_the_request(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Globex came back and procurement signed off, so please move the Globex pilot to Won. Also log a note on "
        "Globex: 'signed off by procurement, invoice to Jane'. Oleg already fixed the login timeout thing last "
        "week, just FYI, nothing to do there."
    )
    assert sorted(ops(r)) == ["create_note", "update_deal"]
    note = next(i for i in writes(r) if i["op"] == "create_note")
    assert note["body"] == "signed off by procurement, invoice to Jane"  # the quote, not the news after it


async def test_a_request_taken_back_in_the_same_breath_drafts_nothing(anna: Conversation) -> None:
    for text in (
        "создай задачу переписать авторизацию а хотя нет не надо отбой",
        "короче задачу на рефакторинг авторизации я потом сам заведу сейчас не надо",
        "Close ENG-101. Actually no, forget it.",
    ):
        r = await anna.say(text)
        assert (r["status"], writes(r)) == ("answered", []), text


async def test_news_said_in_passing_is_offered_not_drafted(anna: Conversation) -> None:
    r = await anna.say("ромашка вчера кстати подписала договор")
    assert r["status"] == "needs_clarification"
    assert [c["label"] for c in r["choices"]] == ["Да", "Нет"]


# ---- several things in one message ---------------------------------------------------------------------


async def test_numbered_points_are_each_their_own_request(anna: Conversation) -> None:
    r = await anna.say(
        "Итоги планёрки. Первое — ENG-102 переносим в проект Mobile App. Второе — на ENG-105 ставим срок "
        "восемнадцатое декабря. Третье — заведи в DES задачу «Иконки для push-уведомлений» на Макса. "
        "Про Q1 Launch пока молчим, там ничего не трогаем."
    )
    changes = {(i["op"], i.get("issue") or i.get("title")): i for i in writes(r)}
    assert changes[("update_issue", "ENG-102")].get("project") == "Mobile App"
    assert "due" not in changes[("update_issue", "ENG-102")]
    assert changes[("update_issue", "ENG-105")]["due"] == "2026-12-18"
    assert changes[("create_issue", "Иконки для push-уведомлений")]["assignee"] == "Max Weber"


async def test_a_context_label_then_a_numbered_list_is_three_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Context for the week: Q1 launch is slipping and leadership already knows, so no need to escalate. "
        "Concretely: (1) create a Linear project 'Launch Retro' for ENG with target date December 18, "
        "(2) set ENG-105's due date to December 22, (3) comment on ENG-105: 'Slipping due to App Store review'."
    )
    assert ops(r) == ["create_project", "update_issue", "comment_issue"]
    assert writes(r)[2]["body"] == "Slipping due to App Store review"


async def test_every_page_of_a_list_becomes_an_issue_even_one_named_about(anna: Conversation) -> None:
    r = await anna.say(
        "For the website redesign, create DES issues for each page: Home, Pricing, About, Blog, Careers, Contact. "
        "All of them in the Website Redesign project."
    )
    assert [i["title"] for i in writes(r)] == ["Home", "Pricing", "About", "Blog", "Careers", "Contact"]
    assert {i["project"] for i in writes(r)} == {"Website Redesign"}
    assert "bulk" in {k["kind"] for k in r["plan"]["risks"]}


async def test_a_crm_task_said_after_an_issue_borrows_the_verb(anna: Conversation) -> None:
    r = await anna.say(
        "Jane forwarded a security questionnaire, 120 questions, ugh. Create a CS issue 'Globex security "
        "questionnaire' due December 7 for me, and a CRM task for Max on the Globex deal to review the pricing "
        "section by Friday. The pilot stage stays as is."
    )
    issue, task = writes(r)
    assert (issue["op"], issue["title"], issue["due"]) == (
        "create_issue",
        "Globex security questionnaire",
        "2026-12-07",
    )
    assert (task["op"], task["content"], task["assignee"]) == (
        "create_task",
        "review the pricing section",
        "Max Weber",
    )


async def test_them_after_two_issues_means_both(anna: Conversation) -> None:
    r = await anna.say("Сообщаю, что задачи CS-14 и DES-7 выполнены; прошу их закрыть")
    assert sorted((i["op"], i["issue"]) for i in writes(r)) == [
        ("complete_issue", "CS-14"),
        ("complete_issue", "DES-7"),
    ]


async def test_the_same_change_said_twice_is_one_change(anna: Conversation) -> None:
    r = await anna.say("ENG-101 and ENG-106 are done, close them both")
    assert sorted(i["issue"] for i in writes(r)) == ["ENG-101", "ENG-106"]


async def test_one_comment_for_two_issues_named_after_v(anna: Conversation) -> None:
    r = await anna.say(
        "В ENG-101 и ENG-103 оставь одинаковый комментарий: клиенты Ромашки ждут фикс до релиза."
    )
    assert sorted(i["issue"] for i in writes(r)) == ["ENG-101", "ENG-103"]


async def test_a_read_of_two_issues_reads_each(anna: Conversation) -> None:
    for text in ("what's the status of ENG-101 and ENG-102", "Что там с CS-14 и DES-7?"):
        r = await anna.say(text)
        found = [i["filters"]["record"] for i in r["plan"]["intents"] if i["op"] == "find"]
        assert len(found) == 2 and writes(r) == [], text


async def test_an_issue_id_inside_a_quoted_comment_is_no_target(anna: Conversation) -> None:
    r = await anna.say("CS-15 is a dupe of CS-12. Set CS-15 to Canceled and comment 'Duplicate of CS-12'")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [
        ("update_issue", "CS-15"),
        ("comment_issue", "CS-15"),
    ]
    assert writes(r)[1]["body"] == "Duplicate of CS-12"


async def test_split_it_into_sub_issues_after_naming_the_issue(anna: Conversation) -> None:
    r = await anna.say(
        "ENG-105 is too big to track as one item. Please split it into sub-issues: APNs certificate setup, "
        "permission prompt copy, deep link handling."
    )
    assert [(i["title"], i["parent"]) for i in writes(r)] == [
        ("APNs certificate setup", "ENG-105"),
        ("permission prompt copy", "ENG-105"),
        ("deep link handling", "ENG-105"),
    ]


# ---- people and job titles -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Поменяй Марии Соколовой должность в карточке на «генеральный директор»", "генеральный директор"),
        ("Марию Соколову повысили. Поменяй ей должность на генеральный директор", "генеральный директор"),
        ("Мария Соколова теперь генеральный директор", "генеральный директор"),
        (
            "Новости из Альфа-Лизинга: Марию Соколову повысили, она больше не CFO. Поменяй ей должность в "
            "карточке на «генеральный директор», дальше все договорённости идут через неё лично.",
            "генеральный директор",
        ),
    ],
)
async def test_a_new_job_title_is_the_words_said_for_it(anna: Conversation, text: str, title: str) -> None:
    r = await anna.say(text)
    assert [(i["op"], i["record"], i["values"]) for i in writes(r)] == [
        ("update_record", "Maria Sokolova", {"job_title": title})
    ]


async def test_a_title_said_twice_keeps_the_last(anna: Conversation) -> None:
    r = await anna.say(
        "Иван Сидоров теперь технический директор в Initech — обнови, пожалуйста, его должность в CRM на CTO."
    )
    assert [i["values"] for i in writes(r)] == [{"job_title": "CTO"}]


async def test_a_title_said_bare_after_the_name(anna: Conversation) -> None:
    r = await anna.say("иван петров — должность CIO")
    assert [(i["record"], i["values"]) for i in writes(r)] == [("Ivan Petrov", {"job_title": "CIO"})]


# ---- deals -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "deal", "amount"),
    [
        ("Acme Logistics pilot - revise the amount to 15,000", "Acme Logistics — pilot", 15000),
        ("Knock the Alfa-Leasing expansion down to 750 thousand", "Альфа-Лизинг — расширение", 750000),
        ("Globex pilot: change the amount to $32,500", "Globex pilot", 32500),
        ("Set the Alfa-Leasing expansion to 1,050,000 rubles", "Альфа-Лизинг — расширение", 1050000),
        ("Drop the Acme Corp annual license to forty-five thousand", "Acme Corp — annual license", 45000),
        (
            "Romashka came back with a counter: 1.1 million rubles. Update the deal amount.",
            "Ромашка — внедрение",
            1100000,
        ),
    ],
)
async def test_a_deal_sum_said_as_where_it_goes(
    anna: Conversation, text: str, deal: str, amount: int
) -> None:
    r = await anna.say(text)
    assert [(i["op"], i["deal"], i["amount"]) for i in writes(r)] == [("update_deal", deal, amount)]


async def test_handing_a_deal_named_like_an_issue_changes_the_deal(anna: Conversation) -> None:
    r = await anna.say("Hand the Acme Corp license over to Oleg")
    assert [(i["op"], i["deal"], i["owner"]) for i in writes(r)] == [
        ("update_deal", "Acme Corp — annual license", "Oleg Ivanov")
    ]
    r = await anna.say("mark the Acme Corp onboarding call as done")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [("complete_issue", "CS-12")]


async def test_taking_over_a_deal_makes_me_its_owner_and_it_goes_back_a_stage(anna: Conversation) -> None:
    r = await anna.say(
        "I'll take over the Alfa-Leasing deal from Oleg myself, and set it back to Proposal, they reopened the scope."
    )
    changes = writes(r)
    assert {c.get("owner") for c in changes} >= {"Anna Kuznetsova"}
    assert {c.get("stage") for c in changes} >= {"Proposal"}
    [action] = [a for a in r["plan"]["actions"] if not a["read_only"]]
    assert action["args"]["values"] == {"owner": "anna@northwind.dev", "stage": "Proposal"}


async def test_a_stage_said_as_where_they_are_now_goes_with_the_new_sum(anna: Conversation) -> None:
    r = await anna.say("Acme Corp license: they're in proper negotiation now and the number went up to 65k.")
    [change] = writes(r)
    assert (change["stage"], change["amount"]) == ("Negotiation", 65000)


async def test_a_company_name_said_the_russian_way_finds_its_deal(anna: Conversation) -> None:
    r = await anna.say("сделку акме лоджистикс пилот отметь как проигранную")
    assert [(i["deal"], i["stage"]) for i in writes(r)] == [("Acme Logistics — pilot", "Lost")]


async def test_a_deal_said_as_deal_in_cyrillic_with_a_spoken_sum(anna: Conversation) -> None:
    r = await anna.say("заведи деал с инитек на поддержку сорок тысяч долларов стадия лид")
    [deal] = writes(r)
    assert (deal["op"], deal["amount"], deal["stage"]) == ("create_deal", 40000, "Lead")


# ---- notes and CRM tasks ---------------------------------------------------------------------------------


async def test_write_into_a_deal_is_a_note_on_it(anna: Conversation) -> None:
    r = await anna.say(
        "Запиши в сделку Альфа-Лизинга: клиент готов добавить ещё пятьдесят лицензий, если дадим скидку семь процентов."
    )
    [note] = writes(r)
    assert (note["op"], note["record"]) == ("create_note", "Альфа-Лизинг — расширение")
    assert note["body"].startswith("клиент готов добавить")


async def test_the_record_right_after_note_to_is_where_it_goes(anna: Conversation) -> None:
    r = await anna.say(
        "так запиши заметку к ромашке иван петров просит созвониться двадцать седьмого по поводу оплаты"
    )
    [note] = writes(r)
    assert note["record"] == "Ромашка"
    assert note["body"].startswith("иван петров просит")


async def test_a_crm_task_with_its_assignee_said_last(anna: Conversation) -> None:
    r = await anna.say(
        "Add a task on the Romashka deal: get the signed contract scan, due December 2, assign it to me."
    )
    [task] = writes(r)
    assert (task["content"], task["assignee"]) == ("get the signed contract scan", "Anna Kuznetsova")
    assert task["deadline"].startswith("2026-12-02")


async def test_a_word_like_net_30_in_a_note_is_no_issue(anna: Conversation) -> None:
    r = await anna.say("Note on Initech: renewal signed at 18k, net-30 payment terms")
    [note] = writes(r)
    assert (note["op"], note["record"]) == ("create_note", "Initech")


# ---- issues said the spoken way ------------------------------------------------------------------------


async def test_issue_ids_and_labels_said_in_cyrillic(anna: Conversation) -> None:
    r = await anna.say("удали цс 15 она неактуальна")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [("archive_issue", "CS-15")]
    r = await anna.say("напиши в энг 103 что воспроизводится только на файлах больше 50 мегабайт")
    assert [(i["op"], i["issue"], i["body"]) for i in writes(r)] == [
        ("comment_issue", "ENG-103", "воспроизводится только на файлах больше 50 мегабайт")
    ]
    r = await anna.say("добавь в энг 101 лейбл секьюрити")
    [change] = writes(r)
    assert change["labels_add"] == ["security"]


async def test_a_new_issue_is_not_the_old_one_its_words_fit(anna: Conversation) -> None:
    r = await anna.say(
        "Context: Ivan Sidorov from Initech complained that our SSO setup docs are outdated. Please open an issue "
        "in ENG to refresh them, label it docs, assign it to me and make it due Dec 4."
    )
    [issue] = writes(r)
    assert (issue["op"], issue["team"], issue["due"]) == ("create_issue", "Engineering", "2026-12-04")


async def test_spin_up_a_new_issue_with_no_title_asks_for_one(anna: Conversation) -> None:
    r = await anna.say(
        "Hey, spin up a new issue for the design team, high priority, due Friday. I'll tell you what it's about "
        "once I've talked to Max."
    )
    assert (r["status"], r["clarifying_question"]) == (
        "needs_clarification",
        "What should the task be called?",
    )


async def test_in_progress_with_a_hyphen_filters_a_bulk_change(anna: Conversation) -> None:
    states = {s["id"]: s["name"] for t in WORKSPACE["linear"]["teams"] for s in t["states"]}
    in_progress = {
        i["identifier"] for i in WORKSPACE["linear"]["issues"] if states[i["state_id"]] == "In Progress"
    }
    r = await anna.say("Set a due date of Dec 18 on all in-progress issues")
    [bulk] = r["plan"]["intents"]
    assert bulk["filters"]["state"] == "In Progress"
    assert len([a for a in r["plan"]["actions"] if not a["read_only"]]) == len(in_progress)


async def test_to_me_before_a_reason_is_me(anna: Conversation) -> None:
    r = await anna.say("Передай все задачи команды Customer Success на меня, Олег и так перегружен.")
    [bulk] = r["plan"]["intents"]
    assert bulk["changes"]["assignee"] == "Anna Kuznetsova"


# ---- dates and meetings ----------------------------------------------------------------------------------


async def test_a_deadline_said_as_a_spoken_day_of_the_month(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи задачу в Linear — проверить, почему у Umbrella Health дублируются счета. Срок двадцать восьмого."
    )
    [issue] = writes(r)
    assert issue["due"] == "2026-11-28"


async def test_a_spoken_day_then_its_time(anna: Conversation) -> None:
    r = await anna.say("Забронируй созвон с Ли Вэем тридцатого в полдень, на полчаса.")
    [event] = writes(r)
    assert (event["start"][:16], event["duration_minutes"]) == ("2026-11-30T12:00", 30)


async def test_a_meeting_said_as_where_something_happens_makes_no_event(anna: Conversation) -> None:
    r = await anna.say("Which issues don't have an assignee yet? I'll hand them out in the planning meeting.")
    assert r["status"] == "answered"
    assert "ENG-103" in r["user_message"] and "CS-15" in r["user_message"]


# ---- sets AN and AO ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("CS-15 дедлайн на пятницу, не, на понедельник", "2026-11-30"),
        ("ENG-105 дедлайн сдвинь на 18 дек, не, на 20 дек", "2026-12-20"),
    ],
)
async def test_a_date_taken_back_with_ne_is_replaced(anna: Conversation, text: str, due: str) -> None:
    r = await anna.say(text)
    assert [i["due"] for i in writes(r)] == [due]


async def test_actually_make_it_replaces_the_sum(anna: Conversation) -> None:
    r = await anna.say(
        "new deal for Umbrella Health, uh, twenty five k, actually make it thirty five k, stage qualification"
    )
    [deal] = writes(r)
    assert (deal["op"], deal["amount"], deal["stage"]) == ("create_deal", 35000, "Qualification")


async def test_just_this_one_after_taking_back_a_list(anna: Conversation) -> None:
    r = await anna.say("cleanup: archive CS-15 and DES-7 — wait, no, DES-7 stays. Just CS-15.")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [("archive_issue", "CS-15")]


async def test_a_comment_said_after_a_filler_and_a_comma(anna: Conversation) -> None:
    r = await anna.say("comment on eng one oh five, uh, Apple approved the build, we can ship Monday")
    assert [(i["issue"], i["body"]) for i in writes(r)] == [
        ("ENG-105", "Apple approved the build, we can ship Monday")
    ]
    r = await anna.say(
        "close ENG 101, Oleg says it's fixed, and uh comment on it that the fix shipped in two point three"
    )
    assert [(i["op"], i["issue"]) for i in writes(r)] == [
        ("complete_issue", "ENG-101"),
        ("comment_issue", "ENG-101"),
    ]


async def test_a_quoted_comment_then_another_change_of_the_same_issue(anna: Conversation) -> None:
    r = await anna.say(
        "comment on CS-12: 'Acme asked to move the call to next week' and push its due to Dec 1"
    )
    comment, change = writes(r)
    assert (comment["op"], comment["body"]) == ("comment_issue", "Acme asked to move the call to next week")
    assert (change["op"], change["issue"], change["due"]) == ("update_issue", "CS-12", "2026-12-01")


async def test_lets_not_do_it_yet_drafts_nothing(anna: Conversation) -> None:
    r = await anna.say("I'm thinking maybe we bump Globex to won next week, but let's not do it yet")
    assert (r["status"], writes(r)) == ("answered", [])


async def test_me_said_as_a_detail_of_a_new_issue_or_task(anna: Conversation) -> None:
    r = await anna.say("new issue, ENG: 'Flaky e2e: checkout spec times out on CI' — me, medium, due Monday")
    [issue] = writes(r)
    assert (issue["title"], issue["assignee"], issue["priority"]) == (
        "Flaky e2e: checkout spec times out on CI",
        "Anna Kuznetsova",
        "medium",
    )
    r = await anna.say(
        "new ENG issues, all mine, backlog: 'Remove legacy v1 auth endpoints', 'Drop IE11 polyfills'"
    )
    assert {i["assignee"] for i in writes(r)} == {"Anna Kuznetsova"} and len(writes(r)) == 2
    r = await anna.say("таска в Attio по Acme Corp: выслать счет, дедлайн вт, на меня")
    [task] = writes(r)
    assert (task["content"], task["assignee"]) == ("выслать счет", "Anna Kuznetsova")


async def test_the_priority_said_as_where_it_goes_beats_one_in_an_aside(anna: Conversation) -> None:
    r = await anna.say("ENG-103 → Max, and drop it to high (not a real P0, only hits exports > 500 pages)")
    assert {i.get("priority") for i in writes(r)} >= {"high"}
    assert "urgent" not in {i.get("priority") for i in writes(r)}


async def test_a_task_for_a_colleague_said_before_a_colon_or_as_remind_them(anna: Conversation) -> None:
    r = await anna.say(
        "Для Макса: создайте, пожалуйста, в CRM задачу «Подготовить КП для Initech на 2027 год» со сроком 10 декабря, "
        "привяжите к компании Initech."
    )
    [task] = writes(r)
    assert (task["content"], task["assignee"], task["record"]) == (
        "Подготовить КП для Initech на 2027 год",
        "Max Weber",
        "Initech",
    )
    r = await anna.say(
        "Напомните, пожалуйста, Максу во вторник связаться с Иваном Сидоровым по поводу продления."
    )
    [task] = writes(r)
    assert (task["content"], task["assignee"]) == (
        "связаться с Иваном Сидоровым по поводу продления",
        "Max Weber",
    )


async def test_a_sub_issue_with_its_assignee_and_priority_after_the_quoted_title(anna: Conversation) -> None:
    r = await anna.say("ENG-106 needs a sub-issue: 'Audit other staging secrets' → Oleg, urgent")
    [sub] = writes(r)
    assert (sub["title"], sub["parent"], sub["assignee"], sub["priority"]) == (
        "Audit other staging secrets",
        "ENG-106",
        "Oleg Ivanov",
        "urgent",
    )


async def test_details_in_parentheses_after_a_quoted_title(anna: Conversation) -> None:
    r = await anna.say("new DES issue: 'Dark mode tokens audit' (Max, medium, Website Redesign project)")
    [issue] = writes(r)
    assert (issue["title"], issue["assignee"], issue["priority"], issue["project"]) == (
        "Dark mode tokens audit",
        "Max Weber",
        "medium",
        "Website Redesign",
    )


async def test_a_project_named_in_quotes_before_the_word(anna: Conversation) -> None:
    r = await anna.say("create a 'Mobile v2' project in DES, target Mar 31")
    [project] = writes(r)
    assert (project["name"], project["target_date"]) == ("Mobile v2", "2027-03-31")


async def test_what_is_left_out_of_everything_is_never_the_target(anna: Conversation) -> None:
    r = await anna.say("everything in ENG Todo → Backlog, except ENG-106 (that one's hot)")
    assert "ENG-106" not in {i.get("issue") for i in writes(r)}


@pytest.mark.parametrize(
    "text",
    [
        "Создайте, пожалуйста, задачу в Linear на Олега со сроком до пятницы.",
        "file a ticket for the thing Oleg brought up at standup",
    ],
)
async def test_a_new_issue_with_no_real_title_is_asked_for_one(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert (r["status"], writes(r)) == ("needs_clarification", [])


async def test_a_second_email_is_added_to_the_person(anna: Conversation) -> None:
    r = await anna.say("Добавьте, пожалуйста, Ивану Сидорову из Initech второй email: i.sidorov@initech.io.")
    [change] = writes(r)
    assert (change["op"], change["record"], change["values"]) == (
        "update_record",
        "Ivan Sidorov",
        {"email_addresses": "i.sidorov@initech.io"},
    )


async def test_a_full_name_of_which_one_word_fits_someone_else_is_asked(anna: Conversation) -> None:
    r = await anna.say(
        "Поставьте, пожалуйста, встречу с Петром Николаевым завтра в 10 на час и пригласите его."
    )
    assert r["status"] == "needs_clarification" and "Петром Николаевым" in r["clarifying_question"]


async def test_a_state_said_alone_among_the_changes(anna: Conversation) -> None:
    r = await anna.say("cs-15 → me, todo, due Dec 3 (Initech QBR prep)")
    changes = {k: v for i in writes(r) for k, v in i.items() if k not in ("op", "issue")}
    assert changes == {"assignee": "Anna Kuznetsova", "state": "Todo", "due": "2026-12-03"}


async def test_an_aside_in_parentheses_says_why_and_names_no_target(anna: Conversation) -> None:
    r = await anna.say("ENG-105 → Oleg (Max is buried in DES-7 feedback), keep prio as is")
    assert [(i["issue"], i.get("assignee"), i.get("priority")) for i in writes(r)] == [
        ("ENG-105", "Oleg Ivanov", None)
    ]
    r = await anna.say("ENG-102 → In Review (PR #482 is up)")
    assert [(i["issue"], i["state"]) for i in writes(r)] == [("ENG-102", "In Review")]


async def test_a_stage_counted_in_is_no_filter_and_two_currencies_are_two_totals(anna: Conversation) -> None:
    r = await anna.say("total value of all deals in USD, won included")
    [total] = r["plan"]["intents"]
    assert total["filters"] == {"currency": "USD"} and total["aggregate"] == "sum:amount"
    r = await anna.say("what's our total pipeline in negotiation right now, like in dollars and rubles")
    assert [i["filters"]["currency"] for i in r["plan"]["intents"]] == ["USD", "RUB"]


async def test_give_a_deal_and_schedule_an_hour_said_the_spoken_way(anna: Conversation) -> None:
    r = await anna.say("give the Alfa deal to Max, Oleg's swamped")
    assert [(i["op"], i["owner"]) for i in writes(r)] == [("update_deal", "Max Weber")]
    r = await anna.say("schedule an hour with Li Wei next Tuesday at eleven a m, onboarding kickoff")
    [event] = writes(r)
    assert (event["op"], event["start"][:16], event["duration_minutes"]) == (
        "create_event",
        "2026-12-01T11:00",
        60,
    )


async def test_an_issue_said_into_a_project_without_a_verb(anna: Conversation) -> None:
    r = await anna.say("ENG-103 в проект Mobile App")
    assert [(i["op"], i["issue"], i["project"]) for i in writes(r)] == [
        ("update_issue", "ENG-103", "Mobile App")
    ]


async def test_what_a_customer_wants_is_no_onboarding_and_no_deal_is_made_when_said_missing(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Recap from the CS sync. Umbrella Health wants onboarding to start before the holidays, but there's no deal "
        "yet and that's on sales, not us. For us: create a CS issue 'Umbrella Health: prep onboarding plan' for Oleg "
        "due December 4, and add a note on the Umbrella Health company: 'wants onboarding before holidays, no deal yet'."
    )
    assert sorted(ops(r)) == ["create_issue", "create_note"]


@pytest.mark.parametrize(
    "text",
    [
        "create issue for the safari login bug... actually wait oleg already has one, skip it",
        "Хотела было попросить вас удалить компанию Umbrella Health, но передумала — пусть остаётся.",
        "Задачи по онбордингу для Globex заведём, как только они подпишут договор, — сейчас, пожалуйста, ничего не создавайте.",
        "завтра надо будет перевести глобекс в выигранные если подпишут но не сейчас",
    ],
)
async def test_a_change_put_off_or_taken_back_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert (r["status"], writes(r)) == ("answered", []), r["user_message"]


async def test_they_changed_their_mind_is_no_taking_back(anna: Conversation) -> None:
    r = await anna.say("двигай сделку инитек обратно в переговоры они передумали")
    assert [(i["deal"], i["stage"]) for i in writes(r)] == [("Initech renewal", "Negotiation")]


async def test_make_a_vague_thing_a_ticket_asks_what_it_is(anna: Conversation) -> None:
    r = await anna.say("Make the Figma thing from yesterday a ticket")
    assert (r["status"], writes(r)) == ("needs_clarification", [])


async def test_a_counted_list_after_a_heading_is_filed(anna: Conversation) -> None:
    r = await anna.say(
        "Umbrella Health launch — 6 CS issues please: contract signature, kickoff, SSO setup, data migration, "
        "admin training, go-live review"
    )
    assert [i["title"] for i in writes(r)] == [
        "contract signature", "kickoff", "SSO setup", "data migration", "admin training", "go-live review"
    ]  # fmt: skip


async def test_tag_every_issue_after_a_heading_is_a_bulk_label_change(anna: Conversation) -> None:
    r = await anna.say(
        "Security review before the 2.5 release: tag every open ENG issue with the security label"
    )
    [bulk] = r["plan"]["intents"]
    assert (bulk["op"], bulk["filters"], bulk["changes"]) == (
        "update_matching",
        {"team": "Engineering", "state": "open"},
        {"labels_add": ["security"]},
    )


async def test_a_customer_who_changed_their_mind_is_no_taking_back(anna: Conversation) -> None:
    r = await anna.say("Initech передумал, переведи сделку обратно в переговоры")
    assert [(i["deal"], i["stage"]) for i in writes(r)] == [("Initech renewal", "Negotiation")]
