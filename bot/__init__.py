"""A Telegram bot for the planner: a reference MCP client for people on the go.

It talks to the planner only over MCP (Streamable HTTP, or a spawned stdio server) and never imports
the planner's packages. Start it with `planner-mcp telegram` (see the README's "Telegram" section).
"""

from bot.config import BotConfig, ConfigError

__all__ = ["BotConfig", "ConfigError"]
