"""Regenerate the golden images by hand after a deliberate change to the pictures.

    .venv/bin/python -m tests.render.make_golden

Look at every image before committing it; the tests never regenerate anything themselves.
"""

from __future__ import annotations

from pathlib import Path

from tests.render.golden_scenes import GOLDEN

GOLDEN_DIR = Path(__file__).with_name("golden")


def main() -> None:
    """Write golden/<name>.png for every fixed scene."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, render in GOLDEN.items():
        path = GOLDEN_DIR / f"{name}.png"
        path.write_bytes(render())
        print(path)


if __name__ == "__main__":
    main()
