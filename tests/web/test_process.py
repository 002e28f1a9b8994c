"""`python -m bot` with no token: the console and the web table on loopback; a page connected
when SIGTERM comes does not keep the process from stopping cleanly."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
STOP_LIMIT = 10.0


async def test_console_and_web_stop_on_sigterm_with_a_page_open(tmp_path):
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--console",
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DEFAULT_LOCALE": "en",
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/bot.db",
            "WEB_PORT": "0",
        },
        cwd=tmp_path,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"ayse: /okey start\nayse: /table web\n")
        await proc.stdin.drain()
        link = None
        while link is None:
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
            assert line, "the console ended early"
            found = re.search(r"(http://127\.0\.0\.1:\d+)/t/(\S+)", line)
            if found:
                link = found.groups()
        base, token = link
        async with aiohttp.ClientSession() as http:
            answer = await http.post(f"{base}/api/auth/link", json={"token": token})
            assert answer.status == 200
            session = (await answer.json())["session"]
            ws = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
            await ws.send_json({"type": "hello", "session": session})
            first = await ws.receive_json(timeout=30)
            assert first["type"] == "state" and first["view"]["me"] == 0
            proc.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(proc.communicate(), STOP_LIMIT)
            await ws.close()
        assert proc.returncode == 0, err.decode()
        assert b"[console] bye" in out and b"Traceback" not in err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
