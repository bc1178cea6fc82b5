"""What a person reads when Attio, Linear or the calendar cannot be reached: the fix, in their language.

A `NotConnected` names its toolkit, the Composio user and the command that fixes it, so the person
reads the same fix `planner-mcp doctor` prints ("Linear is not connected for Composio user 'default':
run `planner-mcp connect linear`"), never a bare class name. A refusal (`UpstreamRejected`, e.g. a
retired toolkit version) is said as it is; a transient failure keeps the general "try again" message.
"""

from __future__ import annotations

from server.render import t
from toolkits.errors import NotConnected, ToolkitError

__all__ = ["explain"]

_SYSTEMS = {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}


def explain(exc: ToolkitError, lang: str) -> str:
    """The message for a planning read that failed with `exc`; nothing was changed."""
    unchanged = t(lang, " Ничего не изменено.", " Nothing was changed.")
    if not isinstance(exc, NotConnected):
        return (
            t(
                lang,
                "Не удалось прочитать данные из Attio/Linear — попробуйте ещё раз чуть позже.",
                "Could not read from Attio/Linear - please try again shortly.",
            )
            + unchanged
        )
    if lang != "ru":
        return str(exc) + unchanged
    system = _SYSTEMS.get(exc.toolkit or "", exc.toolkit or "")
    user = exc.user_id or "default"
    variable = f"COMPOSIO_CONNECTED_ACCOUNT_{(exc.toolkit or '').upper()}"
    text = {
        "not_connected": (
            f"{system} не подключён для пользователя Composio «{user}»: выполните `{exc.fix}` "
            "(аккаунт, подключённый в панели Composio, принадлежит показанному там user id — укажите его "
            "в COMPOSIO_USER_ID)."
        ),
        "expired": f"Доступ к {system} для пользователя Composio «{user}» истёк: снова выполните `{exc.fix}`.",
        "user_mismatch": (
            f"Аккаунт из {variable} принадлежит другому пользователю Composio, не «{user}»: укажите его "
            f"в COMPOSIO_USER_ID или уберите {variable} (`planner-mcp doctor` покажет оба)."
        ),
        "user_required": (
            f"Composio нужен user id подключённого аккаунта {system}: задайте COMPOSIO_USER_ID "
            "(`planner-mcp doctor` его покажет)."
        ),
    }.get(
        exc.reason, "Composio не принял API-ключ: проверьте COMPOSIO_API_KEY командой `planner-mcp doctor`."
    )
    detail = f" {exc.detail}" if exc.detail else ""
    return text + detail + unchanged
