"""Days named in the lunar calendar (农历), by the key a brief gives for them.

Around the Spring Festival suppliers, logistics and some writers count days in the lunar calendar:
「腊月初九澄 ①」 is the brief of the day that was 腊月初九.  A lunar month has 29 or 30 days and starts on a
new moon, so no rule of thumb turns 腊月初九 into a date.  The writer who counts this way says what the
days are, in the brief's header, as any colleague would: 「今天腊月初十（1 月 17 日），昨天腊月初九，腊月初一是
1 月 8 日，冬月廿八是 1 月 5 日」.  Each such key fixes where its lunar month begins, and every other day of that
month follows from it; a day of a month the brief gives no key for is not read (the reference is asked
about, never guessed).
"""

from __future__ import annotations

import datetime as dt
import re

MONTH = r"(?P<month>十一|十二|正|二|三|四|五|六|七|八|九|十|冬|腊)"
DAY = r"(?P<day>初[一二三四五六七八九十]|十[一二三四五六七八九]|二十|廿[一二三四五六七八九]|三十)"
LUNAR = re.compile(rf"(?:农历)?{MONTH}月{DAY}")
"""A lunar day: 腊月初九, 冬月廿八, 正月十五 (冬月 is 十一月, 腊月 十二月)."""
_SAME_MONTH = {"十一": "冬", "十二": "腊", "一": "正"}
_DIGITS = "一二三四五六七八九十"

GREGORIAN = re.compile(
    r"\s*[（(]?\s*(?:是|即|为|＝|=)?\s*(?:公历|阳历)?\s*(?:(?P<year>20\d\d)\s*年\s*)?"
    r"(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]"
)
"""What a key says a lunar day is: 「（1 月 17 日）」, 「是 1 月 8 日」, 「＝1 月 5 日」."""
RELATIVE = re.compile(r"(?P<rel>今天|今日|今晚|昨天|昨日|昨晚)\s*(?:是\s*)?(?:农历)?$")
"""「今天腊月初十」, 「昨天腊月初九」: a key by the night the brief is dated."""


def month_name(month: str) -> str:
    """十二月 and 腊月 are one month, 十一月 and 冬月 another."""
    return _SAME_MONTH.get(month, month)


def day_number(day: str) -> int:
    """初九 → 9, 十五 → 15, 廿八 → 28, 二十 → 20, 三十 → 30."""
    if day.startswith("初"):
        return _DIGITS.index(day[1]) + 1
    if day == "二十":
        return 20
    if day == "三十":
        return 30
    return (10 if day[0] == "十" else 20) + _DIGITS.index(day[1]) + 1


def month_starts(text: str, today: dt.date | None) -> dict[str, dt.date]:
    """The first day (初一) of each lunar month ``text`` gives a key for, by the month's name."""
    if today is None:
        return {}
    starts: dict[str, dt.date] = {}
    for match in LUNAR.finditer(text):
        day = _keyed(text, match, today)
        if day is not None:
            starts.setdefault(month_name(match["month"]), day - dt.timedelta(days=day_number(match["day"]) - 1))
    return starts


def _keyed(text: str, match: re.Match[str], today: dt.date) -> dt.date | None:
    """The date a key says the lunar day of ``match`` is, or None when it is no key."""
    if (after := GREGORIAN.match(text, match.end())) is not None:
        year = int(after["year"]) if after["year"] else today.year
        try:
            day = dt.date(year, int(after["m"]), int(after["d"]))
        except ValueError:
            return None
        if not after["year"] and day > today + dt.timedelta(days=180):
            day = day.replace(year=year - 1)  # 「腊月初一是 12 月 30 日」 written in January
        return day
    if (before := RELATIVE.search(text, 0, match.start())) is not None:
        return today - dt.timedelta(days=0 if before["rel"].startswith("今") else 1)
    return None


def resolve(spelled: str, starts: dict[str, dt.date]) -> dt.date | None:
    """The date of a lunar day, when the brief gave a key for its month."""
    match = LUNAR.fullmatch(spelled)
    if match is None or (start := starts.get(month_name(match["month"]))) is None:
        return None
    return start + dt.timedelta(days=day_number(match["day"]) - 1)
