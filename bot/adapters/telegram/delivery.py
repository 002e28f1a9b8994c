"""Outgoing items → Bot API calls: the living table message, announcements, private messages,
amount prompts and refusals.

Rules kept here:
- Group traffic goes through the per-chat `Outbox` (never awaited by an update handler);
  private messages and press answers go out directly, so they never wait behind the group.
- The table message: one per table, edited to the newest state (a pending edit is replaced by a
  newer one; an edit that would change nothing is skipped). `fresh` posts it anew at the bottom
  and deletes the old one (or at least takes its buttons away). With a store the message is
  shared by every process (`bot.adapters.surfaces`): memory is a cache, the stored one is read
  on a miss (and when the remembered one is gone), and every post is stored.
- Refusals are private: a press's refusal is its pop-up alert; a typed command's goes to the
  user's private chat, or, when they have not started it, the group gets one short reply
  (mention + deep link, never the reason) that is deleted after a few seconds; once per user
  and group until they start it.
- A private item for a user who has not started the bot is not kept: the group gets (once) a
  deep-link prompt with no card; on Start the user gets the current state of those tables.
- A file (`Outgoing.attachment`, e.g. a hand's export) goes out with `sendDocument` under its own
  name, as the caption's document when the text fits, else right after the text; a PRIVATE one
  goes to the private chat like any private item (never to the group).
- A failed call (`Forbidden`, a deleted message, a network error) is logged and the other items
  still go out: nothing here ever stops a table.
- Play before answers (issue 25): the table message, announcements and turn prompts go through
  the outbox as `Priority.TABLE`; what answers one member (a typed command's batch with no table
  in it, e.g. `/help` in a group without a table; short replies) as `Priority.ANSWER`, behind
  them, and an identical answer already waiting is not queued again.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial

from telegram import (
    Bot,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.adapters.batch import coalesce
from bot.adapters.surfaces import SharedMessages
from bot.adapters.telegram.callbacks import CallbackCodec
from bot.adapters.telegram.outbox import Outbox, Priority, Sleep
from bot.adapters.telegram.parsing import Place, deep_link
from bot.adapters.telegram.pickers import amount_sizes
from bot.adapters.telegram.posts import (
    Announcement,
    Origin,
    TableMessage,
    as_int,
    button_ids,
    posted_message,
    recalled_message,
)
from bot.adapters.telegram.private import (
    MAX_CAPTION,
    MAX_TEXT,
    Parcel,
    PrivateChats,
    fit,
    markup_dict,
    reply_to,
    send,
    take_buttons,
)
from bot.adapters.telegram.texts import text as adapter_text
from bot.adapters.telegram.web_buttons import web_rows, with_web_rows
from bot.caches import Lru
from bot.core.messages import Button, Mention, Outgoing, OutKind
from bot.logs import kv

__all__ = ["Delivery", "Origin", "Parcel", "TableMessage", "as_int", "fit"]

log = logging.getLogger("bot.telegram")

MAX_ALERT = 200
START_PAYLOAD = "cards"
MAX_REMEMBERED_BUTTONS = 5_000
MAX_TOLD_TO_START = 100_000  # (user, group) pairs remembered as told to start the chat
MAX_USERS = 20_000  # users whose name and language are remembered (LRU)
SHORT_REPLY_SECONDS = 8.0  # how long the group keeps a "I answer you privately" reply


def mention_html(text: str, mention: Mention) -> str:
    """`text` as HTML whose leading name (`Mention.name`) links to the user, so that they are
    notified; the rest escaped."""
    name = html.escape(mention.name)
    link = f'<a href="tg://user?id={html.escape(mention.user_id)}">{name}</a>'
    if text.startswith(mention.name):
        return link + html.escape(text[len(mention.name) :])
    return f"{link} {html.escape(text)}"


class Delivery:
    """Sends the core's outgoing items through a `telegram.Bot` and remembers table messages."""

    def __init__(
        self,
        bot: Bot,
        codec: CallbackCodec,
        default_locale: str = "tr",
        table_locale: Callable[[str], str | None] | None = None,
        chosen_locale: Callable[[int], Awaitable[str | None]] | None = None,
        *,
        sleep: Sleep = asyncio.sleep,
        short_reply_seconds: float = SHORT_REPLY_SECONDS,
        shared: SharedMessages | None = None,
    ) -> None:
        self.bot = bot
        self.shared = shared or SharedMessages(None, "telegram")  # table messages in the store
        self.codec = codec
        self.default_locale = default_locale
        self.table_locale = table_locale  # a table id -> its language, when the core knows it
        self.chosen_locale = chosen_locale  # a user id -> their `/lang` choice (read only)
        self.outbox = Outbox(sleep)
        self.private = PrivateChats(bot)
        self.short_reply_seconds = short_reply_seconds
        self.tables: dict[str, TableMessage] = {}
        self.table_chats: dict[str, Place] = {}  # table id -> where its group messages go
        self.live_buttons: dict[str, set[str]] = {}  # table id -> ids on its newest state
        self.buttons: OrderedDict[str, Button] = OrderedDict()
        self.prompts: dict[tuple[int, int], tuple[str, int]] = {}  # message -> (custom id, user)
        # per user, with no event that says they are gone: the least recent forgotten first
        self.names: Lru[int, str] = Lru(MAX_USERS)
        self.locales: Lru[int, str] = Lru(MAX_USERS)
        self._asked: set[tuple[str, int]] = set()  # (custom id, user) with an amount prompt
        self._prompted: set[int] = set()  # users asked (in a group) to start the private chat
        self._short_replies: set[int] = set()  # users with a short reply up in a group
        # (user, place) told there to start the private chat: once each, until they Start
        self._told_to_start: set[tuple[int, str]] = set()
        # newest unwritten table states, with their keyboards
        self._wanted: dict[str, tuple[Outgoing, Place, InlineKeyboardMarkup | None]] = {}
        # a table id -> the Mini App's direct link to its live web table (None: no button)
        self.web_table_link: Callable[[str], str | None] | None = None

    # ---- bookkeeping -------------------------------------------------------------------------
    def saw_user(self, user_id: int, name: str, locale: str | None) -> None:
        """Remember a user's display name and language for prompts that mention them."""
        self.names[user_id] = name
        if locale:
            self.locales[user_id] = locale

    async def speaks(self, user_id: int, table_id: str | None = None) -> str:
        """The language of the adapter's own words to a user about a table: their `/lang`
        choice, else their Telegram language when it is Turkish or English, else the table's,
        else the bot's default."""
        known = await self.chosen_locale(user_id) if self.chosen_locale is not None else None
        known = known or self.locales.get(user_id)
        if known is None and table_id is not None and self.table_locale is not None:
            known = self.table_locale(table_id)
        return known or self.default_locale

    def keyboard(self, rows: Sequence[Sequence[Button]]) -> InlineKeyboardMarkup | None:
        """An inline keyboard for the core's button rows (None for no buttons); buttons that need
        input (an amount, cards) are remembered so a press can ask for it."""
        for row in rows:
            for button in row:
                if button.needs is not None:
                    self.buttons[button.custom_id] = button
                    self.buttons.move_to_end(button.custom_id)
        while len(self.buttons) > MAX_REMEMBERED_BUTTONS:
            self.buttons.popitem(last=False)
        keyboard = [
            [
                InlineKeyboardButton(fit(b.label, 64), callback_data=self.codec.encode(b.custom_id))
                for b in row
            ]
            for row in rows
            if row
        ]
        return InlineKeyboardMarkup(keyboard) if keyboard else None

    def forget_table(self, table_id: str) -> None:
        """Drop everything kept about a closed table: its message, chat, live buttons, amount
        prompts and its players' private messages of it (the store keeps the message record
        for other processes; a table that is in fact still open is recalled from it)."""
        self.tables.pop(table_id, None)
        self.table_chats.pop(table_id, None)
        self.live_buttons.pop(table_id, None)
        self.buttons = OrderedDict(
            (k, b) for k, b in self.buttons.items() if b.table_id != table_id
        )
        self.prompts = {
            k: v for k, v in self.prompts.items() if not v[0].startswith(f"{table_id}:")
        }
        self._asked = {a for a in self._asked if not a[0].startswith(f"{table_id}:")}
        self.private.forget_table(table_id)

    def known_tables(self) -> set[str]:
        """Every table id this delivery keeps something about."""
        return {*self.tables, *self.table_chats, *self.live_buttons}

    def prune(self, is_open: Callable[[str], bool]) -> int:
        """Forget the tables `is_open` says are closed (a table with a write still waiting is
        kept until it is written); how many were forgotten."""
        gone = [t for t in self.known_tables() if t not in self._wanted and not is_open(t)]
        for table_id in gone:
            self.forget_table(table_id)
        return len(gone)

    def _with_web_table(
        self, markup: InlineKeyboardMarkup | None, item: Outgoing
    ) -> InlineKeyboardMarkup | None:
        """The table message's keyboard with last rows opening the live web table (a
        tournament's message: each of its tables, `web_buttons`), when `web_table_link` is
        set (WEB_PUBLIC_URL and TELEGRAM_WEBAPP_NAME)."""
        if self.web_table_link is None or item.table_id is None:
            return markup
        table_id = item.table_id
        locale = (self.table_locale(table_id) if self.table_locale else None) or self.default_locale
        return with_web_rows(markup, web_rows(item, self.web_table_link, locale))

    def _with_web_app(
        self, markup: InlineKeyboardMarkup | None, item: Outgoing, user_id: int
    ) -> InlineKeyboardMarkup | None:
        """A private answer that gives the user's web table address (`/table web`) gets a
        web-app button opening it inside Telegram (allowed in private chats, https only)."""
        if item.web_url is None or not item.web_url.startswith("https://"):
            return markup
        locale = self.locales.get(user_id) or self.default_locale
        button = InlineKeyboardButton(
            adapter_text(locale, "web_table_button"), web_app=WebAppInfo(item.web_url)
        )
        rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
        rows.append([button])
        return InlineKeyboardMarkup(rows)

    def is_live(self, table_id: str, custom_id: str) -> bool:
        """Whether the table's newest state still carries this button (the turn is the same)."""
        return custom_id in self.live_buttons.get(table_id, set())

    async def flush(self, timeout: float) -> None:
        """Send all queued group traffic now (see `Outbox.flush`)."""
        await self.outbox.flush(timeout)

    # ---- the batch ---------------------------------------------------------------------------
    @staticmethod
    def split(items: Sequence[Outgoing], origin: Origin) -> tuple[list[str], list[Outgoing]]:
        """For a press: the refusals to show as its pop-up alert, and the other items."""
        if origin.callback is None:
            return [], list(items)
        alerts, rest = [], []
        for item in items:
            mine = item.user_id is None or item.user_id == str(origin.user_id)
            if item.kind is OutKind.ERROR and mine:
                alerts.append(item.text)
            else:
                rest.append(item)
        return alerts, rest

    async def deliver(self, items: Sequence[Outgoing], origin: Origin) -> None:
        """Deliver a batch: private items now, group items queued in order. Refusals of a
        press must have been taken out with `split` and answered first."""
        # Only the last edit of a table in the batch is kept (`coalesce`; a repost asked by an
        # earlier one still happens).
        # what a member typed that brought no table along answers that member alone
        answer = (
            origin.user_id is not None
            and origin.callback is None
            and all(item.table_id is None for item in items)
        )
        for item in coalesce(items):
            try:
                if item.kind is OutKind.EDIT_TABLE and item.table_id is not None:
                    await self._queue_table(item, origin)
                elif item.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE):
                    await self._public(item, origin, answer)
                elif item.kind is OutKind.PRIVATE:
                    await self._private(item, origin)
                else:
                    await self._refusal(item, origin)
            except TelegramError as exc:
                log.warning(kv(event="delivery_failed", kind=item.kind.value, error=exc))

    def _group_of(self, item: Outgoing, origin: Origin) -> Place | None:
        """Where an item belongs (its table's place, its channel, or the origin)."""
        if item.table_id is not None and item.table_id in self.table_chats:
            return self.table_chats[item.table_id]
        return Place.parse(item.channel_id) or origin.place

    # ---- announcements -----------------------------------------------------------------------
    async def _public(self, item: Outgoing, origin: Origin, answer: bool = False) -> None:
        """A new message in the item's chat; `answer`: it answers one member (see the module's
        rules), so it waits behind the play and an identical waiting answer stands for it."""
        place = self._group_of(item, origin)
        if place is None:
            log.warning(kv(event="public_without_chat", table=item.table_id))
            return
        markup = self.keyboard(item.buttons)
        if item.table_id is not None and place.is_group:
            self.table_chats.setdefault(item.table_id, place)
        priority = Priority.ANSWER if answer else Priority.TABLE
        same = ("answer", place.thread_id, item.text, item.picture) if answer else None
        if item.mention is not None and place.is_group:  # a relaxed table's turn: its own message
            call = partial(
                self.bot.send_message,
                place.chat_id,
                mention_html(item.text, item.mention),
                parse_mode=ParseMode.HTML,
                **place.send_kwargs(),
            )
            self.outbox.post(place.chat_id, call, priority=priority)
            return
        if place.is_group and markup is None and item.picture is None and item.attachment is None:
            waiting = self.outbox.last(place.chat_id, priority)
            if waiting is None or not (
                isinstance(waiting.run, Announcement) and waiting.run.add(place, item.text)
            ):
                announcement = Announcement(self.bot, place, item.text, unique=answer)
                self.outbox.post(place.chat_id, announcement, priority=priority, same=same)
            return
        run = partial(
            send,
            self.bot,
            place.chat_id,
            item.text,
            item.picture,
            markup,
            item.attachment,
            **place.send_kwargs(),
        )
        if place.is_group:
            self.outbox.post(place.chat_id, run, priority=priority, same=same)
        else:  # an answer in a private chat (e.g. /help typed there)
            await run()

    # ---- the table message -------------------------------------------------------------------
    async def _queue_table(self, item: Outgoing, origin: Origin) -> None:
        """Queue the table's newest state; a pending older state of it is dropped (a `fresh`
        repost asked for by it is kept)."""
        assert item.table_id is not None
        table_id = item.table_id
        place = self._group_of(item, origin)
        if place is None:
            log.warning(kv(event="table_without_chat", table=table_id))
            return
        waiting = self._wanted.get(table_id)
        if waiting is not None and waiting[0].fresh and not item.fresh:
            item = replace(item, fresh=True)
        markup = self.keyboard(item.buttons)  # remembers buttons that need input before a press
        markup = self._with_web_table(markup, item)
        self.live_buttons[table_id] = button_ids(item.buttons)
        self._wanted[table_id] = (item, place, markup)
        self.outbox.post(place.chat_id, partial(self._write_table, table_id), key=table_id)
        if self.prompts or self._asked:
            await self.clear_prompts(table_id)

    async def _write_table(self, table_id: str) -> None:
        """Write the newest wanted state of the table (the outbox's job for it)."""
        wanted = self._wanted.pop(table_id, None)
        if wanted is not None:
            await self._apply_edit(*wanted)

    async def _apply_edit(
        self,
        item: Outgoing,
        place: Place,
        markup: InlineKeyboardMarkup | None,
        recalled: bool = False,
    ) -> None:
        """Edit the table message to the item's state, or post it anew (see the module's rules).
        `recalled`: the store was read already for this write."""
        assert item.table_id is not None
        current = self.tables.get(item.table_id)
        if current is None and not recalled:  # another process may have posted it
            current = await self._recall(item.table_id)
            recalled = True
        if item.fresh or current is None or (item.picture is not None and not current.photo):
            message = await send(
                self.bot, place.chat_id, item.text, item.picture, markup, **place.send_kwargs()
            )
            await self._record_table_message(item, message, markup, place)
            return
        limit = MAX_CAPTION if current.photo else MAX_TEXT
        new_text = fit(item.text, limit)
        new_markup = markup_dict(markup)
        unchanged = current.text == new_text and current.markup == new_markup
        if item.picture is None and unchanged and not current.recalled:
            return  # nothing would change; Telegram would refuse the edit anyway
        chat_id, message_id = current.chat_id, current.message_id
        try:
            if item.picture is not None:
                media = InputMediaPhoto(item.picture, caption=new_text)
                await self.bot.edit_message_media(media, chat_id, message_id, reply_markup=markup)
            elif current.photo:
                await self.bot.edit_message_caption(
                    chat_id, message_id, caption=new_text, reply_markup=markup
                )
            else:
                await self.bot.edit_message_text(new_text, chat_id, message_id, reply_markup=markup)
        except BadRequest as exc:
            reason = str(exc).lower()
            if "not modified" in reason:
                pass
            elif "not found" in reason:  # deleted: by another process that posted it anew?
                self.tables.pop(item.table_id, None)
                if not recalled:
                    await self._recall(item.table_id, gone=current.message_id)
                await self._apply_edit(item, place, markup, recalled=True)  # else post it again
                return
            else:
                raise
        current.text, current.markup, current.recalled = new_text, new_markup, False

    async def _recall(self, table_id: str, gone: int | None = None) -> TableMessage | None:
        """The table message as the store has it (another process posted it), remembered; None
        when none is stored, or it is the message `gone` (known to be deleted)."""
        stored = await self.shared.recall(table_id)
        message = None if stored is None else recalled_message(stored)
        if message is None or message.message_id == gone:
            return None
        self.tables[table_id] = message
        return message

    async def _record_table_message(
        self, item: Outgoing, message: Message, markup: InlineKeyboardMarkup | None, place: Place
    ) -> None:
        """Make `message` the table's message, stored for the other processes, and retire the
        old one: deleted when the table was posted afresh (its buttons taken away if that
        fails), else only its buttons go. A message of another process that this one did not
        know is retired the same way; when that process has stored a newer state meanwhile,
        its message stays the table's and `message` is deleted."""
        assert item.table_id is not None
        table_id = item.table_id
        old = self.tables.get(table_id)
        new = self.tables[table_id] = posted_message(message, markup)
        self.table_chats[table_id] = place
        done = await self.shared.record(
            table_id, message.chat_id, message.message_id, item.version, picture=bool(message.photo)
        )
        retire = [] if old is None else [(old, item.fresh)]
        if done is not None and done.other is not None:
            other = recalled_message(done.other)
            if not done.written and other is not None:  # a newer state is shown elsewhere
                self.tables[table_id] = other
                retire = [(m, f) for m, f in retire if m.message_id != other.message_id]
                retire.append((new, True))
            elif other is not None and (old is None or old.message_id != other.message_id):
                retire.append((other, item.fresh))
        for gone, delete in retire:
            if gone.message_id != self.tables[table_id].message_id:
                await self._retire(table_id, gone, delete)

    async def _retire(self, table_id: str, old: TableMessage, delete: bool) -> None:
        """Retire a table message that no longer shows the table: deleted when `delete` (its
        buttons taken away if that fails), else only its buttons go."""
        if delete:
            try:
                await self.bot.delete_message(old.chat_id, old.message_id)
                return
            except TelegramError as exc:
                log.info(kv(event="old_table_kept", table=table_id, error=exc))
        if old.markup is not None or old.recalled:
            await take_buttons(
                self.bot, old.chat_id, old.message_id, event="old_keyboard_kept", table=table_id
            )

    # ---- private messages --------------------------------------------------------------------
    async def _private(self, item: Outgoing, origin: Origin) -> None:
        user_id = as_int(item.user_id)
        if user_id is None:
            log.warning(kv(event="private_without_user", table=item.table_id))
            return
        parcel = Parcel(
            item.text,
            item.picture,
            self._with_web_app(self.keyboard(item.buttons), item, user_id),
            item.table_id,
            item.slot,
            item.attachment,
            fresh=origin.resend and user_id == origin.user_id,
        )
        await self.send_private(user_id, parcel, self._group_of(item, origin), origin)

    async def send_private(
        self, user_id: int, parcel: Parcel, group: Place | None, origin: Origin | None = None
    ) -> bool:
        """Send to the user's private chat. When they have not started the bot: for a message
        about a table, `group` gets (once) a deep-link prompt; for another answer to what they
        typed in a group, a short reply there. True when it was delivered now."""
        if await self.private.send(user_id, parcel):
            return True
        if parcel.table_id is not None:
            if group is not None and group.is_group and user_id not in self._prompted:
                await self._ask_to_start(user_id, group, parcel.table_id)
        elif origin is not None and origin.user_id == user_id and origin.callback is None:
            await self._short_reply(user_id, origin)
        return False

    async def _ask_to_start(self, user_id: int, place: Place, table_id: str | None) -> None:
        """Queue a deep-link prompt in the group; the message holds no card."""
        self._prompted.add(user_id)  # before any await: concurrent updates must not ask twice
        locale = await self.speaks(user_id, table_id)
        mention, markup = self._start_invite(user_id, locale)
        run = partial(
            self.bot.send_message,
            place.chat_id,
            adapter_text(locale, "need_start", name=mention),
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            **place.send_kwargs(),
        )
        self.outbox.post(place.chat_id, run)

    def _start_invite(self, user_id: int, locale: str) -> tuple[str, InlineKeyboardMarkup]:
        """The user's HTML mention and the deep-link button that starts their private chat."""
        name = self.names.get(user_id, str(user_id))
        mention = f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'
        link = deep_link(self.bot.username, START_PAYLOAD)
        button = InlineKeyboardButton(adapter_text(locale, "start_button"), url=link)
        return mention, InlineKeyboardMarkup([[button]])

    def started(self, user_id: int) -> list[str]:
        """The user pressed Start: returns the tables they missed private messages about (the
        adapter sends their current state)."""
        self._prompted.discard(user_id)
        self._told_to_start = {told for told in self._told_to_start if told[0] != user_id}
        return self.private.started(user_id)

    # ---- amount prompts ----------------------------------------------------------------------
    async def ask_amount(self, button: Button, place: Place, user_id: int) -> None:
        """Ask for the amount of `button`: a prompt with a few sizes (a typed reply to it works
        too) in the user's private chat, or in the group when they have not started it. One
        prompt per user and turn: pressing the button again sends nothing new."""
        if (button.custom_id, user_id) in self._asked:
            return
        self._asked.add((button.custom_id, user_id))
        locale = await self.speaks(user_id, button.table_id)
        sizes = amount_sizes(button.min_amount, button.max_amount)
        row = [
            InlineKeyboardButton(
                adapter_text(locale, "amount_max", n=n) if n == button.max_amount else str(n),
                callback_data=self.codec.encode(button.custom_id, str(n)),
            )
            for n in sizes
        ]
        markup = (
            InlineKeyboardMarkup([row[i : i + 3] for i in range(0, len(row), 3)]) if row else None
        )
        example = sizes[0] if sizes else 40
        action = html.escape(button.label)
        if self.private.reachable(user_id):
            text = adapter_text(locale, "amount_private", action=action, example=example)
            try:
                message = await self.bot.send_message(
                    user_id, text, parse_mode=ParseMode.HTML, reply_markup=markup
                )
                self.prompts[(user_id, message.message_id)] = (button.custom_id, user_id)
                return
            except Forbidden:
                self.private.refused(user_id)
        name = html.escape(self.names.get(user_id, str(user_id)))
        text = adapter_text(locale, "amount_prompt", name=name, action=action, example=example)

        async def post() -> None:
            message = await self.bot.send_message(
                place.chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                **place.send_kwargs(),
            )
            if (button.custom_id, user_id) in self._asked:
                self.prompts[(place.chat_id, message.message_id)] = (button.custom_id, user_id)
            else:  # the turn moved on while the prompt waited in the queue
                await self.bot.delete_message(place.chat_id, message.message_id)

        self.outbox.post(place.chat_id, post)

    def prompt_of(self, chat_id: int, message_id: int) -> tuple[str, int] | None:
        """The button id and user an amount prompt was posted for."""
        return self.prompts.get((chat_id, message_id))

    async def clear_prompts(self, table_id: str) -> None:
        """Delete the table's amount prompts whose button is gone from its newest state (the
        turn moved on, so they are stale): private ones now, group ones through the queue."""
        live = self.live_buttons.get(table_id, set())
        for asked in [a for a in self._asked if a[0].split(":", 1)[0] == table_id]:
            if asked[0] not in live:
                self._asked.discard(asked)
        for key, (custom_id, _user) in list(self.prompts.items()):
            if custom_id.split(":", 1)[0] != table_id or custom_id in live:
                continue
            del self.prompts[key]
            chat_id, message_id = key
            if chat_id < 0:
                self.outbox.post(chat_id, partial(self.bot.delete_message, chat_id, message_id))
                continue
            try:
                await self.bot.delete_message(chat_id, message_id)
            except TelegramError as exc:
                log.info(kv(event="prompt_kept", table=table_id, error=exc))

    # ---- refusals ----------------------------------------------------------------------------
    async def _refusal(self, item: Outgoing, origin: Origin) -> None:
        """A refusal of something typed: in the private chat (a reply when typed there); when
        the user has not started it, a short reply in the group without the reason."""
        target = as_int(item.user_id) or origin.user_id
        if target is None:
            return
        if origin.chat_id is not None and origin.chat_id == target:
            reply = reply_to(origin.message_id)
            await self.bot.send_message(target, fit(item.text, MAX_TEXT), reply_parameters=reply)
            return
        if await self.private.say(target, item.text):
            return
        if target == origin.user_id:
            await self._short_reply(target, origin)
        else:
            log.info(kv(event="refusal_undeliverable", user=target))

    async def _short_reply(self, user_id: int, origin: Origin) -> None:
        """Tell a user in the group, briefly, to start the private chat where the bot answers
        them. It never says why (so it cannot depend on anyone's cards) and is deleted after
        `short_reply_seconds`. A user gets one per group (topic) until they start the private
        chat, none when a deep-link prompt already asked them: each costs the group two calls."""
        place = origin.place
        if place is None or not place.is_group or user_id in self._short_replies:
            return
        if (user_id, place.key) in self._told_to_start or user_id in self._prompted:
            return
        if len(self._told_to_start) >= MAX_TOLD_TO_START:
            self._told_to_start.clear()
        self._told_to_start.add((user_id, place.key))
        self._short_replies.add(user_id)
        locale = await self.speaks(user_id)
        mention, markup = self._start_invite(user_id, locale)
        reply = reply_to(origin.message_id)

        async def post() -> None:
            try:
                message = await self.bot.send_message(
                    place.chat_id,
                    adapter_text(locale, "private_only", name=mention),
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup,
                    reply_parameters=reply,
                    **place.send_kwargs(),
                )
            except TelegramError:
                self._short_replies.discard(user_id)
                raise
            self.outbox.later(
                self.short_reply_seconds,
                place.chat_id,
                partial(self._delete_short_reply, user_id, place.chat_id, message.message_id),
                priority=Priority.ANSWER,
                dropped=partial(self._short_replies.discard, user_id),
            )

        # dropped from a full queue: the user may get a short reply again
        forget = partial(self._short_replies.discard, user_id)
        self.outbox.post(place.chat_id, post, priority=Priority.ANSWER, dropped=forget)

    async def refuse_stand_in(self, place: Place, message_id: int | None, locale: str) -> None:
        """Answer a message sent as a channel or an anonymous admin (`senders.is_stand_in`) in
        its chat: the person should write as themselves; nothing is played."""
        run = partial(
            self.bot.send_message,
            place.chat_id,
            adapter_text(locale, "write_as_yourself"),
            reply_parameters=reply_to(message_id),
            **place.send_kwargs(),
        )
        if place.is_group:
            self.outbox.post(place.chat_id, run)
        else:
            await run()

    async def _delete_short_reply(self, user_id: int, chat_id: int, message_id: int) -> None:
        self._short_replies.discard(user_id)
        await self.bot.delete_message(chat_id, message_id)

    async def answer(self, query: CallbackQuery, alerts: Sequence[str]) -> None:
        """Answer a button press: a refusal as an alert only the presser sees, else silently."""
        try:
            if alerts:
                await query.answer(fit("\n".join(alerts), MAX_ALERT), show_alert=True)
            else:
                await query.answer()
        except TelegramError as exc:
            log.warning(kv(event="answer_failed", error=exc))
