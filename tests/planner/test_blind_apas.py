"""What the sets AP, AQ, AR and AS taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

import pytest
from conftest import Conversation, ops, writes

pytestmark = pytest.mark.anyio


# ---- polite Russian ----------------------------------------------------------------------------------


async def test_a_polite_plural_request_reads_like_the_familiar_one(anna: Conversation) -> None:
    r = await anna.say(
        "Добрый день! Если не трудно, заведите, пожалуйста, в Linear в команде Engineering задачу "
        "«Обновить сертификаты на стенде заказчика» со сроком до пятницы и назначьте её на Олега."
    )
    assert r["status"] == "draft_pending"  # «если не трудно» is courtesy, not a condition for later
    [issue] = writes(r)
    assert (issue["op"], issue["title"], issue["assignee"], issue["due"]) == (
        "create_issue",
        "Обновить сертификаты на стенде заказчика",
        "Oleg Ivanov",
        "2026-11-27",
    )


async def test_an_issue_named_only_to_be_left_alone_is_named_back_not_changed(anna: Conversation) -> None:
    r = await anna.say(
        "Если не трудно, назначьте ENG-103 на Макса и поставьте срок на вторник; ENG-101 при этом не трогайте, "
        "он у Олега и так в работе."
    )
    assert r["status"] == "draft_pending"
    assert {i["issue"] for i in writes(r)} == {"ENG-103"}
    assert "Не трогаю: ENG-101" in r["user_message"]
    r = await anna.say(
        "Assign ENG-103 to Max and set the due date to Tuesday; leave ENG-101 alone, Oleg has it"
    )
    assert {i["issue"] for i in writes(r)} == {"ENG-103"}
    assert "Leaving as is: ENG-101" in r["user_message"]


async def test_a_change_told_not_yet_anywhere_in_the_sentence_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Сделку с Globex в Won пока, пожалуйста, не переводите — дождёмся подписанного договора, я напишу вам "
        "отдельно."
    )
    assert (r["status"], writes(r)) == ("answered", [])
    r = await anna.say(
        "В связи с тем, что Ромашка вчера наконец подписала договор, переведите, пожалуйста, сделку «Ромашка — "
        "внедрение» в стадию Won. Задачи онбординга в Linear пока заводить не нужно — я сначала созвонюсь с их CTO."
    )
    assert ops(r) == ["update_deal"]  # «…пока заводить не нужно»: the onboarding issues are named back
    assert "Не трогаю" in r["user_message"]


async def test_a_polite_question_is_answered_not_made_a_task(anna: Conversation) -> None:
    r = await anna.say("Напомните, пожалуйста, какой адрес почты у Ивана Сидорова?")
    assert (r["status"], writes(r)) == ("answered", [])
    assert "ivan.sidorov@initech.io" in r["user_message"]
    r = await anna.say(
        "Измените сумму сделки «Альфа-Лизинг — расширение» на 950 000 рублей, стадию оставьте прежней. "
        "И заодно напомните, кто у них контактное лицо."
    )
    [change] = writes(r)  # no note «прежней», no task «напомни»
    assert (change["op"], change["amount"]) == ("update_deal", 950000)


async def test_a_named_deals_sum_is_its_own_amount_not_a_total(anna: Conversation) -> None:
    r = await anna.say(
        "Напомните, пожалуйста, какая сумма стоит в сделке «Ромашка — внедрение» и кто её ведёт?"
    )
    assert r["status"] == "answered"
    [find] = r["plan"]["intents"][:1]
    assert (find["filters"], find.get("aggregate")) == ({"record": "Ромашка — внедрение"}, None)


# ---- what a thing is not called yet, and what is not a thing ----------------------------------------


async def test_a_title_not_thought_of_yet_is_asked_not_guessed(anna: Conversation) -> None:
    for text in (
        "Создайте, пожалуйста, задачу в команде Design со сроком до пятницы — название, признаться, я ещё не "
        "придумала, подскажу позже.",
        "Создай задачу в команде Design со сроком до пятницы",
    ):
        r = await anna.say(text)
        assert (r["status"], r["clarifying_question"]) == ("needs_clarification", "Как назвать задачу?"), text


async def test_a_crm_task_that_names_only_its_record_asks_what_to_do(anna: Conversation) -> None:
    r = await anna.say("Поставьте мне, пожалуйста, задачу на пятницу по Globex.")
    assert r["status"] == "needs_clarification"
    r = await anna.say("поставь мне задачу на пятницу по глобексу: отправить договор")
    [task] = writes(r)
    assert (task["content"], task["record"]) == ("отправить договор", "Globex")


async def test_a_change_to_every_issue_is_never_a_new_issue(anna: Conversation) -> None:
    r = await anna.say(
        "В связи с аудитом безопасности поставьте всем задачам команды Engineering высокий приоритет — кроме тех, "
        "у которых он уже срочный: их понижать ни в коем случае не нужно."
    )
    assert "create_issue" not in ops(r)


async def test_a_statement_about_a_ticket_there_is_makes_no_new_one(anna: Conversation) -> None:
    r = await anna.say(
        "The iOS push ticket needs the new permission prompt design. Add to the ENG-105 description: use the "
        "soft-ask screen from the Figma frame Push / Soft ask v2 before the system prompt"
    )
    [change] = writes(r)
    assert (change["op"], change["issue"]) == ("update_issue", "ENG-105")


# ---- structure ----------------------------------------------------------------------------------------


async def test_a_note_said_after_a_colon_and_a_sentence_is_its_own_request(anna: Conversation) -> None:
    r = await anna.say(
        "Сделку с Альфа-Лизингом, к сожалению, придётся перевести в «проиграна»: они выбрали другого подрядчика. "
        "Заметку с причиной добавьте, пожалуйста, к самой сделке: «Выбрали конкурента из-за цены»."
    )
    assert sorted(ops(r)) == ["create_note", "update_deal"]
    note = next(i for i in writes(r) if i["op"] == "create_note")
    assert note["body"] == "Выбрали конкурента из-за цены"


async def test_a_corrected_number_keeps_the_scale_of_the_one_it_replaces(anna: Conversation) -> None:
    r = await anna.say("по Альфе сумма теперь 900 тысяч, нет, стоп, 950, они добавили ещё два филиала")
    [change] = writes(r)
    assert change["amount"] == 950_000


async def test_a_link_after_a_quoted_title_goes_into_the_description(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи в DES задачу «Empty state for search results screen with illustration and retry CTA», макет тут: "
        "https://www.figma.com/file/Kx7pQ2/Search-v3"
    )
    [issue] = writes(r)
    assert issue["title"] == "Empty state for search results screen with illustration and retry CTA"
    assert issue["description"] == "https://www.figma.com/file/Kx7pQ2/Search-v3"


async def test_a_sum_said_as_moved_then_a_second_change_of_the_same_deal(anna: Conversation) -> None:
    r = await anna.say("акме логистикс пилот сумма выросла до 15 тысяч и передай сделку мне")
    assert [(i["op"], i["deal"]) for i in writes(r)] == [("update_deal", "Acme Logistics — pilot")] * 2
    assert {k: v for i in writes(r) for k, v in i.items() if k in ("amount", "owner")} == {
        "amount": 15000,
        "owner": "Anna Kuznetsova",
    }
    r = await anna.say("Короче. Ромашка. Сумма меняется — теперь 1,5 млн, и двигай в переговоры")
    [change] = writes(r)
    assert (change["amount"], change["stage"]) == (1_500_000, "Negotiation")


async def test_comment_that_comments_the_sentence_before(anna: Conversation) -> None:
    r = await anna.say(
        "The push permission prompt shows twice on first launch — a regression from build 2.3.2. "
        "Comment that on ENG-105 and bump it to urgent"
    )
    comment = next(i for i in writes(r) if i["op"] == "comment_issue")
    assert comment["body"].startswith("The push permission prompt shows twice on first launch")
    assert any(i.get("priority") == "urgent" for i in writes(r))


async def test_sub_issues_listed_after_a_parent_id_are_each_made(anna: Conversation) -> None:
    r = await anna.say(
        "Create sub-issues under ENG-105: APNs certificate renewal, deep links from push, notification settings "
        "screen"
    )
    assert [(i["title"], i["parent"]) for i in writes(r)] == [
        ("APNs certificate renewal", "ENG-105"),
        ("deep links from push", "ENG-105"),
        ("notification settings screen", "ENG-105"),
    ]


async def test_a_projects_quoted_name_stays_when_a_description_follows(anna: Conversation) -> None:
    r = await anna.say(
        "New Linear project «Checkout Revamp» in ENG, target date Dec 20, description: new checkout flow for the "
        "2.5 release"
    )
    [project] = writes(r)
    assert (project["name"], project["description"]) == (
        "Checkout Revamp",
        "new checkout flow for the 2.5 release",
    )


async def test_a_pronoun_to_delete_is_the_person_named_not_the_company_heading(anna: Conversation) -> None:
    r = await anna.say("по глобексу джейн доу ушла из компании удали её из контактов")
    [delete] = writes(r)
    assert (delete["record"], delete["object"]) == ("Jane Doe", "people")


async def test_a_renames_new_quoted_name_names_no_issue(anna: Conversation) -> None:
    r = await anna.say("Переименуй тикет про onboarding в «Onboarding v2 screens»")
    assert r["status"] == "needs_clarification"  # CS-12 and DES-7 both say "onboarding"
    labels = [c["label"] for c in r["choices"]]
    assert any("CS-12" in x for x in labels) and any("DES-7" in x for x in labels)
    r = await anna.say("rename the Initech check-in issue to 'Quarterly sync with Initech'")
    [change] = writes(r)  # "sync" inside the new name asks for no meeting
    assert (change["issue"], change["title"]) == ("CS-15", "Quarterly sync with Initech")


async def test_a_customer_refusing_something_else_is_no_lost_deal(anna: Conversation) -> None:
    r = await anna.say("Удали тикет CS-15, Initech отказался от квартальных чекинов")
    assert ops(r) == ["archive_issue"]


async def test_a_list_of_reminders_is_one_task_per_item_and_the_meeting(anna: Conversation) -> None:
    r = await anna.say(
        "напоминалки на завтра: позвонить джону смиту, отправить счёт в инитек и в 12 созвон с джейн на полчаса"
    )
    assert sorted(ops(r)) == ["create_event", "create_task", "create_task"]
    tasks = [i for i in writes(r) if i["op"] == "create_task"]
    assert [(t["content"], t["record"]) for t in tasks] == [
        ("позвонить джону смиту", "John Smith"),
        ("отправить счёт в инитек", "Initech"),
    ]
    event = next(i for i in writes(r) if i["op"] == "create_event")
    assert (event["start"], event["duration_minutes"]) == ("2026-11-26T12:00:00+03:00", 30)


# ---- AR and AS: dictation without punctuation, bug reports, English as a second language ---------------


async def test_an_english_ordinal_date_is_read_and_a_note_keeps_the_words(anna: Conversation) -> None:
    r = await anna.say("Please remind me to send the revised quotation to Jane Doe on 27th Nov.")
    [task] = writes(r)
    assert (task["content"], task["deadline"]) == (
        "send the revised quotation to Jane Doe",
        "2026-11-27T09:00:00+03:00",
    )
    r = await anna.say(
        "Kindly add a note on John Smith: he is on leave until 8th December, revert back after that."
    )
    [note] = writes(r)
    assert "on leave until 8th December" in note["body"]


async def test_a_currency_code_before_the_sum_and_a_stage_said_as_a_wish(anna: Conversation) -> None:
    r = await anna.say("Alfa-Leasing expansion amount is now RUB 950,000 and stage should be Proposal.")
    [change] = writes(r)
    assert (change["amount"], change["currency"], change["stage"]) == (950_000, "RUB", "Proposal")
    r = await anna.say("the deal of Globex should go in won")
    [change] = writes(r)
    assert (change["deal"], change["stage"]) == ("Globex pilot", "Won")
    r = await anna.say("Everything in Backlog for CS that nobody owns should go to Oleg")
    assert all(i.get("stage") is None for i in writes(r))  # a hand-over, never a stage


async def test_an_events_title_said_after_a_comma_is_its_title(anna: Conversation) -> None:
    r = await anna.say(
        "Schedule 30 min call on 1st Dec at 9:30 with Maria Sokolova, title Alfa expansion pricing."
    )
    [event] = writes(r)
    assert event["start"] == "2026-12-01T09:30:00+03:00"
    assert event["title"].startswith("Alfa expansion pricing")


async def test_version_numbers_are_no_dates_and_no_times(anna: Conversation) -> None:
    r = await anna.say(
        "Нашла ещё одно: в мобилке (iOS 17.5, билд 2.14.3) при смене языка на русский обрезается заголовок на "
        "экране профиля. Заведи баг в ENG в проект Mobile App, приоритет low."
    )
    [issue] = writes(r)
    assert "due" not in issue  # «17.5» was read as the 17th of May
    assert "iOS 17.5, билд 2.14.3" in issue["title"] and "обрезается заголовок" in issue["title"]
    assert (issue["project"], issue["priority"]) == ("Mobile App", "low")


async def test_a_correction_said_without_commas_replaces_the_stage(anna: Conversation) -> None:
    r = await anna.say("ромашку переведи в переговоры нет стоп сразу в выиграна они подписали")
    [change] = writes(r)
    assert change["stage"] == "Won"


async def test_check_and_tell_me_if_is_a_question(anna: Conversation) -> None:
    for text in (
        "Check and tell me if any Linear issue is open for Globex.",
        "проверь и скажи, есть ли открытые задачи по Globex",
    ):
        r = await anna.say(text)
        assert (r["status"], writes(r)) == ("answered", []), text


async def test_a_bare_request_with_a_filler_asks_for_the_title(anna: Conversation) -> None:
    r = await anna.say("создай-ка задачу э-э")
    assert (r["status"], r["clarifying_question"]) == ("needs_clarification", "Как назвать задачу?")


async def test_a_list_said_without_commas_is_said_back_before_one_issue_per_word(anna: Conversation) -> None:
    r = await anna.say("заведи в дизайн задачи иконки кнопки шрифты цвета отступы и тени")
    assert r["status"] == "needs_clarification"
    assert "6 задач" in r["clarifying_question"]
    r = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    assert [i["title"] for i in writes(r)] == ["иконки", "кнопки", "шрифты", "цвета", "отступы", "тени"]


async def test_a_bug_reports_request_is_found_after_its_steps(anna: Conversation) -> None:
    r = await anna.say(
        "Ребята, нашла баг. Окружение: staging, билд 2.14.3, Chrome 131 / macOS 15.1. Шаги: 1) логинимся под "
        "тестовым админом 2) Settings → Billing → «Скачать счёт» 3) жмём Download. Ожидаемо: скачивается PDF. "
        "Фактически: белый экран и 500 в консоли. Заведи, пожалуйста, баг в ENG: Ошибка 500 при скачивании "
        "счёта в Billing, лейбл bug, приоритет high, ассайни Олег."
    )
    [issue] = writes(r)
    assert (issue["title"], issue["assignee"], issue["priority"]) == (
        "Ошибка 500 при скачивании счёта в Billing",
        "Oleg Ivanov",
        "high",
    )


async def test_numbered_crm_tasks_each_keep_their_own_day(anna: Conversation) -> None:
    r = await anna.say(
        "Create 2 tasks for me in Attio on Umbrella Health company: 1) send NDA on Friday 2) schedule demo next "
        "Tuesday"
    )
    assert [(t["content"], t["deadline"][:10]) for t in writes(r)] == [
        ("send NDA", "2026-11-27"),
        ("schedule demo", "2026-12-01"),
    ]


# ---- AT and AU: everyday words, structured lists, chat code marks ---------------------------------------


async def test_close_everything_assigned_to_someone_filters_by_them(anna: Conversation) -> None:
    for text in ("close everything assigned to max", "закрой всё, что назначено на Макса"):
        r = await anna.say(text)
        [bulk] = r["plan"]["intents"]
        assert (bulk["op"], bulk["filters"].get("assignee"), bulk["changes"]) == (
            "update_matching",
            "Max Weber",
            {"complete": True},
        ), text


async def test_what_the_person_already_did_is_no_change(anna: Conversation) -> None:
    r = await anna.say("fyi I already closed `ENG-105` yesterday")
    assert r["status"] != "draft_pending"
    r = await anna.say(
        "Re: Alfa-Leasing\nWe may move the expansion deal to Lost if Maria doesn't respond by Friday. "
        "No action yet — just keeping you posted."
    )
    assert (r["status"], writes(r)) == ("answered", [])


async def test_code_marks_and_id_ranges_read_as_said(anna: Conversation) -> None:
    r = await anna.say("`ENG-101..ENG-103`: add label `security`")
    assert [(i["issue"], i["labels_add"]) for i in writes(r)] == [
        ("ENG-101", ["security"]),
        ("ENG-102", ["security"]),
        ("ENG-103", ["security"]),
    ]
    r = await anna.say("sub-issue under `ENG-105`: `Handle token refresh for APNs`, assign max")
    [issue] = writes(r)
    assert (issue["title"], issue["parent"], issue["assignee"]) == (
        "Handle token refresh for APNs",
        "ENG-105",
        "Max Weber",
    )


async def test_a_card_with_bullets_is_one_new_record(anna: Conversation) -> None:
    r = await anna.say("New company record:\n• Name: Pied Piper\n• Domain: piedpiper.com")
    [company] = writes(r)
    assert (company["name"], company["domain"]) == ("Pied Piper", "piedpiper.com")
    r = await anna.say(
        "new issue\n- team: DES\n- title: `Dark mode tokens`\n- priority: low\n- assignee: max"
    )
    [issue] = writes(r)
    assert (issue["title"], issue["team"], issue["priority"], issue["assignee"]) == (
        "Dark mode tokens",
        "Design",
        "low",
        "Max Weber",
    )
    r = await anna.say("Please update ENG-102 as follows:\n- Assignee: Oleg\n- Priority: Urgent")
    [change] = writes(r)
    assert (change["assignee"], change["priority"]) == ("Oleg Ivanov", "urgent")


async def test_everyday_russian_for_a_task_and_for_show_me(anna: Conversation) -> None:
    r = await anna.say("Создай дело: подготовить договор для Альфа-Лизинга до 1 декабря. Это важно.")
    [task] = writes(r)
    assert (task["op"], task["record"]) == ("create_task", "Альфа-Лизинг")
    r = await anna.say("А какая сумма сделки с Альфой? Напомни, а то Мария спросит, а я не помню.")
    assert (r["status"], writes(r)) == ("answered", [])
    r = await anna.say("Скинь email Марии Соколовой")
    assert r["status"] == "answered" and "maria@alfaleasing.ru" in r["user_message"]
    r = await anna.say("ENG-102 отдай мне, Макс и так завален по уши.")
    [change] = writes(r)
    assert change["assignee"] == "Anna Kuznetsova"


async def test_a_list_under_a_subject_or_a_heading_is_one_request_a_line(anna: Conversation) -> None:
    r = await anna.say(
        "Re: Globex pilot\n\n1. Move the deal back to Proposal — legal asked us to resend pricing.\n2. Add a note "
        'to the deal: "Pricing v3 sent on Nov 25; awaiting legal sign-off."\n\n@Max FYI, no action needed from you.'
    )
    assert sorted((i["op"], i.get("deal") or i.get("record")) for i in writes(r)) == [
        ("create_note", "Globex pilot"),
        ("update_deal", "Globex pilot"),
    ]
    r = await anna.say(
        "Action items from today's pipeline review:\na) Alfa-Leasing expansion → Won\nb) Acme Logistics pilot → "
        "Lost\nc) Globex pilot: change the owner to Oleg"
    )
    assert [(i["deal"], i.get("stage") or i.get("owner")) for i in writes(r)] == [
        ("Альфа-Лизинг — расширение", "Won"),
        ("Acme Logistics — pilot", "Lost"),
        ("Globex pilot", "Oleg Ivanov"),
    ]
    r = await anna.say(
        "Please create these Engineering issues:\n1. Upgrade Postgres to 16\n2. Add rate limiting to the public "
        "API\n3. Remove legacy v1 endpoints"
    )
    assert [i["title"] for i in writes(r)] == [
        "Upgrade Postgres to 16",
        "Add rate limiting to the public API",
        "Remove legacy v1 endpoints",
    ]


async def test_a_new_deal_names_its_company_once(anna: Conversation) -> None:
    r = await anna.say("Заведи deal Umbrella Health expansion на 40k USD, stage Qualification, owner Олег")
    [deal] = writes(r)
    assert (deal["name"], deal["amount"], deal["owner"]) == (
        "Umbrella Health expansion",
        40000,
        "Oleg Ivanov",
    )


async def test_russian_typed_in_latin_letters_is_read_and_answered_as_russian(anna: Conversation) -> None:
    r = await anna.say("zakroi eng-106, klyuch uzhe rotirovali")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [("complete_issue", "ENG-106")]
    assert r["user_message"].startswith("Черновик")
    r = await anna.say("pereNesi sdelku globex v won")
    [change] = writes(r)
    assert (change["deal"], change["stage"]) == ("Globex pilot", "Won")
    r = await anna.say("zavedi zadachu v ENG: obnovit sertifikaty na staging")
    [issue] = writes(r)
    assert issue["title"] == "obnovit sertifikaty na staging"  # the person's own words, as typed
    r = await anna.say("kakie u nas proekty v Linear?")
    assert r["status"] == "answered" and "Mobile App" in r["user_message"]


async def test_english_shorthand_is_not_taken_for_translit(anna: Conversation) -> None:
    for text in ("ENG-103 → oleg, due mon", "label ENG-106 as bug too", "test plan status"):
        r = await anna.say(text)
        assert r["plan"]["language"] == "en", text


# ---- AV and AW: quotes of customers, officialese, slang, recurring days ---------------------------------


async def test_a_customers_quoted_words_never_become_a_write_by_themselves(anna: Conversation) -> None:
    r = await anna.say(
        'Customer says: "Please cancel our subscription and delete our account." - Li Wei, Acme Logistics'
    )
    assert r["status"] != "draft_pending" and r["draft"] is None
    r = await anna.say(
        "> we never received the onboarding invite\n> — John, Acme Corp\n\nlog a bug in CS, assign to Oleg"
    )
    [issue] = writes(r)  # no onboarding template from the quote's words
    assert (issue["op"], issue["team"], issue["assignee"]) == (
        "create_issue",
        "Customer Success",
        "Oleg Ivanov",
    )
    assert "onboarding invite" in issue["title"]
    r = await anna.say(
        "> Could you send us a copy of the current SLA?\n> — Initech IT\n\nadd a note on the Initech company"
    )
    [note] = writes(r)
    assert (note["record"], note["body"]) == ("Initech", "Could you send us a copy of the current SLA?")
    r = await anna.say(
        'Customer (Maria, Alfa-Leasing): "We need two-factor authentication before we can sign."\n'
        "Create a feature request in ENG, label customer-request, high priority."
    )
    [issue] = writes(r)
    assert "two-factor authentication" in issue["title"]


async def test_a_day_said_as_recurring_is_asked_before_it_is_made_once(anna: Conversation) -> None:
    r = await anna.say("Set up a 30-minute 1:1 with Max every Monday at 10am")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert "repeat" in r["clarifying_question"]
    r = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    [event] = writes(r)
    assert (event["start"], event["title"]) == ("2026-11-30T10:00:00+03:00", "1:1 with Max")


async def test_officialese_headings_and_legal_forms_are_read(anna: Conversation) -> None:
    r = await anna.say(
        "Довожу до сведения: Initech отказался от продления. Прошу перевести сделку Initech renewal в стадию "
        "«Проиграна» и внести заметку: клиент сократил бюджет на 2027 год."
    )
    assert sorted(ops(r)) == ["create_note", "update_deal"]
    r = await anna.say(
        "Прошу завести новую сделку: ООО «Ромашка», техническое сопровождение, сумма 300 000 руб., стадия «Лид», "
        "ответственный — Иванов."
    )
    [deal] = writes(r)
    assert (deal["company"], deal["stage"], deal["amount"]) == ("Ромашка", "Lead", 300_000)
    assert deal["name"] != "Лид"
    r = await anna.say("Прошу поручить Петренко подготовить договор для Initech в срок до пятницы.")
    assert (r["status"], r["clarifying_question"]) == ("needs_clarification", "Кому поручить?")


async def test_a_bug_said_as_an_error_with_its_fields_after_the_title(anna: Conversation) -> None:
    r = await anna.say(
        "Прошу зарегистрировать в Linear ошибку: при выгрузке счетов в Excel теряются копейки. Приоритет — "
        "срочный, команда Engineering."
    )
    [issue] = writes(r)
    assert (issue["title"], issue["priority"], issue["labels"]) == (
        "при выгрузке счетов в Excel теряются копейки",
        "urgent",
        ["bug"],
    )


async def test_that_and_nothing_else_drafts_that(anna: Conversation) -> None:
    r = await anna.say(
        "Поставьте, пожалуйста, блок на 90 минут в четверг в 10 утра на разбор требований Globex и больше ничего "
        "не создавайте — задачи в Linear по этому поводу уже есть."
    )
    assert ops(r) == ["create_event"]


async def test_slang_names_a_block_and_an_owner(anna: Conversation) -> None:
    r = await anna.say("блок завтра в 9:30 на 45 мин, назови разбор багов")
    [event] = writes(r)
    assert (event["title"], event["duration_minutes"]) == ("разбор багов", 45)
    r = await anna.say("новая сделка umbrella pilot для umbrella health,15к usd,стадия лид,овнер олег")
    [deal] = writes(r)
    assert (deal["owner"], deal["stage"], deal["amount"]) == ("Oleg Ivanov", "Lead", 15000)


async def test_a_note_to_a_deal_not_found_asks_rather_than_noting_on_a_person_it_names(
    anna: Conversation,
) -> None:
    r = await anna.say("заметка к сделке глоб: джейн хочет пилот на 2 мес, решение до 15.12")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)


async def test_numbered_forwards_each_do_what_the_arrow_says(anna: Conversation) -> None:
    r = await anna.say(
        'Two from this morning:\n1) Jane @ Globex: "Budget approved, we are good to go with the pilot." -> move '
        'Globex pilot to Won\n2) Ivan Sidorov @ Initech: "Your v2 API docs still show the old auth flow." -> '
        "comment on ENG-104 with that"
    )
    assert sorted(ops(r)) == ["comment_issue", "update_deal"]
    comment = next(i for i in writes(r) if i["op"] == "comment_issue")
    assert comment["body"] == "Your v2 API docs still show the old auth flow."


async def test_a_call_asked_for_in_a_forwarded_quote_is_booked_with_who_asked(anna: Conversation) -> None:
    r = await anna.say('From Li Wei: "Can we get a 45 min call next Monday at 11?"\npls book')
    [event] = writes(r)
    assert (event["start"], event["duration_minutes"], event["attendees"]) == (
        "2026-11-30T11:00:00+03:00",
        45,
        ["Li Wei"],
    )


async def test_a_task_heading_above_a_meeting_at_an_hour_books_the_meeting(anna: Conversation) -> None:
    r = await anna.say("таска: созвон с командой ромашки в чт в 16 на час")
    [event] = writes(r)
    assert (event["op"], event["start"], event["title"]) == (
        "create_event",
        "2026-11-26T16:00:00+03:00",
        "Созвон с командой ромашки",
    )
