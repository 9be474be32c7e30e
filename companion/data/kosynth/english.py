"""English morphology: articles by sound, plurals, third-person -s, past tense, -ing,
and the auxiliary system (do-support, will, be + V-ing)."""

from __future__ import annotations

from functools import lru_cache

#: words spelled with a vowel letter but starting with a consonant sound, and vice versa
_A_BEFORE = ("uni", "use", "usu", "uti", "euro", "eu", "one", "once", "ufo", "uk", "ura")
_AN_BEFORE = ("hour", "honest", "honor", "honour", "heir", "herb")
_VOWEL_LETTER_ABBREV = set("AEFHILMNORSX")


def indefinite_article(word: str) -> str:
    """'a' or 'an' by the sound of ``word``: an apple, an hour, a university, an 8."""
    w = word.lower()
    if not w:
        raise ValueError("empty word")
    if w[0].isdigit():
        return "an" if w.startswith(("8", "11", "18")) and not w.startswith(("111",)) else "a"
    if w.startswith(_AN_BEFORE):
        return "an"
    if w.startswith(_A_BEFORE):
        return "a"
    return "an" if w[0] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """Prefix 'a' or 'an' chosen by the phrase's first word."""
    return f"{indefinite_article(phrase.split()[0])} {phrase}"


IRREGULAR_PLURALS = {
    "child": "children", "man": "men", "woman": "women", "person": "people", "mouse": "mice",
    "tooth": "teeth", "foot": "feet", "goose": "geese", "sheep": "sheep", "fish": "fish",
    "deer": "deer", "ox": "oxen", "knife": "knives", "wife": "wives", "leaf": "leaves",
    "loaf": "loaves", "wolf": "wolves", "shelf": "shelves", "thief": "thieves",
    "half": "halves", "calf": "calves", "life": "lives", "potato": "potatoes",
    "tomato": "tomatoes", "hero": "heroes", "echo": "echoes", "policeman": "policemen",
    "fireman": "firemen", "businessman": "businessmen", "fisherman": "fishermen",
    "salmon": "salmon", "squid": "squid", "octopus": "octopuses", "cactus": "cacti",
    "series": "series", "species": "species", "scissors": "scissors", "glasses": "glasses",
    "trousers": "trousers", "jeans": "jeans", "pants": "pants", "shrimp": "shrimp",
    "goldfish": "goldfish", "scarf": "scarves", "grandchild": "grandchildren", "bison": "bison",
    "buffalo": "buffaloes", "moose": "moose", "trout": "trout",
}


def plural(noun: str) -> str:
    """children, mice, people; watches, boxes, studies, days; the last word of a compound."""
    if " " in noun:
        head, last = noun.rsplit(" ", 1)
        return f"{head} {plural(last)}"
    if noun in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[noun]
    if noun.endswith("child"):  # schoolchild -> schoolchildren
        return noun + "ren"
    if noun.endswith("man") and noun not in ("human", "German", "Roman", "shaman"):
        return noun[:-3] + "men"  # upperclassman -> upperclassmen, chairman -> chairmen
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def third_person(verb: str) -> str:
    """watches, studies, goes, does, has, plays; the first word of a phrasal verb."""
    if " " in verb:
        first, rest = verb.split(" ", 1)
        return f"{third_person(first)} {rest}"
    if verb == "have":
        return "has"
    if verb == "be":
        return "is"
    if verb.endswith(("s", "x", "z", "ch", "sh", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "i", "o", "u"):
        return verb[:-1] + "ies"
    return verb + "s"


IRREGULAR_PAST = {
    "be": "was", "have": "had", "do": "did", "go": "went", "eat": "ate", "drink": "drank",
    "see": "saw", "make": "made", "take": "took", "give": "gave", "come": "came",
    "buy": "bought", "bring": "brought", "think": "thought", "teach": "taught",
    "catch": "caught", "fight": "fought", "seek": "sought", "read": "read", "write": "wrote",
    "run": "ran", "swim": "swam", "sing": "sang", "ring": "rang", "begin": "began",
    "sit": "sat", "stand": "stood", "understand": "understood", "know": "knew",
    "grow": "grew", "throw": "threw", "draw": "drew", "fly": "flew", "blow": "blew",
    "find": "found", "build": "built", "send": "sent", "spend": "spent", "lend": "lent",
    "sell": "sold", "tell": "told", "hold": "held", "feel": "felt", "keep": "kept",
    "sleep": "slept", "leave": "left", "meet": "met", "lose": "lost", "win": "won",
    "get": "got", "forget": "forgot", "put": "put", "cut": "cut", "hit": "hit", "shut": "shut",
    "let": "let", "set": "set", "cost": "cost", "hurt": "hurt", "quit": "quit",
    "say": "said", "pay": "paid", "lay": "laid", "hear": "heard", "wear": "wore",
    "tear": "tore", "bear": "bore", "steal": "stole", "speak": "spoke", "break": "broke",
    "choose": "chose", "wake": "woke", "drive": "drove", "ride": "rode", "rise": "rose",
    "fall": "fell", "hide": "hid", "bite": "bit", "feed": "fed", "lead": "led",
    "light": "lit", "shoot": "shot", "dig": "dug", "hang": "hung", "stick": "stuck",
    "strike": "struck", "swing": "swung", "become": "became", "forgive": "forgave",
    "shake": "shook", "mistake": "mistook", "bake": "baked", "lie": "lay", "freeze": "froze",
    "burn": "burned", "learn": "learned", "dream": "dreamed", "mean": "meant",
    "sweep": "swept", "weep": "wept", "bend": "bent", "bind": "bound", "wind": "wound",
    "spin": "spun", "sink": "sank", "shrink": "shrank", "stink": "stank",
    "overcome": "overcame", "understand ": "understood", "undertake": "undertook",
    "withdraw": "withdrew", "fit": "fit", "spread": "spread", "split": "split",
    "upset": "upset", "bet": "bet", "broadcast": "broadcast", "beat": "beat",
    "wash": "washed", "lend ": "lent", "deal": "dealt", "kneel": "knelt", "slide": "slid",
}

#: verbs whose final consonant doubles before -ed / -ing
DOUBLING = frozenset("stop plan drop shop jog hug rob rub beg chat clap grab hop nod pat "
                     "skip slip step trip wrap ship plug admit commit prefer refer regret "
                     "permit control patrol occur dig run swim sit get "
                     "put cut hit win begin forget set let shut spin quit fit tap mop pop "
                     "sip knit jam nap dip whip scrub trim rip zip star pet".split())


def _double(verb: str) -> bool:
    return verb in DOUBLING


def past(verb: str) -> str:
    """ate, went, studied, stopped, played, liked; the first word of a phrasal verb."""
    if " " in verb:
        first, rest = verb.split(" ", 1)
        return f"{past(first)} {rest}"
    if verb in IRREGULAR_PAST:
        return IRREGULAR_PAST[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "i", "o", "u"):
        return verb[:-1] + "ied"
    if _double(verb):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def present_participle(verb: str) -> str:
    """eating, making, running, lying, seeing, studying; first word of a phrasal verb."""
    if " " in verb:
        first, rest = verb.split(" ", 1)
        return f"{present_participle(first)} {rest}"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and verb != "be":
        return verb[:-1] + "ing"
    if _double(verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def be_form(tense: str, plural_subject: bool) -> str:
    """is/are, was/were for the third person."""
    if tense == "past":
        return "were" if plural_subject else "was"
    return "are" if plural_subject else "is"


@lru_cache(maxsize=None)
def verb_phrase(verb: str, tense: str, *, plural_subject: bool = False,
                negated: bool = False, question: bool = False,
                adjective: bool = False) -> tuple[tuple, tuple]:
    """English verb group for a third-person subject.

    Returns ``(before_subject, after_subject)`` lists of ``(word, role)`` with role ``AUX``
    (do/does/did/will/is...), ``NEG`` (not) or ``V`` (the lexical verb or adjective).
    ``before_subject`` is non-empty only for inverted questions. Besides the tenses of the
    Korean clause (present, past, future, progressive), two English-only tenses serve the
    sequence of tenses in a relative clause of a past sentence: ``would`` ("who would
    meet") and ``past_progressive`` ("who was photographing").

    verb_phrase("eat", "past", negated=True) -> ((), (("did","AUX"),("not","NEG"),("eat","V")))
    """
    if tense == "would":  # the future seen from the past: "who would meet"
        aux = ("would", "AUX")
        rest = [("be", "AUX"), (verb, "V")] if adjective else [(verb, "V")]
    elif tense == "past_progressive":  # "who was photographing"
        aux, rest = (be_form("past", plural_subject), "AUX"), [(present_participle(verb), "V")]
    elif adjective:  # verb is the adjective, the verb is "be"
        if tense == "future":
            aux, rest = ("will", "AUX"), [("be", "AUX"), (verb, "V")]
        else:
            aux, rest = (be_form(tense, plural_subject), "AUX"), [(verb, "V")]
    elif tense == "progressive":
        aux, rest = (be_form("present", plural_subject), "AUX"), [(present_participle(verb), "V")]
    elif tense == "future":
        aux, rest = ("will", "AUX"), [(verb, "V")]
    elif negated or question:
        do = {"past": "did"}.get(tense, "do" if plural_subject else "does")
        aux, rest = (do, "AUX"), [(verb, "V")]
    else:
        form = past(verb) if tense == "past" else (verb if plural_subject else third_person(verb))
        return (), tuple(_split([(form, "V")]))
    neg = [("not", "NEG")] if negated else []
    if question:
        return (aux,), tuple(neg + _split(rest))
    return (), tuple([aux] + neg + _split(rest))


def _split(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Split multi-word entries ("look at") into one token per word, same role."""
    out = []
    for word, role in items:
        out.extend((w, role) for w in word.split())
    return out


NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_text(n: int) -> str:
    """A number as English prose writes it: one to ten in words, larger ones in digits
    (number_text(4) == "four", number_text(12) == "12")."""
    return number_word(n) if 0 <= n <= 10 else str(n)


def number_word(n: int) -> str:
    """English cardinal for 0..99: number_word(21) == "twenty-one"."""
    if not 0 <= n < 100:
        raise ValueError(f"number out of range: {n}")
    if n < 20:
        return NUMBER_WORDS[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{NUMBER_WORDS[ones]}" if ones else "")


_SIZE = frozenset("big small long short tall low tiny huge thick thin spacious narrow deep "
                  "shallow heavy light".split())
_QUALITY = frozenset("hot cold warm cool clean dirty soft hard sharp dull sturdy sleepy hungry "
                     "thirsty tired sick healthy strong weak slim fat bright dark quiet noisy "
                     "fresh sweet salty spicy sour bland crispy chewy savory".split())
_AGE_SHAPE = frozenset("old new young round".split())
_COLOR = frozenset("red blue yellow white black".split())


def adjective_rank(adj: str) -> int:
    """Conventional English order: opinion < size < physical quality < age/shape < colour
    ("a nice big clean old red car")."""
    if adj in _COLOR:
        return 4
    if adj in _AGE_SHAPE:
        return 3
    if adj in _QUALITY:
        return 2
    if adj in _SIZE:
        return 1
    return 0
