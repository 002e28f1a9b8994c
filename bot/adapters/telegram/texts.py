"""The few words the Telegram adapter says itself (TR/EN) and the command menu it registers.

Everything about games comes from the core; these are only Telegram-specific prompts.
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "tr": {
        "need_start": (
            "{name}, sana özelden yazamıyorum (kartların, ıstakan, bakiyen). Aşağıdaki düğmeye bas "
            "ve sohbette Başlat'a dokun; güncel kartların ya da ıstakan hemen gelir."
        ),
        "private_only": (
            "{name}, sana yalnızca özelden cevap verebilirim. Düğmeye bas, sohbette Başlat'a "
            "dokun ve yeniden dene."
        ),
        "start_button": "Özel sohbeti başlat",
        "web_table_button": "🂠 Canlı masa",
        "web_table_numbered": "🂠 Masa {number}",
        "started": "Hazırım! Kartların ve ıstakan bu sohbete gelecek.",
        "bad_button": "Bu düğme geçersiz.",
        "amount_prompt": "{name}, {action}: bir miktar seç ya da bu mesaja yanıt olarak yaz (ör. {example}).",
        "amount_private": "{action}: bir miktar seç ya da bu mesaja yanıt olarak yaz (ör. {example}).",
        "amount_max": "En çok {n}",
        "draw_prompt": "En çok {n} kart seç ve değiştir; hiç seçmezsen servis yaparsın.",
        "draw_confirm": "Değiştir: {cards}",
        "draw_pat": "Servis (değiştirme)",
        "draw_typed": "Kartların okunamadı: /poker draw yazıp değiştireceğin kartları ekle (ör. /poker draw Ah 7c).",
        "picker_gone": "Bu seçim artık geçerli değil.",
        "too_many": "En çok {n} kart seçebilirsin.",
        "write_as_yourself": (
            "Kanal adına ya da anonim yönetici olarak yazılanları oynatamam: herkes aynı "
            "hesaba düşer. Lütfen kendi hesabınla yaz."
        ),
        "rooms_ask_admin": "Turnuva masaları şimdilik bu sohbeti paylaşıyor. Her masaya ayrı bir konu açabilmem için bir yönetici bana konuları yönetme (Manage Topics) izni verebilir.",
    },
    "en": {
        "need_start": (
            "{name}, I can't message you privately yet (your cards, rack, balance). Press the "
            "button below and tap Start in the chat; your current cards or rack arrive right away."
        ),
        "private_only": (
            "{name}, I can only answer you privately. Press the button, tap Start in the chat "
            "and try again."
        ),
        "start_button": "Start the private chat",
        "web_table_button": "🂠 Live table",
        "web_table_numbered": "🂠 Table {number}",
        "started": "Ready! Your cards and rack will arrive in this chat.",
        "bad_button": "This button is not valid.",
        "amount_prompt": "{name}, {action}: pick an amount or type it as a reply to this message (e.g. {example}).",
        "amount_private": "{action}: pick an amount or type it as a reply to this message (e.g. {example}).",
        "amount_max": "Max {n}",
        "draw_prompt": "Pick up to {n} cards to exchange; pick none to stand pat.",
        "draw_confirm": "Exchange: {cards}",
        "draw_pat": "Stand pat",
        "draw_typed": "I could not read your cards: type /poker draw and the cards to exchange (e.g. /poker draw Ah 7c).",
        "picker_gone": "This choice is no longer valid.",
        "too_many": "You may pick at most {n} cards.",
        "write_as_yourself": (
            "I can't play messages sent as a channel or by an anonymous admin: they all look "
            "like one account. Please write as yourself."
        ),
        "rooms_ask_admin": "Tournament tables share this chat for now. To give each table a topic of its own, an admin can allow me to manage topics (Manage Topics).",
    },
}


def text(locale: str, key: str, **params: object) -> str:
    """One adapter text in `locale`, which must be `tr` or `en`: resolve a missing platform
    locale to the bot's default before asking."""
    table = TEXTS.get(locale)
    if table is None:
        raise ValueError(f"adapter texts speak tr or en, not {locale!r}")
    return table[key].format(**params)


# (command, Turkish description, English description) for Telegram's command menu. Menu entries
# may only use a-z, 0-9 and `_`, hence `poker_open` for `/poker open` (both work).
MENU: tuple[tuple[str, str, str], ...] = (
    (
        "poker_open",
        "Poker masası aç (turkish|acik, ante, kurallar: deste=32 …)",
        "Open a poker table (turkish|acik, ante, house rules: deck=32 …)",
    ),
    ("poker_join", "Poker masasına otur (alış miktarı)", "Join the poker table (buy-in)"),
    ("poker_start", "Eli başlat", "Start the hand"),
    ("poker_leave", "Masadan kalk", "Leave the table"),
    ("poker_hand", "Kartlarımı yeniden gönder", "Resend my cards"),
    ("poker_table", "Masayı göster", "Show the table"),
    (
        "poker_rules",
        "Masanın kuralları (yönetici: ayarla ad=değer)",
        "The table's rules (moderators: set name=value)",
    ),
    (
        "okey_start",
        "Okey masası aç (1|3 el, bahis, kurallar: geriat=açık …)",
        "Open an Okey table (1|3 rounds, stake, house rules: takeback=on …)",
    ),
    (
        "okey_start_101",
        "101 Okey masası aç (el: 1|3|5|7|9|11, bahis, kurallar: açış=101 eşli=açık …)",
        "Open a 101 Okey table (rounds: 1|3|5|7|9|11, stake, house rules: open=101 partners=on …)",
    ),
    ("okey_join", "Okey masasına otur", "Join the Okey table"),
    ("okey_begin", "Okey oyununu başlat", "Begin the Okey game"),
    ("okey_rack", "Istakamı yeniden gönder", "Resend my rack"),
    (
        "okey_lay",
        "101: el aç ya da per indir (taş yazmazsan en iyileri; çift: çiftten)",
        "101: open or lay down melds (my best ones unless I name tiles; pairs: with pairs)",
    ),
    (
        "okey_add",
        "101: masadaki pere taş işle (taş, per no)",
        "101: add a tile to a meld (tile, meld)",
    ),
    (
        "okey_swap",
        "101: perdeki okeyin yerine taşını koy, okeyi al (taş, per no)",
        "101: put a tile in place of a meld's okey and take the okey (tile, meld)",
    ),
    (
        "okey_rules",
        "Okey masasının kuralları (yönetici: ayarla ad=değer)",
        "The Okey table's rules (moderators: set name=value)",
    ),
    (
        "tournament_okey",
        "Okey turnuvası aç (ücret, 1|3 el, masa, bots=on, start=21:30 ya da in=15m)",
        "Open an Okey tournament (fee, 1|3 rounds, tables, bots=on, start=21:30 or in=15m)",
    ),
    (
        "tournament_okey_101",
        "101 Okey turnuvası aç (ücret, el: 1|3|5|7|9|11, masa, bots=on, start=21:30)",
        "Open a 101 Okey tournament (fee, rounds: 1|3|5|7|9|11, tables, bots=on, start=21:30)",
    ),
    (
        "tournament_poker",
        "Tek masalık poker turnuvası aç (turkish|acik, ücret, fiş, dakika)",
        "Open a poker sit-and-go (turkish|acik, fee, chips, ante level minutes)",
    ),
    ("tournament_join", "Turnuvaya kaydol", "Register for the tournament"),
    ("tournament_leave", "Turnuvadan ayrıl", "Leave the tournament"),
    ("tournament_start", "Turnuvayı başlat (düzenleyen)", "Start the tournament (organiser)"),
    ("tournament_standings", "Turnuva sıralaması", "The tournament's standings"),
    ("tournament_cancel", "Turnuvayı iptal et (düzenleyen)", "Cancel the tournament (organiser)"),
    (
        "season",
        "Sezon: liderler ve kalan süre (numara: geçmiş sezon; yönetici: uzunluk aylık|haftalık|gün)",
        "The season: leaders, time left (a number: a past one; moderators: length monthly|weekly|days)",
    ),
    ("table_reset", "Masayı sıfırla (yönetici)", "Reset the table (moderators)"),
    ("balance", "Fişlerin", "Your chips"),
    ("daily", "Günlük fiş", "Daily chips"),
    (
        "leaderboard",
        "Bu topluluğun sıralaması (chips|okey|101|wins|rating oyun, herkes için: global)",
        "This community's leaderboard (chips|okey|101|wins|rating game, everyone: global)",
    ),
    (
        "rating",
        "Beceri puanı (@oyuncu, oyun: turkish|acik|okey|101)",
        "Skill rating (@player, game: turkish|acik|okey|101)",
    ),
    (
        "history",
        "Son ellerim (oyun: turkish|acik|okey|101)",
        "My last hands (game: turkish|acik|okey|101)",
    ),
    (
        "stats",
        "İstatistikler (@oyuncu, oyun: turkish|acik|okey|101)",
        "Statistics (@player, game: turkish|acik|okey|101)",
    ),
    ("replay", "Bitmiş bir eli izle (el no)", "Replay a finished hand (hand id)"),
    ("export", "Bir elin kaydını dosya olarak al (el no)", "A hand's history as a file (hand id)"),
    ("verify", "Bir eli doğrula (el no)", "Verify a hand (hand id)"),
    ("lang", "Dil: tr|en", "Language: tr|en"),
    (
        "tiles",
        "Taşlarım: simge|renk (her renge bir şekil)",
        "My tiles: symbols|colours (a shape per colour)",
    ),
    ("help", "Yardım", "Help"),
)
