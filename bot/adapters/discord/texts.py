"""The few words the Discord adapter says itself, in Turkish and English.

Everything about games comes from the core; these are only Discord-specific labels and notices.
"""

from __future__ import annotations

from bot.core.i18n import normalize_locale

TEXTS: dict[str, dict[str, str]] = {
    "tr": {
        "show_hand": "Elimi göster",
        "amount_label": "Miktar ({min}-{max})",
        "amount_label_open": "Miktar",
        "draw_prompt": "Değiştireceğin kartları seç (en çok {n}); hiç seçmezsen servis yaparsın.",
        "draw_placeholder": "Değiştirilecek kartlar",
        "draw_unreadable": "Kartların okunamadı: /poker el ile bak, sonra **Değiştir** düğmesine "
        "yeniden bas.",
        "dm_closed": "{mention}, özel mesajların kapalı: kartlarını görmek için masadaki "
        "**Elimi göster** düğmesine bas.",
        "private_waiting": "{mention}, sana özel bir mesaj var: masadaki **Elimi göster** "
        "düğmesine bas.",
        "failed": "Bir şeyler ters gitti; tekrar dene.",
        "cannot_post": "Bu kanala yazamıyorum: bota Mesaj Gönder ve Dosya Ekle izinlerini ver.",
        "channel_failed": "Discord'a şu an ulaşılamadı, masa mesajı güncellenemedi; "
        "/poker masa ya da /okey masa ile yeniden göster.",
        "unknown_command": "Bu komut artık yok; güncel komutları görmek için / yaz.",
        "rules_pair": "Bir masa kuralını değiştirmek için hem seçeneği hem değeri ver (ör. "
        "seçenek deste, değer 32); kuralları görmek için ikisini de boş bırak.",
        "open_table": "Masayı aç",
        "activity_off": "Canlı masa bu sunucuda kapalı; oyuna bu mesajın düğmeleriyle devam et.",
        "activity_failed": "Discord canlı masayı burada açamadı (Etkinlikler bu kanalda "
        "çalışmıyor olabilir); oyuna bu mesajın düğmeleriyle devam et.",
        "activity_stale": "Bu düğmenin masası bu kanalda açık değil (kapanmış olabilir); "
        "canlı masayı açık bir masanın mesajından aç.",
    },
    "en": {
        "show_hand": "Show my hand",
        "amount_label": "Amount ({min}-{max})",
        "amount_label_open": "Amount",
        "draw_prompt": "Pick the cards to exchange (at most {n}); pick none to stand pat.",
        "draw_placeholder": "Cards to exchange",
        "draw_unreadable": "I could not read your cards: see /poker hand, then press **Exchange** "
        "again.",
        "dm_closed": "{mention}, your direct messages are closed: press **Show my hand** on the "
        "table to see your cards.",
        "private_waiting": "{mention}, something private is waiting for you: press **Show my "
        "hand** on the table.",
        "failed": "Something went wrong; please try again.",
        "cannot_post": "I cannot post in this channel: give the bot Send Messages and Attach "
        "Files.",
        "channel_failed": "Discord could not be reached just now and the table message was not "
        "updated; /poker table or /okey table shows it again.",
        "unknown_command": "This command no longer exists; type / to see the current ones.",
        "rules_pair": "To change a house rule give both the option and the value (e.g. option "
        "deck, value 32); to see the rules leave both out.",
        "open_table": "Open the table",
        "activity_off": "The live table is turned off here; play on with this message's buttons.",
        "activity_failed": "Discord could not open the live table here (Activities may not run "
        "in this channel); play on with this message's buttons.",
        "activity_stale": "This button's table is not open in this channel (it may have "
        "closed); open the live table from an open table's message.",
    },
}


def locale_of(value: object) -> str | None:
    """`tr`, `en` or None from a Discord locale (`discord.Locale.turkish`, `en-US`, `de`, ...),
    normalised as the core does (`bot.core.i18n.normalize_locale`)."""
    raw = getattr(value, "value", value)
    return normalize_locale(raw if isinstance(raw, str) else None)


def text(locale: str, key: str, **params: object) -> str:
    """One adapter text in `locale`, which must be `tr` or `en`: resolve a missing platform
    locale to the bot's default (or the table's language) before asking."""
    table = TEXTS.get(locale)
    if table is None:
        raise ValueError(f"adapter texts speak tr or en, not {locale!r}")
    return table[key].format(**params)
