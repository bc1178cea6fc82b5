"""`python -m bot`: the same as `planner-mcp telegram`."""

import sys

from bot.app import main

sys.exit(main())
