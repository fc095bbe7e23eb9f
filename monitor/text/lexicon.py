"""The English word lists the text analysis relies on.

Every list here is general English, documented, and independent of any golden
set: policy terms always come from the reference itself, never from a list.
"""

from __future__ import annotations

import re

# Function words: never policy terms, ignored in overlap.
STOPWORDS = frozenset(
    """a an the and or but if then than so of to in on at by for from with as into onto over
    under about per via is are was were be been being am it its this that these those there
    here you your yours we our ours they their them he she his her i me my mine us who whom
    which what when where while whose how will would should shall may might must can could do
    does did done has have had having please also just only too very still any all each every
    some such both either own same other another someone somebody anyone anybody everyone
    everybody something anything everything one ones until till since during throughout
    upon yourself yourselves itself themselves""".split()
) | frozenset(
    # A pronoun with its verb contracted ("it'll", "you're") is still a function word.
    f"{pronoun}'{verb}"
    for pronoun in "i you we they he she it that there here what who let".split()
    for verb in ("ll", "re", "ve", "d", "s", "m")
)
# Light verbs, adverbs and generic nouns that paraphrases swap freely. They count
# for coverage but are not *policy terms*: replacing "call" by "phone" or "keep"
# by "stay" is a paraphrase, not a different policy.
LIGHT_WORDS = frozenset(
    """get gets got getting make makes made making take takes took taking give gives gave given go
    goes went going gone come comes came coming put puts let lets keep keeps kept stay stays
    stayed use uses used using call calls called calling phone phoned ask asks asked asking
    request requests requested requesting tell tells told say says said see sees saw seen
    check checks checked find finds found want wants need needs needed help helps try tries
    start starts happen happens happened show shows showed shown ensure sure currently now
    then today always usually simply first next finally again back up out off last latest
    recent previous new effect effective down away way thing things time person people case
    cases number item items note also please kindly just go able example instance because
    due soon moment""".split()
)
# ("Soon" and "moment" tie a statement to a time as a connective does: "as soon as the
# new card is issued" = "the moment it is issued" = "once it is issued".)
# Common English verbs (base forms; inflections are derived below). A policy
# swap replaces *what* (a fee, a refund, on-site repair, 24 hours), rarely the
# verb around it; paraphrases change verbs all the time (receive/arrive,
# assigned/handled). So verbs are never policy terms; polarity-changing verbs
# are handled by the antonym list instead.
# Words that are as often policy nouns ("at no cost", "a repair", "the review")
# are deliberately left out.
_VERBS = """accept achieve act add adjust advise calculate affect agree allow answer appear apply
    approve argue arrange arrive assign assist assume attach attempt attend avoid become
    begin believe belong bring build buy cancel carry catch cause choose claim clean clear
    close collect come compare complete concern confirm connect consider contain continue
    convert copy correct create cut deal decide define deliver depend describe design
    determine develop die discover discuss display divide drive drop earn eat encourage end
    enjoy enter establish exist expect expire explain express extend face fail fall feel
    fill find finish fit fix follow forget form gain gather generate get give go grow handle
    happen hang have hear help hide hit identify ignore imagine improve include increase
    indicate inform insist install intend introduce invite involve join keep kill know lack
    last lead learn leave lend let lie like limit link live look lose love maintain make
    manage matter mean measure meet mention mind miss move need notice notify obtain occur
    offer open operate own pass pay perform pick plan play point prefer prepare present
    prevent produce promise protect prove provide pull push put raise reach read realise
    realize receive recognise recognize recommend reduce refer reflect refuse register
    reimburse reinstall relate release rely remain remember remove renew replace require
    reschedule resolve respond rest restart result retain reveal rise run save say see seek
    seem select sell send serve settle share shut sit solve sort speak spend stand start
    stay stick stop submit succeed suffer suggest suppose survive take talk teach tell tend
    thank think throw touch train travel treat try understand use vary verify wait walk want
    wash watch wear win wish wonder work write""".split()
_IRREGULAR = """got gotten gave given went gone came made took taken kept left let paid put
read sent set shown shipped told wrote written brought bought chose chosen held meant ran
saw seen began begun became built caught cut dealt drove driven fell felt found forgot
forgotten grew grown heard hid hidden hit knew known laid led lent lost met rose sold sat
spoke spoken spent stood stuck taught thought thrown threw understood won wore worn""".split()


def inflections(verb: str) -> set[str]:
    """The regular inflections of an English verb's base form (a superset is harmless:
    the forms are only ever looked up)."""
    stem = verb[:-1] if verb.endswith("e") else verb
    forms = {verb, verb + "s", verb + "es", stem + "ed", stem + "ing", verb + "d", verb + "ed"}
    if verb.endswith("y"):
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied"}
    return forms


COMMON_VERBS = frozenset({f for v in _VERBS for f in inflections(v)} | set(_IRREGULAR))
# Negators and negative phrasings that flip a clause's polarity.
NEGATORS = frozenset("""not no never cannot none nobody nothing neither nor without n't""".split())
# The negators that deny a verb ("is not accepted", "can't be used", "never opens").
VERB_NEGATORS = frozenset({"not", "n't", "never", "cannot"})
# Words that negate like a negator for polarity (not for content): "unless" is "if
# not"; "waived" and "free" say that nothing is charged, as "no fee" does.
POLARITY_NEGATORS = NEGATORS | frozenset("unless waive waived waives free".split())
# Verbs whose negation is an affirmation (litotes): "don't forget your licence" =
# "bring your licence", "do not hesitate to call" = "call", "without delay" =
# "promptly", "you won't lose the deposit" = "you keep it".
LITOTES_VERBS = frozenset(
    """forget forgets forgot forgotten forgetting hesitate hesitating fail failing
    neglect omit overlook skip miss lose delay worry""".split()
)
# Verbs that mean "not do": "miss 3 appointments" = "do not attend 3 appointments".
NEGATIVE_VERBS = frozenset(
    """miss misses missed missing skip skips skipped skipping forget forgets forgot
    forgetting neglect neglects neglected omit omits omitted""".split()
)
# Phrases with a negator that state a bound or a cost, not a negation: rewritten to
# their plain form before polarity is read ("no later than 10 days" = "by day 10",
# "no more than 3" = "at most 3", "at no cost" = "free").
BOUND_PHRASES: tuple[tuple[str, str], ...] = (
    ("no later than", "by"),
    ("not later than", "by"),
    ("no more than", "at most"),
    ("not more than", "at most"),
    ("no longer than", "at most"),
    ("no fewer than", "at least"),
    ("no less than", "at least"),
    ("not less than", "at least"),
    ("no sooner than", "at earliest"),
    ("no earlier than", "at earliest"),
    ("not earlier than", "at earliest"),
    ("not before", "at earliest"),
    ("not exceeding", "at most"),
    ("not exceed", "at most"),
    ("n't exceed", "at most"),
    ("at no cost", "free"),
    ("at no charge", "free"),
    ("at no extra cost", "free"),
    ("at no extra charge", "free"),
    ("in excess of", "more than"),
    ("free of charge", "free"),
    ("feel free", "please"),
    ("ahead of", "before"),
    ("prior to", "before"),
    ("in advance of", "before"),
)
# A size, weight or age bound written as a denied comparative ("no larger than 60 cm",
# "not heavier than 20 kg", "no younger than 18") is the bound itself.
BOUND_PHRASES += tuple(
    (f"{neg} {adj} than", plain)
    for plain, adjs in (
        ("at most", "larger bigger greater heavier higher wider taller older longer"),
        ("at least", "smaller shorter lower younger"),
    )
    for adj in adjs.split()
    for neg in ("no", "not")
    if f"{neg} {adj} than" not in ("no longer than",)
)
# Prefixes that negate a word ("disagree" = "not agree", "unpaid" = "not paid").
# "No-" writes a negation as a compound ("no-shows" = "don't show up").
NEGATIVE_PREFIXES = ("dis", "un", "in", "im", "il", "ir", "non-", "non", "no-")
NEGATIVE_PHRASES = (
    "no longer",
    "need not",
    "needn't",
    "not required",
    "is optional",
    "are optional",
    "not necessary",
    "not needed",
    "not need",
    # Contracted ("doesn't need to", "isn't required"): the tokens are "does n't need".
    "n't required",
    "n't necessary",
    "n't needed",
    "n't need",
    # A negated obligation is a permission: "does not have to be listed".
    "not have to",
    "n't have to",
    "not has to",
    "not obliged to",
    "n't obliged to",
    "not mandatory",
    "n't mandatory",
    "not compulsory",
    "n't compulsory",
    "is voluntary",
    "are voluntary",
)
# Antonym pairs: one side in the step and the other in the answer flips the
# polarity ("Do not throw away the items" = "Keep the items"; "must be included"
# = "must not be excluded"). Multi-word sides are matched as phrases.
ANTONYM_PAIRS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split("|")), frozenset(b.split("|")))
    for a, b in (
        (
            "keep|kept|retain|retained",
            "throw away|throw out|thrown away|thrown out|threw away|threw out|discard|"
            "discarded|delete|deleted|dispose",
        ),
        ("include|included|includes", "exclude|excluded|excludes"),
        # "refunded in full except the £30 deposit" / "including the £30 deposit"
        ("including", "except|excluding"),
        (
            "allow|allowed|allows|permit|permitted",
            "prohibit|prohibited|forbid|forbidden|ban|disallow|disallowed",
        ),
        (
            "accept|accepted|accepts|approve|approved",
            "reject|rejected|refuse|refused|decline|declined|deny|denied",
        ),
        ("eligible", "ineligible"),
        ("cover|covers|covered", "exclude|excludes|excluded|uncovered"),
        ("supported", "unsupported"),
        ("refundable", "nonrefundable|non-refundable"),
        ("available", "unavailable"),
        ("possible", "impossible"),
        ("able", "unable"),
        ("valid", "invalid"),
        ("required|mandatory|compulsory|necessary", "optional|unnecessary"),
        ("before", "after"),
        ("enable|enabled", "disable|disabled"),
        ("open|opened", "close|closed"),
        ("start|started", "stop|stopped"),
        ("same", "different"),
    )
)
# The one-word antonyms (polarity owns them: they are never a policy swap).
ANTONYM_WORDS = frozenset(
    w for pair in ANTONYM_PAIRS for side in pair for w in side if " " not in w
)
# Money given back against money the customer loses ("the deposit is refunded" / "you
# lose the deposit"); not "kept" or "retained", which say the same from the other side
# ("we keep the deposit"), nor "lost", which is as often a lost item ("if a parcel is
# lost, we pay you back"). A polarity pair whose words stay policy words: "returned to
# the sender" -> "refunded to the sender" is a swap.
MONEY_BACK = (
    frozenset("refund refunds refunded".split()),
    frozenset("forfeit forfeits forfeited lose loses".split()),
)
ANTONYM_PAIRS += (MONEY_BACK,)
# Each one-word antonym that is a word of the other side of its pair with a negative
# prefix ("non-refundable", "unavailable", "ineligible"), with those words.
PREFIXED_ANTONYMS: dict[str, frozenset[str]] = {}
for _left, _right in ANTONYM_PAIRS:
    for _one, _two in ((_left, _right), (_right, _left)):
        for _word in _one:
            _bare = frozenset(
                w for w in _two for pre in NEGATIVE_PREFIXES if " " not in w and _word == pre + w
            )
            if _bare and " " not in _word:
                PREFIXED_ANTONYMS[_word] = PREFIXED_ANTONYMS.get(_word, frozenset()) | _bare
# Every word of every antonym: a text without any of them needs no antonym check.
ANTONYM_TRIGGERS = frozenset(
    t for pair in ANTONYM_PAIRS for side in pair for w in side for t in w.split()
)
# Obligation vs permission: "must be collected in person" -> "can be collected by
# anyone" weakens a rule without a negator; it is a polarity flip of the rule. An
# instruction to see to something ("make sure the inspector can get onto the site")
# is an obligation too.
OBLIGATION = (
    "must",
    "have to",
    "has to",
    "need to",
    "needs to",
    "required",
    "shall",
    "mandatory",
    "only",
    "make sure",
    "makes sure",
    "be sure to",
    "ensure",
    "ensures",
    "remember to",
    "essential",
)
PERMISSION = ("can", "may", "could", "optional", "allowed to", "free to")
# A count said as an adverb ("twice a week", "can only move it twice").
TIMES_WORDS = {"once": 1, "twice": 2, "thrice": 3}
# Small numbers written as words read as the digits (procedure: "two days" = "2 days").
NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}
# Month names and abbreviations -> month number (date parsing).
MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
# Trailing words that a field label may drop in prose: "case number" -> "case".
GENERIC_LABEL_TAIL = frozenset({"number", "id", "no", "num", "code", "value", "name", "date", "nr"})
# Openers of a conversational sentence (no citation needed: "thanks", "hope this helps").
CONVERSATIONAL_OPENERS = (
    "hi",
    "hello",
    "hey",
    "thanks",
    "thank you",
    "you're welcome",
    "you are welcome",
    "happy to help",
    "glad to help",
    "hope this helps",
    "i hope this helps",
    "let me know",
    "feel free",
    "sure",
    "of course",
    "great question",
    "good question",
)


# Words that say something costs nothing.
COST_FREE_WORDS = frozenset({"free", "waive", "waived", "waives", "complimentary"})
# Closed classes whose members state one comparison, one age, or one carry-over in
# other words ("larger than A4" / "over A4"; "anything above 3 m3" / "any excess";
# "aged 18 or over" / "18 or older"; "does not roll over" / "isn't carried forward").
SAME_CLASS_WORDS: tuple[frozenset[str], ...] = (
    frozenset(
        """more over above excess larger bigger greater exceed exceeds exceeded exceeding
        longer higher""".split()
    ),
    frozenset("less under below smaller fewer shorter lower".split()),
    frozenset("age aged old older".split()),
    frozenset("roll rolls rolled carry carries carried".split()),
)
# More classes that keep a word of a declared policy term (and of a negatively prefixed
# one), but are not evidence that two texts talk about one thing: "no refunds for sale
# items" does not bear on "sale items can be returned for store credit", and "returned
# to the sender" is not "refunded to the sender".
TERM_CLASS_WORDS: tuple[frozenset[str], ...] = (
    *SAME_CLASS_WORDS,
    # When something follows something else ("once payment has cleared" = "after the
    # payment has gone through").
    frozenset("once after following upon".split()),
    # Money given back ("non-refundable" = "not returnable").
    frozenset("refund refunds refunded refundable return returns returned returnable".split()),
    # A price for each one ("£38 per head" = "£38 each").
    frozenset("head person each apiece".split()),
    # Nothing to pay ("a free adjustment" = "a complimentary adjustment").
    COST_FREE_WORDS,
    # A price cut ("a 5% discount" = "a 5% reduction"; "5% off": see steps).
    frozenset("discount discounts discounted reduction reductions reduced".split()),
)

# "The original payment method" said as what the customer paid with: "the card you
# paid with", "the card or account you used to pay", "the same card you booked with".
ORIGINAL_PAYMENT = re.compile(
    r"\boriginal (?:payment (?:method|card)|(?:form|method|means) of payment|card)\b"
)
PAID_WITH = re.compile(
    r"\b(?:card|account|method|payment method)s? (?:(?:that|which) )?(?:you|they|we|he|she|i) "
    r"(?:\w+ ){0,2}?(?:paid|pay|used|booked|bought|charged)\b"
)
# ... but not where it is denied or left open: "not the card you paid with", "instead
# of the card you paid with", "whatever card you paid with, ..." (but "back to whichever
# card or account you paid with" names it).
PAID_WITH_DENIED = re.compile(
    r"(?:\b(?:not|n't|never|instead of|rather than|other than)"
    r"|(?<!\bto )(?<!\bonto )(?<!\bon )(?<!\binto )\b(?:whatever|whichever))"
    r" (?:\S+ ){0,3}?(?:card|account|method|payment method)s? (?:(?:that|which) )?"
    r"(?:you|they|we|he|she|i) "
)


def paid_with(text: str) -> bool:
    """Whether ``text`` (tokens, space-joined) names the original payment method as
    what the customer paid with, without denying it."""
    return bool(PAID_WITH.search(text)) and not PAID_WITH_DENIED.search(text)


# Which way an amount moves: "reduced by 50%" is "50% off", not "50% extra".
UP_WORDS = frozenset(
    """increase increased increases increasing raise raised raises rise rises extra more
    higher surcharge added add adds plus""".split()
)
DOWN_WORDS = frozenset(
    """reduce reduced reduces reducing reduction lower lowered cut cuts discount
    discounted off less minus decrease decreased decreases""".split()
)

# Words that speak of what something costs (and COST_FREE_WORDS, above).
COST_WORDS = frozenset(
    "fee fees charge charges charged cost costs price pay pays paid payable fine surcharge".split()
)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 instance"``, ``"3 instances"``: a count and its noun, agreeing."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
