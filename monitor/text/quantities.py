"""Quantities a policy states: durations, counts, percentages, amounts, times of day,
frequencies and ordinals, in one canonical form.

"14 days", "two weeks" and "a fortnight" are one duration; "10 business days" and
"ten working days" are one; "twice" is the count 2; "3%", "3 percent" and "three per
cent" are one percentage; "50 dollars" is "$50"; "3 pm" is "15:00"; "twice a year" is
"every 6 months"; "1,000" is "one thousand". Comparing canonical forms (not digits) is
what lets a paraphrase say a number its own way while a changed number still reads as
changed. :func:`same_quantity` compares two canonical quantities (a month and 30 days
are one span), :func:`conflict` says whether a difference between two of them is
evidence of a change (two durations are; a duration and a count are not: one was
most likely written in a way this module does not read). Entity values (dates,
amounts, identifiers) are masked before this is called, so what is left is procedure.
"""

from __future__ import annotations

import functools
import math
import re
from decimal import Decimal

from monitor.text.lexicon import MONTHS, NUMBER_WORDS, STOPWORDS, TIMES_WORDS

_ONES: dict[str, int] = {
    **{w: int(v) for w, v in NUMBER_WORDS.items()},
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# Numbers written as one word, "zero" to "ninety" and "hundred" ("more than fifteen").
SPELLED_NUMBERS = frozenset({*_ONES, *_TENS, "hundred"})
_WORD_VALUE: dict[str, float] = {
    **{w: float(v) for w, v in _ONES.items()},
    **{w: float(v) for w, v in _TENS.items()},
    "a": 1.0,
    "an": 1.0,
    "a single": 1.0,
    "half an": 0.5,
    "half a": 0.5,
    "a quarter of an": 0.25,
    "a quarter of a": 0.25,
    "quarter of an": 0.25,
    # A rolling span back from now: "in the past year" = "within the last 12 months".
    "the past": 1.0,
}
# Units in a base per family: minutes for clock time and calendar days, business
# days apart (a business week is not seven of them), months apart (not a fixed
# number of days).
_UNITS: dict[str, tuple[str, float]] = {
    "minute": ("min", 1),
    "min": ("min", 1),
    "mins": ("min", 1),
    "hour": ("min", 60),
    "hr": ("min", 60),
    "hrs": ("min", 60),
    "h": ("min", 60),
    "day": ("min", 1440),
    "night": ("night", 1),
    "week": ("min", 10080),
    "wk": ("min", 10080),
    "fortnight": ("min", 20160),
    "business day": ("bday", 1),
    "working day": ("bday", 1),
    "workday": ("bday", 1),
    "weekday": ("bday", 1),
    "business week": ("bday", 5),
    "working week": ("bday", 5),
    "month": ("month", 1),
    "mo": ("month", 1),
    "mth": ("month", 1),
    "quarter": ("month", 3),
    "year": ("month", 12),
    "yr": ("month", 12),
    "percent": ("pct", 1),
    "per cent": ("pct", 1),
    "%": ("pct", 1),
    # Distances in metres, masses in grams, volumes in millilitres, data in megabytes.
    "km": ("dist", 1000),
    "kilometre": ("dist", 1000),
    "kilometer": ("dist", 1000),
    "mile": ("dist", 1609.344),
    "metre": ("dist", 1),
    "m": ("dist", 1),
    "meter": ("dist", 1),
    "cm": ("dist", 0.01),
    "centimetre": ("dist", 0.01),
    "centimeter": ("dist", 0.01),
    "mm": ("dist", 0.001),
    "millimetre": ("dist", 0.001),
    "millimeter": ("dist", 0.001),
    "foot": ("dist", 0.3048),
    "feet": ("dist", 0.3048),
    "ft": ("dist", 0.3048),
    "inch": ("dist", 0.0254),
    "inches": ("dist", 0.0254),
    "mi": ("dist", 1609.344),
    "tonne": ("mass", 1_000_000),  # (not "ton": a short, a long or a metric one)
    "kg": ("mass", 1000),
    "kilo": ("mass", 1000),
    "kilogram": ("mass", 1000),
    "gram": ("mass", 1),
    "g": ("mass", 1),
    "lb": ("mass", 453.59237),
    "lbs": ("mass", 453.59237),
    "litre": ("vol", 1000),
    "liter": ("vol", 1000),
    "ml": ("vol", 1),
    "millilitre": ("vol", 1),
    "milliliter": ("vol", 1),
    "mb": ("data", 1),
    "megabyte": ("data", 1),
    "gb": ("data", 1000),
    "gigabyte": ("data", 1000),
    "tb": ("data", 1_000_000),
    "terabyte": ("data", 1_000_000),
}
_UNIT_RE = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
# A period is a unit of time ("every quarter"), not a percentage or a distance.
_PERIOD_RE = "|".join(
    sorted(
        (re.escape(u) for u, (f, _) in _UNITS.items() if f in ("min", "bday", "month", "night")),
        key=len,
        reverse=True,
    )
)
_NUM = r"\d+(?:\.\d+)?"

# Number words ("seventeen", "ten thousand", "two hundred and fifty", "forty-eight") are
# written as digits before anything else is read; "one" alone stays a word (it is as
# often a pronoun: "one of us"), and the unit pattern reads "one day" itself.
_NUMBER_WORD_RE = "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))
_NUMBER_PHRASE = re.compile(
    r"(?<![\w-])(?:(?P<a>an?)\s+(?=(?:hundred|thousand|million)\b))?"
    r"(?P<words>(?:"
    + _NUMBER_WORD_RE
    + r")(?:(?:[\s-]+|\s+and\s+)(?:"
    + _NUMBER_WORD_RE
    + r"))*)(?!\w)(?!-(?!(?:"
    + _UNIT_RE
    + r")))"
)
_DOZEN = re.compile(r"(?<![\w-])(?:(half)\s+a\s+|an?\s+)?dozen(?![\w-])")
_HALF_MORE = re.compile(
    r"(?<![\w.])(?P<num>" + _NUM + r"|an?|one)\s+and\s+a\s+half\s+(?P<unit>" + _UNIT_RE + r")"
    r"|(?<![\w])(?:an?|one)\s+(?P<unit2>" + _UNIT_RE + r")\s+and\s+a\s+half(?![\w])"
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# Parts of an hour ("three quarters of an hour", "a quarter-hour", "the first half
# hour"): minutes, not a quarter of a year or a percentage.
_PART_HOUR = re.compile(
    r"(?<![\w-])(?:(?P<three>3)[\s-]+quarters?|(?:an?\s+|one\s+|1\s+)?(?P<quarter>quarter)"
    r"|(?:an?\s+)?(?P<half>half))(?:\s+of\s+an|\s+an|\s*-|\s+)\s*hour(?![\w-])"
)
# An hour count and a minute count said together ("2 hours and 40 minutes", "2h 40m",
# "1 hr 30"): one span, in minutes.
_HOURS_MINUTES = re.compile(
    r"(?<![\w.])(?P<h>\d+)\s*(?:hours?|hrs?|h)\s*(?:and\s+)?(?P<m>\d{1,2})\s*"
    r"(?:minutes?|mins?|m)(?![\w])"
)
# Pence after their number ("60p", "60 p"; not "8p.m."): an amount in pounds.
# (Not the pence of an amount in pounds: "7 pounds 50p" is £7.50, read with it.)
_NOT_AFTER_POUNDS = r"(?<!pounds )(?<!pound )(?<!quid )(?<!Pounds )"
_PENCE = re.compile(_NOT_AFTER_POUNDS + r"(?<![\w.\u00a3$\u20ac])(\d{1,3}) ?p(?![\w]|\.m|\. m)")
# ... and said as a word, once number words are digits ("thirty-eight pence").
_PENCE_WORD = re.compile(
    r"(?<!pounds  )(?<!pound  )(?<!quid  )" + _NOT_AFTER_POUNDS + r"(?<![\w.])(\d{1,3})\s+pence\b"
)
# "14+ days" is read as "14 days", as "at least 14 days" is (the bound's direction
# is not compared): the plus glued to a number before a word. Not a sum ("£50 +
# VAT") nor a phone number ("+43 5412").
_PLUS = re.compile(r"(?<![\w.+])(" + _NUM + r")\+(?=\s+[a-z])")
# Dimensions are read however spaced: "60x40x40 cm" = "60 x 40 x 40 cm" (three of them,
# or two before a unit of length; not a code's digits, "ab10x40", nor "a 2x4 board").
_DIMENSIONS = re.compile(
    r"(?<![a-wyz\d.])\d+(?:\.\d+)?(?:\s*[x\u00d7]\s*\d+(?:\.\d+)?){2}"
    r"|(?<![a-wyz\d.])\d+(?:\.\d+)?\s*[x\u00d7]\s*\d+(?:\.\d+)?"
    r"(?=\s*(?:cm|mm|m|metres?|meters?|in|inches|ft|feet)\b)"
)
_DIMENSION_X = re.compile(r"\s*[x\u00d7]\s*")
# "10x the cleaning price" is "10 times" it (not a code: "AB10X", "2x4").
_TIMES_X = re.compile(r"(?<![\w.])(" + _NUM + r")x(?![\w])")
_GLUED = re.compile(
    r"(?<![\w.])(" + _NUM + r")(k|gb|mb|tb|kg|km|mi|lbs?|ml|g|h|hrs?|mins?)(?![\w])"
)
_AROUND_THE_CLOCK = re.compile(
    r"24\s*/\s*7|24 hours a day,?\s+(?:and\s+)?7 days a week"
    # A service open all day names no span: "the 24-hour lost-pet line", "a 24-hour
    # helpline" (not "a 24-hour notice period").
    r"|24[- ]hours?(?=(?:\s+[a-z-]+){0,2}?[\s-]+(?:line|helpline|hotline|phone|service|desk"
    r"|reception|support|emergency|access|cover|security|pharmacy|gym|counter)s?\b)"
)
# "Within the hour" / "in the next hour": one hour.
_THE_HOUR = re.compile(r"\b(within|in) the (?:next |coming )?hour\b")
_CLOCK_12 = re.compile(r"(?<![\w:.])(\d{1,2})(?:[:.]([0-5]\d))?\s*([ap])\.?m\b\.?")
_CLOCK_24 = re.compile(r"(?<![\w:.])([01]?\d|2[0-3]):([0-5]\d)(?![\w:])")
_CLOCK_24_MARK = re.compile(r"(?<![\w:.])(?:0\d|1[3-9]|2[0-3]):[0-5]\d(?![\w:])")
# A four-digit time ("0900 hrs", "at 0930", "at 1400 hrs", "0800-1800"): with a
# leading zero after a time preposition or before "hrs"/"hours", one without after a
# preposition and before "hrs", or in a range that starts with a zero (not a year,
# "2019-2020", "at 1930", nor a span, "1000 hours").
_CLOCK_4 = re.compile(
    r"(?<![\w.:])(?:(?P<prep>at|by|from|until|till|before|after|between)\s+)?"
    r"(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)"
    # (Not a phone number's first group: "call us at 0800 123 4567".)
    r"(?:(?P<hrs>\s*(?:hrs|hours|h)(?![\w]))|(?![\w.:])(?![-–\s]*\d))"
)
_CLOCK_4_RANGE = re.compile(
    r"(?<![\w.:])(0\d)([0-5]\d)(\s*(?:-|–|to|until|till|and)\s*)([01]\d|2[0-3])([0-5]\d)"
    r"(?![\w.:])(?![-–\s]*\d)"
)
# "5 in the afternoon", "11 o'clock in the morning", "8 o'clock".
_CLOCK_WORDS = re.compile(
    r"(?<![\w:.])(\d{1,2})(?:[:.]([0-5]\d))?\s+(?:o'clock\s*)?"
    r"(?:in the (morning|afternoon|evening)|at night|(?<=o'clock\s)|(?<=o'clock))"
)
# "... o'clock the night before", "that evening", "tonight": an evening hour.
_NIGHT_AFTER = re.compile(r"\s*(?:the|that|on the|in the)\s+(?:night|evening)\b|\s*tonight\b")
# The first end of a range of times takes the meridiem of the second: "8 to 8:30 in
# the morning", "between 8 and 8.30 am", "11-2 pm" (11 am: it comes before 2 pm).
_CLOCK_RANGE = re.compile(
    r"(?<![\w:.])(\d{1,2})(?:[:.]([0-5]\d))?(\s*(?:-|–|to|until|till|and)\s*)"
    r"(?=(\d{1,2})(?:[:.][0-5]\d)?\s*(?:([ap])\.?m\b|in the (morning|afternoon|evening)|at night))"
)
# "a twenty-dollar rate" is "twenty dollar".
_HYPHEN_CURRENCY = re.compile(r"(?<=\w)-(?=(?:dollar|euro|pound|buck)s?\b)")
# "between 2 and 4 weeks" is the range "2 to 4 weeks".
_BETWEEN_AND = re.compile(r"\bbetween\s+(\d+(?:\.\d+)?|one)\s+and\s+(?=\d)")
# The first end of a range of amounts takes the unit of the second: "3 to 4 weeks"
# is 3 weeks to 4 weeks, "2-3 days" 2 days to 3 days.
_UNIT_RANGE = re.compile(
    r"(?<![\w.:])(\d+(?:\.\d+)?|one)(\s*(?:-|–|to|or)\s*)(?=(\d+(?:\.\d+)?)[\s-]+("
    + _UNIT_RE
    + r")(?:s|es)?(?![\w]))"
)
# "half past 3", "a quarter to 4": written as "3:30", "3:45" before the clock
# patterns read them.
_PAST = re.compile(r"(?<![\w])(?:a\s+)?(half|quarter)[\s-]+(past|to)\s+(\d{1,2})(?![\d:.])")
# "eight thirty", "five-fifteen", "six forty-five": an hour and its minutes in words,
# a time (read before number words are, which would make them 38 or 20).
_HOUR_WORDS = "one two three four five six seven eight nine ten eleven twelve".split()
_TIME_WORDS = re.compile(
    r"(?<![\w-])(" + "|".join(_HOUR_WORDS) + r")[\s-]+(fifteen|thirty|forty[\s-]five)(?![\w-])"
    # (Not a count of spans: "four fifteen minute slots", "two thirty day passes".)
    r"(?!\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?)\b)"
)
# "half eight" with no time word before it (British, 8:30): another reading only.
_BARE_HALF = re.compile(r"(?<![\w-])half\s+([1-9]|1[0-2])(?![\w.:])")
_MINUTE_WORDS = {"fifteen": 15, "thirty": 30}
# "at 10.30": a time after a time preposition (elsewhere "10.30" is a number).
_DOTTED = re.compile(
    r"(?<![\w])(at|by|from|until|till|before|after|between|to)\s+([01]?\d|2[0-3])\.([0-5]\d)"
    r"(?![\w.])"
)


# "at half three", "by half eight", "book for half seven": half past the hour
# (British), read only after a time preposition and before what ends a time (a
# clause break, "pm", "in the evening", "and", "to", "on" ...): not "for half 3 hours",
# "at half 5 pupils per class".
_HALF_HOUR = re.compile(
    r"(?<![\w])(at|by|from|until|till|before|after|between|for)\s+half\s+([1-9]|1[0-2])"
    r"(?!\.\d)(?=\s*(?:$|[.,;:!?)]|[-–]|(?:am|pm|a\.m|p\.m|in\s+the|at\s+night|tonight"
    r"|tomorrow|sharp|and|or|to|until|till|on|each|every|latest|onwards?|prompt)(?![\w])))"
)
# "7 days a week" is every day, as "daily" is (not a span of a week).
_EVERY_DAY = re.compile(r"(?<![\w.])7\s+days\s+(?:a|per|each|every)\s+week(?![\w])")


def _past(m: re.Match[str]) -> str:
    h, minutes = int(m.group(3)), 30 if m.group(1) == "half" else 15
    if m.group(2) == "to":
        h, minutes = (h - 1) % 24, 60 - minutes
    return f" {h}:{minutes:02d}"


_NOON = re.compile(r"(?<![\w])(?:12\s*)?(noon|midday|midnight)(?![\w])")
_MONEY_WORDS = re.compile(
    r"(?<![\w.])(" + _NUM + r")\s*(dollars?|bucks|euros?|pounds?|quid)(?![\w])"
    # The small units after them, said as a number ("six pounds fifty", "five dollars
    # and fifty cents", "seven pounds fifty pence"), where nothing else is counted by
    # it ("five pounds 30 minutes later").
    r"(?:\s+(?:and\s+)?(\d{1,2})(?:\s*(?:p|pence|cents?)(?![\w]))?"
    r"(?=\s*(?:$|[.,;:!?)]|(?:for|each|per|a|an|to|and|or|plus|on|in|if|when|which)(?![\w]))))?"
)
_WORD_CURRENCY = {
    "dollar": "USD",
    "dollars": "USD",
    "bucks": "USD",
    "euro": "EUR",
    "euros": "EUR",
    "pound": "GBP",
    "pounds": "GBP",
    "quid": "GBP",
}
_TIMES = re.compile(
    r"(?<![\w])(?:(?P<word>once|twice|thrice)|(?P<n>" + _NUM + r")\s+times|one\s+time)"
    r"\s+(?:a|an|per|each|every)\s+(?P<unit>" + _PERIOD_RE + r")(?![\w])"
)
_COUNT_PER = re.compile(
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s+(?P<noun>[a-z]{3,})(?:\s+per\s+[a-z]{3,})?"
    r"\s+(?:a|an|per|each|every)\s+(?P<unit>" + _PERIOD_RE + r")(?![\w])"
)
# "$50k", "£1.5m", "$2bn": an amount with a scale written after it.
_MONEY_SCALE = re.compile(
    r"(?<![\w.])([$€£¥])\s?(\d+(?:\.\d+)?)\s?(k|m|mn|bn|thousand|million|billion)(?![\w])",
    re.IGNORECASE,
)
_SCALE = {
    "k": 1000,
    "thousand": 1000,
    "m": 1_000_000,
    "mn": 1_000_000,
    "million": 1_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}


def _scaled_money(m: re.Match[str]) -> str:
    value = Decimal(m.group(2)) * _SCALE[m.group(3).casefold()]
    return f"{m.group(1)}{value.normalize():f}"


_PERIOD_QUALIFIER = (
    r"(?:started|commenced|begun|full|whole|complete|extra|additional|further|calendar)"
)
_EVERY = re.compile(
    # (An entity value masked as "<value>" is an amount there: "<value> a day".)
    r"(?<![\w])(?:(?P<rate>(?:(?P<money>¤)|<value>)\s*(?:(?:a|an)\s+|/\s*))"
    r"|(?:per|each|every|in any|in every)\s+)"
    # (A period counted whole or begun is that period: "per started hour", "each
    # additional day", "every full month", "per calendar month"; before a count too,
    # "per additional 15 minutes", "each further 2 hours".)
    r"(?:" + _PERIOD_QUALIFIER + r"\s+)?"
    r"(?:(?P<n>" + _NUM + r"|other)\s+)?"
    r"(?:" + _PERIOD_QUALIFIER + r"\s+)?"
    r"(?P<unit>" + _PERIOD_RE + r")(?:s|es)?(?![\w])"
    # (Not a span after an amount: "<value> a week later", "£200 a month ahead of the
    # course"; nor, after a masked value, which may be a count or a date, "<value> a
    # day early". A sum of money a period is a rate however it goes on: "£5 a day
    # late", "£2 a day from the due date", "£90 a month in advance".)
    r"(?(rate)(?!\s+(?:later|after|before|earlier|ago|(?:ahead|in advance) of)\b))"
    r"(?(money)|(?(rate)(?!\s+(?:early|late|ahead|from|in advance)\b)))"
)
# "Per annum" and "p.a." are "a year" ("5% p.a." = "5% a year").
_PER_ANNUM = re.compile(r"\s(?:per annum|p\.\s?a\.?)(?![\w])")
_ADVERBS = {
    "hourly": ("min", 60),
    "daily": ("min", 1440),
    "nightly": ("night", 1),
    "weekly": ("min", 10080),
    "fortnightly": ("min", 20160),
    "monthly": ("month", 1),
    "quarterly": ("month", 3),
    "yearly": ("month", 12),
    "annually": ("month", 12),
    "biweekly": ("min", 20160),
    "bi-weekly": ("min", 20160),
    "biannually": ("month", 6),
    "biannual": ("month", 6),
    "half-yearly": ("month", 6),
    "semi-annual": ("month", 6),
    "semiannual": ("month", 6),
    "semi-annually": ("month", 6),
    "semiannually": ("month", 6),
}
# "Twice weekly" is "twice a week", "3 times daily" "3 times a day".
_ADVERB_UNIT = {
    "hourly": "hour",
    "daily": "day",
    "weekly": "week",
    "fortnightly": "fortnight",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
}
_TIMES_ADVERB = re.compile(
    r"\b(once|twice|thrice|(?:" + _NUM + r")\s+times)\s+(" + "|".join(_ADVERB_UNIT) + r")(?![\w-])"
)
_ADVERB = re.compile(r"(?<![\w-])(" + "|".join(_ADVERBS) + r")(?![\w-])")
# "6-monthly", "six-monthly", "two-weekly": hyphened ("10 monthly payments" is ten
# payments, each month).
_N_ADVERB = re.compile(
    r"(?<![\w.-])(\d+|two|three|four|six|twelve)\s*-\s*(weekly|monthly|yearly)(?![\w-])"
)
_ADVERB_COUNTS = {"two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12}
_FRACTIONS = {"half": 50.0, "third": 100 / 3, "quarter": 25.0, "fifth": 20.0, "tenth": 10.0}
_FRACTION = re.compile(
    r"(?<![\w-])(?<!the )(?:(?P<k>a|one|two|three|\d)\s+)?"
    r"(?P<f>half|thirds?|quarters?|fifths?|tenths?)"
    r"(?=\s+of\b|\s*[,.;:!?)]|\s*$|\s+(?:now|up front|upfront|back|refund|full|empty|off)\b"
    r"|[\s-]+price\b)"
    r"(?!\s+of\s+(?:an?\s+)?(?:" + _PERIOD_RE + r")s?\b)"
)
# A fraction in digits before what it is a fraction of ("max 1/4 tank", "3/4 of the
# deposit", "1/2 price"); not a date ("1/4/2026"), a range ("2/3 days"), an age ("5/6
# years") or a rating ("rated 4/5").
_SLASH_FRACTION = re.compile(
    r"(?<![\w/.])([1-9])\s?/\s?([2-9]|10)"
    r"(?=\s+(?:of|tank|full|off|price|refund|deposit|fare|fee)\b)"
)
_FULL = re.compile(
    r"(?<![\w])(?:full refund|refunded in full|refund in full|in full|the full amount"
    r"|all (?:of )?(?:your|the) money)(?![\w])"
)
_ORDINAL_WORDS = {
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_ORDINAL = re.compile(
    r"(?<![\w.])(?:(?P<d>\d+)(?:st|nd|rd|th)|(?P<w>" + "|".join(_ORDINAL_WORDS) + r"))(?![\w-])"
)
_NEXT_DAY = re.compile(
    r"(?<![\w])(?:the\s+)?(?:next|following)\s+(?P<b>business\s+|working\s+)?day(?![\w])"
)
# Words that may stand between a number and its unit ("10 calendar days", "a full
# day", "one academic year", two of them: "one full calendar month"); not any word ("a
# few days" is no one day, "5 on weekdays" no five business days).
_BETWEEN = (
    "calendar",
    "business",
    "working",
    "full",
    "whole",
    "clear",
    "extra",
    "more",
    "additional",
    "consecutive",
    "further",
    "academic",
    "school",
    "financial",
    "fiscal",
    "billing",
    # "2 or more days" is read as 2 days, as "at least 2 days" is.
    "or more",
    "or fewer",
    "or less",
    "or longer",
)
_QUANTITY = re.compile(
    r"(?<![\w.])(?P<num>"
    + _NUM
    + r"|(?:"
    + "|".join(sorted((re.escape(w) for w in _WORD_VALUE), key=len, reverse=True))
    + r"))(?:[\s-]+|(?=%))(?:(?:"
    + "|".join(_BETWEEN)
    # (Two of them at most: "one full calendar month", "3 consecutive working days".)
    + r")\s+){0,2}?"
    r"(?P<unit>" + _UNIT_RE + r")(?:s|es)?(?![\w])"
    r"|(?<![\w])(?P<bare>fortnight|twice|thrice|(?:only|just)\s+once|once\s+only"
    r"|one\s+time|a\s+single\s+time)(?![\w])"
    r"|(?<![\w.])(?P<count>" + _NUM + r")(?![\w%]|\.\d)"
)


_HUGE = "huge"


def _fmt(x: float) -> str:
    if not math.isfinite(x) or abs(x) >= 1e15:
        return _HUGE  # no policy states such a number: dropped from the result
    return str(int(x)) if x == int(x) else f"{x:.3f}".rstrip("0").rstrip(".")


def _number(words: str) -> int | None:
    """The value of a phrase of number words ("two hundred and fifty" -> 250)."""
    total = current = 0
    seen = False
    prev = ""
    for w in re.split(r"[\s-]+", words):
        if w == "and":
            # Only after a scale ("two hundred and fifty"): "between one and three
            # months" is two numbers, not four.
            if prev not in _SCALES and prev != "hundred":
                return None
            prev = w
            continue
        if w in _ONES and (prev in _ONES or (prev in _TENS and _ONES[w] >= 10)):
            return None  # "one three", "twenty twelve": no single number
        if w in _TENS and (prev in _ONES or prev in _TENS):
            return None  # "eight thirty", "twenty thirty": no single number
        prev = w
        if w in _ONES or w in _TENS:
            current += _ONES.get(w, 0) + _TENS.get(w, 0)
        elif w == "hundred":
            current = (current or 1) * 100
        else:
            total += (current or 1) * _SCALES[w]
            current = 0
        seen = True
        if total + current >= 10**15:
            return None  # "hundred " * 2200: no number anyone writes in words
    return total + current if seen else None


def _digits(m: re.Match[str]) -> str:
    words = m.group("words")
    if m.group("a") is None and words in ("one", "zero"):
        return m.group(0)
    value = _number(words)
    if value is None and " and " in words:
        # Two numbers ("between two and four"): each read alone.
        parts = [p.strip() for p in words.split(" and ")]
        read = [p if p in ("one", "zero") else str(_number(p) or p) for p in parts]
        return " " + " and ".join(read) + " "
    return m.group(0) if value is None else f" {value} "


def _money(currency: str | None, amount: Decimal) -> str:
    """``money:USD:40``, one form for "$40.00", "USD 40" and "40 dollars"."""
    return f"money:{currency}:{amount.normalize():f}"


def _period(unit: str, n: float) -> str:
    family, factor = _UNITS[re.sub(r"\s+", " ", unit)]
    return f"every:{family}:{_fmt(n * factor)}"


# An age: "12-year-olds", "18 years old", "8 weeks old", "aged 6 to 12 years".
_AGE_UNIT = r"years?|yrs?|months?|mths?|mos?|weeks?|wks?|days?"
_AGE_OLD = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(?:-|to|\u2013)\s*(\d+(?:\.\d+)?))?[\s-]+"
    r"(" + _AGE_UNIT + r")[\s-]+(?:olds?|of age)\b"
)
_AGED = re.compile(
    r"\b(aged?)\s+(\d+(?:\.\d+)?)(?:\s*(?:-|to|\u2013)\s*(\d+(?:\.\d+)?))?\s+"
    r"(" + _AGE_UNIT + r")\b"
)
_AGE_DAYS = {"y": 365.25, "m": 30.4375, "w": 7.0, "d": 1.0}
# The end of a day as a deadline: "by 11:59 pm" is "by midnight" (not "opens at 11:59
# pm", a minute before "opens at midnight"), the day named before the time or after it
# ("valid until 2026-07-03 at 23:59" = "good until 23:59 on 3 July").
_DAY_END = re.compile(
    r"\b(by|before|until|till|no later than|not later than|deadline(?: is)?:?|due(?: at)?)\s+"
    r"((?:(?:¤|<date>|<value>|the|of|on|[a-z]*day|\d{1,2}(?:st|nd|rd|th)?),?\s*){1,4}?\bat\s+)?"
    r"(?:11[:.]59\s*(?:pm|p\.m\.)|23[:.]59)(?![\w:])"
)


# A day counted as a point in time is as many days: "from day 60 onwards" = "once
# it's been sixty days", "by day 14" = "within 14 days".
_DAY_N = re.compile(
    r"\b(from|after|by|until|till|before|on|starting|beyond|past)\s+(day|week|month)\s+"
    r"(\d+)\b(?![:.,]?\d)"
)


# A calendar date, day and month in either order ("1 March", "the 1st of March",
# "March 1st", "Friday 10 May") or ISO ("2026-03-01", the year left out): one
# quantity, ``date:301`` (month * 100 + day), not a count and an ordinal. "May" after
# its day only where no verb can follow ("10 may attend" is a count).
_MONTH_NAMES = sorted(MONTHS, key=len, reverse=True)  # (the longest name first)
_MONTH_RE = "|".join(_MONTH_NAMES)
_MAY_ENDS = r"(?=\s*(?:$|[,.;:!?)]|\d|(?:to|and|or|until|through|from)\b))"
# After a month and a day written bare ("March 1"), what a date is followed by: not a
# unit or a noun the number counts ("in May 10 days ahead", "march 3 bikes down").
_DAY_ENDS = (
    r"(?=\s*(?:$|[,;:!?)\u2013-]|\.(?!\d)|\d{4}|(?:at|to|and|or|until|through|from|by|in|on)\b))"
)
_DATE_DAY_MONTH = re.compile(
    r"(?<![\w.:/-])(?:the\s+)?(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?:\s+of)?\s+"
    r"(?:(?P<m>"
    + "|".join(m for m in _MONTH_NAMES if m != "may")
    + r")\.?|(?P<may>may)"
    + _MAY_ENDS
    + r")(?![\w])"
)
_DATE_MONTH_DAY = re.compile(
    r"(?<![\w])(?P<m>" + "|".join(m for m in _MONTH_NAMES if m != "may") + r"|may)\.?\s+"
    r"(?:the\s+)?(?P<d>[1-9]|[12]\d|3[01])(?:(?:st|nd|rd|th)(?![\w%])|" + _DAY_ENDS + r")"
)
_ISO_DATE = re.compile(r"(?<![\w-])\d{4}-(?P<m>0[1-9]|1[0-2])-(?P<d>0[1-9]|[12]\d|3[01])(?![\w-])")


_MONTH_FOUND = re.compile(r"\b(?:" + _MONTH_RE + r")\b|\d{4}-\d\d-\d\d")


def _date(month: str, day: str) -> str:
    number = MONTHS[month] if month.isalpha() else int(month)
    return f"date:{number * 100 + int(day)}"


@functools.lru_cache(maxsize=8192)
def quantities(text: str) -> frozenset[str]:
    """Canonical quantities of ``text``: ``min:20160`` (two weeks), ``bday:10``,
    ``month:3``, ``night:2``, ``pct:3``, ``n:2`` (a count or a bare number),
    ``money:USD:40`` ("$40" = "USD 40" = "40 dollars"), ``clock:900`` (3 pm, in
    minutes after midnight), ``every:month:6`` (twice a year, every 6 months),
    ``ord:3`` (third, 3rd). Cached: a golden step's text is read for every answer."""
    from monitor.values import MONEY, normalize_money  # values imports the lexicon

    out: set[str] = set()
    text = _MONEY_SCALE.sub(_scaled_money, text)
    for m in MONEY.finditer(text):
        money = normalize_money(m.group(0))
        if money is not None:
            out.add(_money(money[0], money[1]))

    def pence(m: re.Match[str]) -> str:
        out.add(_money("GBP", Decimal(m.group(1)) / 100))
        return " ¤ "

    low = MONEY.sub(" ¤ ", _PENCE.sub(pence, text)).casefold().replace("’", "'")
    low = _THOUSANDS.sub("", low)

    def date(m: re.Match[str]) -> str:
        out.add(_date(m.group("m") or m.group("may"), m.group("d")))
        return " ¤ "

    if _MONTH_FOUND.search(low):
        low = _ISO_DATE.sub(date, low)
        low = _DATE_DAY_MONTH.sub(date, low)
        low = _DATE_MONTH_DAY.sub(date, low)
    low = _PLUS.sub(r"\1", low)
    low = _DIMENSIONS.sub(lambda m: _DIMENSION_X.sub(" x ", m.group(0)), low)
    low = _TIMES_X.sub(r"\1 times", low)
    low = _HYPHEN_CURRENCY.sub(" ", low)  # "a twenty-dollar fee" is "twenty dollar"
    low = _AROUND_THE_CLOCK.sub(" ", low)
    low = _THE_HOUR.sub(r"\1 1 hour", low)
    low = _TIME_WORDS.sub(
        lambda m: f"{_HOUR_WORDS.index(m[1]) + 1}:{_MINUTE_WORDS.get(m[2], 45):02d}", low
    )
    low = _NUMBER_PHRASE.sub(_digits, low)
    low = _EVERY_DAY.sub(" daily ", low)
    low = _PER_ANNUM.sub(" a year", low)
    low = _PENCE_WORD.sub(pence, low)
    low = _DAY_END.sub(r"\1 \2midnight", low)
    low = _DAY_N.sub(r"\1 \3 \2s", low)

    # An age is no duration ("a 5-year warranty" is not "5 years old"), in days;
    # compared with a bare number as years ("ages 6 to 12" = "6 to 12-year-olds").
    def age(m: re.Match[str], first: int) -> str:
        per = _AGE_DAYS[m.group(first + 2)[0]]
        for g in (first, first + 1):
            if m.group(g):
                out.add(f"age:{_fmt(float(m.group(g)) * per)}")
        return " " if first == 1 else f" {m.group(1)} "

    low = _AGE_OLD.sub(lambda m: age(m, 1), low)
    low = _AGED.sub(lambda m: age(m, 2), low)
    low = _DOZEN.sub(lambda m: " 6 " if m.group(1) else " 12 ", low)
    low = _GLUED.sub(
        lambda m: (
            f"{float(m.group(1)) * 1000:g} " if m.group(2) == "k" else f"{m.group(1)} {m.group(2)}"
        ),
        low,
    )

    low = _HOURS_MINUTES.sub(
        lambda m: f" {int(m.group('h')) * 60 + int(m.group('m'))} minutes ", low
    )

    def half_more(m: re.Match[str]) -> str:
        if m.group("unit2"):
            return f" 1.5 {m.group('unit2')} "
        raw = m.group("num")
        value = float(raw) if raw[0].isdigit() else 1.0
        return f" {_fmt(value + 0.5)} {m.group('unit')} "

    low = _HALF_MORE.sub(half_more, low)
    low = _PART_HOUR.sub(
        lambda m: (
            " 45 minutes "
            if m.group("three")
            else " 15 minutes "
            if m.group("quarter")
            else " 30 minutes "
        ),
        low,
    )
    low = _BETWEEN_AND.sub(r"between \1 to ", low)
    low = _UNIT_RANGE.sub(lambda m: f"{m.group(1)} {m.group(4)}{m.group(2)}", low)

    def clock(h: int, minute: int, either: bool = False) -> str:
        out.add(f"clock:{h * 60 + minute}")
        if either and 1 <= h <= 11:
            # A time written without am or pm before noon ("at 2:30", "by 5 o'clock")
            # may be the afternoon's: that too, as another reading.
            out.add(f"~clock:{(h + 12) * 60 + minute}")
        return " "

    def clock_words(m: re.Match[str]) -> str:
        h, part = int(m.group(1)), m.group(3)
        night = m.group(0).endswith("at night") or (
            # "10 o'clock the night before", "9 o'clock that evening"
            part is None and bool(_NIGHT_AFTER.match(m.string, m.end()))
        )
        if night and h % 12 == 0:
            return clock(0, int(m.group(2) or 0))  # "12 at night" is midnight
        late = part in ("afternoon", "evening") or night
        return clock(
            h % 12 + 12 if late else h % 12 if part == "morning" else h,
            int(m.group(2) or 0),
            either=part is None,
        )

    low = _PAST.sub(_past, low)
    low = _HALF_HOUR.sub(lambda m: f"{m.group(1)} {m.group(2)}:30", low)
    for m in _BARE_HALF.finditer(low):
        h = int(m.group(1))
        out.add(f"~clock:{h * 60 + 30}")
        if h < 12:
            out.add(f"~clock:{(h + 12) * 60 + 30}")
    low = _DOTTED.sub(lambda m: f"{m.group(1)} {m.group(2)}:{m.group(3)}", low)
    low = _CLOCK_4_RANGE.sub(
        lambda m: clock(int(m[1]), int(m[2])) + m[3] + clock(int(m[4]), int(m[5])), low
    )

    def four_digits(m: re.Match[str]) -> str:
        h, minute = m.group("h"), m.group("m")
        zero, prep, hrs = h.startswith("0"), bool(m.group("prep")), bool(m.group("hrs"))
        if not ((prep and (zero or hrs)) or (zero and hrs)):
            return m.group(0)  # "at 1930" may be a year, "1000 hours" a span
        return f"{m.group('prep') or ''}" + clock(int(h), int(minute))  # 24-hour

    low = _CLOCK_4.sub(four_digits, low)

    def clock_range(m: re.Match[str]) -> str:
        h1, h2 = int(m.group(1)), int(m.group(4))
        late = (
            m.group(5) == "p"
            or m.group(6) in ("afternoon", "evening")
            or (m.group(5) is None and m.group(6) is None)
        )
        if h1 > 12 or h1 == 0:
            clock(h1 % 24, int(m.group(2) or 0))
        else:
            pm = late and h1 % 12 <= (h2 % 12 or 12)  # "11 to 12 at night" is 11 pm
            clock(h1 % 12 + (12 if pm else 0), int(m.group(2) or 0))
        return " " + m.group(3)

    low = _CLOCK_RANGE.sub(clock_range, low)
    low = _CLOCK_WORDS.sub(clock_words, low)
    low = _NOON.sub(lambda m: clock(0 if m.group(1) == "midnight" else 12, 0), low)
    low = _CLOCK_12.sub(
        lambda m: clock(
            int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0), int(m.group(2) or 0)
        ),
        low,
    )
    # (A leading zero or an hour past 12 writes a 24-hour time, and a text that writes
    # one writes them all so: "08:00-10:00" is the morning's.)
    h24 = bool(_CLOCK_24_MARK.search(low))
    low = _CLOCK_24.sub(
        lambda m: clock(
            int(m.group(1)), int(m.group(2)), either=not h24 and not m.group(1).startswith("0")
        ),
        low,
    )

    def money_word(m: re.Match[str]) -> str:
        small = Decimal(m.group(3)) / 100 if m.group(3) else Decimal(0)
        out.add(_money(_WORD_CURRENCY[m.group(2)], Decimal(m.group(1)) + small))
        return " ¤ "

    low = _MONEY_WORDS.sub(money_word, low)

    def times(m: re.Match[str]) -> str:
        n = TIMES_WORDS.get(m.group("word") or "", 0) or float(m.group("n") or 1)
        out.add(_period(m.group("unit"), 1 / n))
        # ... and, as other readings ("~": they may state a quantity, they need not
        # be stated), the count per period: "3 times a month" states what "3
        # withdrawals per month" states.
        out.add("~n:" + _fmt(n))
        out.add("~" + _period(m.group("unit"), 1))
        return " "

    # "2 visits per guest per month" states what "twice a month" states (as another
    # reading: "2 GB per day" is an amount per period, not a frequency).
    for m in _COUNT_PER.finditer(low):
        n = float(m.group("n"))
        if n > 0 and m.group("noun") not in _UNITS and m.group("noun").rstrip("s") not in _UNITS:
            out.add("~" + _period(m.group("unit"), 1 / n))

    low = _TIMES_ADVERB.sub(lambda m: f"{m.group(1)} a {_ADVERB_UNIT[m.group(2)]}", low)
    low = _TIMES.sub(times, low)

    def every(m: re.Match[str]) -> str:
        raw = m.group("n")
        n = 2.0 if raw == "other" else float(raw) if raw else 1.0
        out.add(_period(m.group("unit"), n))
        return " ¤ " if m.group("rate") else " "

    low = _EVERY.sub(every, low)

    def adverb(m: re.Match[str]) -> str:
        family, value = _ADVERBS[m.group(1)]
        out.add(f"every:{family}:{_fmt(value)}")
        return " "

    def n_adverb(m: re.Match[str]) -> str:
        family, value = _ADVERBS[m.group(2)]
        n = float(_ADVERB_COUNTS.get(m.group(1), m.group(1)))
        out.add(f"every:{family}:{_fmt(value * n)}")
        # ... and the span itself ("6-monthly check-ups" / "a 6-month recall").
        out.add(f"~{family}:{_fmt(value * n)}")
        return " "

    low = _N_ADVERB.sub(n_adverb, low)
    low = _ADVERB.sub(adverb, low)

    def share(pct: float) -> None:
        # A fraction, and as another reading the whole percentage it rounds to: "a
        # third" is 33.3% and states "33%".
        out.add("pct:" + _fmt(round(pct, 1)))
        if round(pct, 1) != round(pct):
            out.add("~pct:" + _fmt(round(pct)))

    def fraction(m: re.Match[str]) -> str:
        k = m.group("k")
        count = 1.0 if k in (None, "a", "one") else float(k) if k.isdigit() else _ONES[k]
        share(count * _FRACTIONS[m.group("f").rstrip("s")])
        return " "

    low = _FRACTION.sub(fraction, low)

    def slash_fraction(m: re.Match[str]) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        if a >= b:
            return m.group(0)
        share(100 * a / b)
        return " "

    low = _SLASH_FRACTION.sub(slash_fraction, low)
    if _FULL.search(low):
        out.add("pct:100")
        low = _FULL.sub(" ", low)
    low = _NEXT_DAY.sub(lambda m: " 1 business day " if m.group("b") else " 1 day ", low)

    def ordinal(m: re.Match[str]) -> str:
        out.add("ord:" + (m.group("d") or str(_ORDINAL_WORDS[m.group("w")])))
        return " "

    low = _ORDINAL.sub(ordinal, low)
    for m in _QUANTITY.finditer(low):
        if m.group("bare"):
            out.add(_BARE.get(m.group("bare").casefold(), "n:1"))
            continue
        if m.group("count"):
            out.add("n:" + _fmt(float(m.group("count"))))
            continue
        raw = m.group("num")
        value = float(raw) if raw[0].isdigit() else _WORD_VALUE[raw]
        family, factor = _UNITS[re.sub(r"\s+", " ", m.group("unit"))]
        out.add(f"{family}:{_fmt(value * factor)}")
    # A number too large for any policy ("9" * 400) is no quantity: left in, the
    # comparisons would have to parse it.
    return frozenset(q for q in out if not q.endswith(":" + _HUGE))


# "Once" alone is also a conjunction ("once you have paid"): it is a count only as
# "only once", "just once", "once only" (and "one time", "a single time"), n:1.
_BARE = {"fortnight": "min:20160", "twice": "n:2", "thrice": "n:3"}
# Days per unit of the duration families compared across families: a month is 30.44
# days. Business days are not compared with calendar days: "10 business days" is
# about two weeks, but an answer that states both a 14-day and a 10-business-day rule
# must not have one read as the other.
_DAYS = {"min": 1 / 1440, "month": 30.44}


def _parse(q: str) -> tuple[bool, str, float]:
    """A canonical quantity read back: (every, family, value). ``every:month:6`` ->
    (True, "month", 6.0), ``money:USD:40`` -> (False, "money", 40.0), ``~n:3`` (an
    other reading) -> (False, "n", 3.0)."""
    parts = q.lstrip("~").split(":")
    every = parts[0] == "every"
    if every:
        parts = parts[1:]
    return every, parts[0], float(parts[-1])


def _readings(q: str) -> set[float]:
    """The numbers a bare count could be written for ``q``: "30" for 30 days (or 720
    hours, or one month), "3" for 3 pm, "15" for $15."""
    _, fam, value = _parse(q)
    if fam == "min":
        return {value, value / 60, value / 1440, value / 10080}
    if fam == "month":
        return {value, value / 12, value / 3}
    if fam == "clock":
        # (And "0900" / "1730" written without "hrs".)
        h, minute = divmod(int(value), 60)
        if value % 60 == 0:
            return {value / 60, (value / 60) % 12, h * 100}
        # "9.30" / "5.30" for 9:30 / 17:30, the minutes after a dot (British).
        return {
            value,
            round(h + minute / 100, 2),
            round((h % 12 or 12) + minute / 100, 2),
            h * 100 + minute,
        }
    if fam == "age":
        return {round(value / d, 3) for d in _AGE_DAYS.values()}
    if fam == "date":
        # A date's day or month read as a bare number ("2026-03-01" split, "the 1st").
        return {value, value % 100, value // 100}
    # In any unit of its family: 100,000 km is "100000" (km) or "62137" (miles).
    return {value} | {round(value / f, 3) for u, (g, f) in _UNITS.items() if g == fam}


def _kind(q: str) -> str:
    """What ``q`` measures: "duration" (minutes, business days, months), "period"
    (every ...), "money", or its family ("pct", "n", "clock", "ord", "night")."""
    every, fam, _ = _parse(q)
    if every:
        return "period"
    if fam in ("min", "bday", "month", "age"):
        return "duration"  # an age changed into a duration is a changed number
    return fam


def conflict(a: str, b: str) -> bool:
    """Whether ``a`` and ``b``, one lost from a step and the other new in its place,
    are evidence of a changed number: two quantities of one kind (two durations in
    any units, two amounts of money in any currency, two percentages, two counts),
    or a bare number that is no reading of the other ("net 90" for "within 30
    days"; "net 30" would be one). A duration and a percentage, say, are not: one
    was most likely written in a way this module does not read."""
    fa, fb = _kind(a), _kind(b)
    if fa == fb:
        return True
    if (fa == "n") != (fb == "n"):
        count, other = (a, b) if fa == "n" else (b, a)
        n = _parse(count)[2]
        return not any(abs(n - r) < 1e-6 for r in _readings(other))
    return False


def same_quantity(a: str, b: str) -> bool:
    """One quantity written two ways: equal canonical forms, or a span in days and
    one in months within a tenth of each other, or half a day where that is more:
    "30 days" = "a month" (so are 28 and 33 days), "every 12 months" = "every 365
    days", "every 4 weeks" = "monthly"."""
    if a == b:
        return True
    (ea, fa, va), (eb, fb, vb) = _parse(a), _parse(b)
    if "age" in (fa, fb):
        # Two ages within a tenth; an age and a bare number of years.
        if fa == fb:
            return abs(va - vb) <= 0.1 * max(va, vb)
        if {fa, fb} == {"age", "n"} and not (ea or eb):
            years, days = (va, vb) if fa == "n" else (vb, va)
            return abs(years * _AGE_DAYS["y"] - days) < 1
        # An age written as a span ("more than 15 years old" / "older than fifteen
        # years", read as 180 months).
        other, ov = (fb, vb) if fa == "age" else (fa, va)
        if not (ea or eb) and other in _DAYS:
            days, span = (va if fa == "age" else vb), ov * _DAYS[other]
            return abs(days - span) <= 0.02 * max(days, span)  # 15 years, not 16
        return False
    if ea != eb or fa == fb or fa not in _DAYS or fb not in _DAYS:
        return False  # one unit compares exactly; other families not at all
    da, db = va * _DAYS[fa], vb * _DAYS[fb]
    return abs(da - db) <= max(0.5, 0.1 * max(da, db))


def stated(q: str, qs: set[str] | frozenset[str]) -> bool:
    """Whether quantity ``q`` is among ``qs`` (other readings included), however
    written."""
    return any(same_quantity(q.lstrip("~"), x.lstrip("~")) for x in qs)


def main_readings(qs: set[str] | frozenset[str]) -> set[str]:
    """``qs`` without the other readings ("~n:3" of "3 times a month"): what a text
    states and must be found stated elsewhere."""
    return {q for q in qs if not q.startswith("~")}


# "one guest", "3 guests", "a single bag": a number word or numeral counting the noun
# right after it. "a"/"an" are left out (articles as often as counts).
_COUNTED = re.compile(
    r"(?<![\w.-])(?P<num>\d+|a single|"
    + "|".join(
        sorted(
            (w for w, v in _WORD_VALUE.items() if v >= 1 and " " not in w and w not in ("a", "an")),
            key=len,
            reverse=True,
        )
    )
    + r")\s+(?P<noun>[a-z]{3,})(?![\w-])",
)
_NOT_NOUNS = frozenset(
    {
        "more",
        "less",
        "fewer",
        "other",
        "another",
        "of",
        "or",
        "and",
        "that",
        "which",
        "who",
        "time",
        "times",
        "way",
        "ways",
        "thing",
        "things",
    }
)


def _noun_key(noun: str) -> str:
    """A count noun's key, plural or not ("guests", "guest" -> "guest")."""
    n = noun.casefold()
    for suffix in ("ies", "es", "s"):
        if n.endswith(suffix) and len(n) - len(suffix) >= 3:
            return n[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return n


def counted_nouns(text: str) -> dict[str, set[float]]:
    """The counts each noun is given in ``text`` ("one guest" -> {"guest": {1}}), units
    of time and money aside (:func:`quantities` has those)."""
    out: dict[str, set[float]] = {}
    for m in _COUNTED.finditer(text.casefold()):
        noun = m.group("noun")
        if noun in _NOT_NOUNS or noun in STOPWORDS or _noun_key(noun) in _UNIT_KEYS:
            continue
        raw = m.group("num")
        value = float(raw) if raw[0].isdigit() else (1.0 if raw == "a single" else _WORD_VALUE[raw])
        out.setdefault(_noun_key(noun), set()).add(value)
    return out


# Every form of a unit ("minute", "minutes": the plural strip keeps "minut").
_UNIT_KEYS = frozenset(
    {_noun_key(f) for u in _UNITS for w in u.split() for f in (w, w + "s")}
    | {"calendar", "working", "busines"}
)


# How :func:`say` writes each kind: (the unit's size in the canonical unit, singular,
# plural), largest first; the first that divides the value evenly is used.
_SAY_UNITS: dict[str, tuple[tuple[float, str, str], ...]] = {
    "min": (
        (10080, "week", "weeks"),
        (1440, "day", "days"),
        (60, "hour", "hours"),
        (1, "minute", "minutes"),
    ),
    "bday": ((1, "business day", "business days"),),
    "month": ((12, "year", "years"), (1, "month", "months")),
    "night": ((1, "night", "nights"),),
    "dist": ((1000, "km", "km"), (1, "m", "m"), (0.01, "cm", "cm")),
    "mass": ((1_000_000, "tonne", "tonnes"), (1000, "kg", "kg"), (1, "g", "g")),
    "vol": ((1000, "litre", "litres"), (1, "ml", "ml")),
    "data": ((1000, "GB", "GB"), (1, "MB", "MB")),
    "age": (
        (365.25, "year old", "years old"),
        (7, "week old", "weeks old"),
        (1, "day old", "days old"),
    ),
}
# (The longest name of each month: "September", not "Sept".)
_MONTH_NAMES_BY_NUMBER = {
    n: max((m for m, k in MONTHS.items() if k == n), key=len).capitalize()
    for n in set(MONTHS.values())
}


def say(q: str) -> str:
    """A canonical quantity of :func:`quantities` as people write it, for cues:
    ``min:1440`` -> "1 day", ``every:min:60`` -> "every hour", ``money:GBP:12.79`` ->
    "GBP 12.79", ``clock:900`` -> "15:00", ``date:301`` -> "March 1", ``ord:3`` ->
    "3rd", ``pct:5`` -> "5%", ``n:2`` -> "2". A form it does not know is returned as
    it is."""
    kind, _, rest = q.partition(":")
    try:
        if kind == "every":
            inner = say(rest)
            return "every " + (inner[2:] if inner.startswith("1 ") else inner)
        if kind == "money":
            currency, _, amount = rest.partition(":")
            return f"{currency} {amount}" if currency and currency != "None" else amount
        if kind == "pct":
            return f"{rest}%"
        if kind == "n":
            return rest
        if kind == "ord":
            n = int(rest)
            end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return f"{n}{end}"
        if kind == "clock":
            h, m = divmod(int(rest), 60)
            return f"{h:02d}:{m:02d}"
        if kind == "date":
            month, day = divmod(int(rest), 100)
            return f"{_MONTH_NAMES_BY_NUMBER[month]} {day}"
        value = float(rest)
        if not math.isfinite(value) or abs(value) >= 1e15:
            return q
        sizes = _SAY_UNITS[kind]
        # The largest unit that counts the value whole, in fewer than a thousand ("90
        # minutes", "25 hours"); else the largest it is at least one of ("5 miles" is
        # "8.047 km", not "804672 cm").
        size, one, many = next(
            (
                u
                for u in sizes
                if value
                and abs(value / u[0] - round(value / u[0])) < 1e-9
                and abs(value / u[0]) < 1000
            ),
            next((u for u in sizes if abs(value) >= u[0]), sizes[-1]),
        )
        units = value / size
        return f"{_fmt(units)} {one if units == 1 else many}"
    except (KeyError, ValueError):
        pass
    return q
