"""Write the golden table messages by hand, after a deliberate change to what the table message
says (its catalogue lines, its layout):

    .venv/bin/python -m tests.core.make_table_texts
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tests.core.table_text_scenes import SCENES, table_texts

GOLDEN = Path(__file__).with_name("golden") / "table_texts.json"


async def main() -> None:
    """Write golden/table_texts.json: every scene's table message texts."""
    texts = {name: await table_texts(name) for name in SCENES}
    GOLDEN.write_text(json.dumps(texts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
