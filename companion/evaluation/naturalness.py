"""Does a Korean-English pair read naturally? A rule-based check written apart from the generator.

The generated corpus (:mod:`companion.data.kosynth`) is grammatical by construction -- particles,
conjugation and negation are checked elsewhere -- but grammatical is not natural. This module
reads pairs the way a reviewer reads the corpus files: the Korean line, the English line and, where
given, the Pharaoh alignment line. It imports nothing from the generator; every rule works from
its own short word lists below, written from Korean and English usage, so a mistake in the
generator's tables is not silently shared by the check.

=====================  ========================================================================
rule                   a pair is flagged when ...
=====================  ========================================================================
antonym_adjectives     one noun phrase stacks two adjectives of one scale, ``큰 작은 남자``
                       "big small man", ``높고 낮은`` (size, height, length, temperature, ...)
stacked_adjectives     a 하다-adjective is stacked on another adjective without -고:
                       ``착한 조용한 사람`` (natural: ``착하고 조용한 사람``)
indefinite_topic       an indefinite subject takes the topic marker: ``한 여자는``,
                       ``어떤 소년은`` (natural: ``한 여자가``)
posture_progressive    a posture verb in -고 있- is glossed as a state: ``서고 있는`` "who is
                       standing" (the state is ``서 있는``; 서고 있다 is "is standing up")
curious_trait          궁금하다 is used as a person's trait (``궁금한 광대``); the trait is
                       ``호기심 많은`` "curious"
same_noun_object       a noun is its own object or recipient in one clause, ``학생이 학생에게``
                       (natural: ``학생이 다른 학생에게``)
implausible_adjective  an adjective that does not fit its noun: "tall school", "low store",
                       "long dog", "a heavy email", "crispy soup"
modifier_garden_path   an adjective predicate in -고 is followed by an adjective, so that the
                       clause boundary reads as one noun phrase: ``방이 크고 작은 소녀가`` ("the
                       room is big, and the small girl" read as "the big and small girl")
lasting_with_time      a lasting property is bound to a time: "the chair was low yesterday",
                       "is the sofa tall today?" (a passing state is fine: "the room is hot
                       today")
dangling_adverbial     (needs the alignment) a time, place or manner adverbial stands where a
                       reader attaches it to a relative clause's verb while it belongs to another
                       verb -- in Korean before the relative clause (``매일 가게에서 사과를 산
                       소녀를 만났다``), in English after it ("met the girl who bought the apple
                       every day")
article_han            한 translates the English "a" outside Korean narrative's introduction of
                       a subject: ``한 목수를 만났다``, ``녹음기와 한 노란 민들레`` (Korean: the
                       bare noun; ``한 여자가 들어왔다`` "a woman came in" is narrative)
eotteon_question       어떤 in a question, where it reads "which", not translated so:
                       ``어떤 이모가 엽서를 읽어줬니?`` "Did an aunt read the postcard?"
eotteon_do_positive    어떤 N도 ("any / no N") with a verb its clause does not negate:
                       ``어떤 팀장도 동물원에 돌아와요``
eotteon_do_reading     어떤 N도 under negation translated without "no / any": ``어떤 배달원도 안
                       뽑는다`` "a delivery worker does not pull out ... either"
unrelated_connective   because / if / when between events the compatibility table below does
                       not link ("the girl bought bread because the hamster stood up")
lasting_at_moment      a lasting property timed by a when-clause: "the sofa was low when
                       Minjun called"
clause_before_relative (needs the alignment) a subordinate clause ends right where a relative
                       clause begins and the reference attaches it elsewhere: ``사회가 어려워서
                       우는 이모`` read as "the aunt who cries because ..."
future_adjective_go    an adjective clause in -고 translated as future ("the room will be big,
                       and ..."): a Korean reader gives it the present
relative_tense_in_past a relative clause in a past sentence with "will" or "is -ing" ("met the
                       girl who will sing"; English: "would sing", "was singing")
generic_the            a generic mass object with "the" in a habitual sentence ("drinks the tea
                       every day")
missing_object         a verb without the object English requires ("asks the daughter", "gives
                       to the boy")
kinship_possessor      "the" + kinship noun, where English names whose ("the maternal uncle")
small_number_digits    one to ten in digits in running English ("1 other librarian"; clock
                       times keep digits)
light_verb_spacing     a light-verb phrase written as one word: ``미소지었다`` (``미소 지었다``)
honorific_counter      an honorific noun counted with 명: ``시장님 서른 명`` (``서른 분``)
location_particle      에서 with a verb of position or dwelling (``도서관에서 앉아``: 에), 에 for
                       the destination of 이사하다 (``병원에 이사``: 으로)
wrong_gloss            a known wrong gloss: 소방대원 "rescue worker" (firefighter), 쌍둥이 "twin"
wrong_pairing          a pairing the language does not use: ``바쁜 복도`` (붐비다), ``밥을
                       요리하다`` (밥을 짓다), a chick that bites (쪼다), 사마귀새끼, an animal
                       drinking tea, "smile loudly", "wear hard"
age_topic              an age stated with 이/가 in a neutral statement: ``백진영이 72살입니다``
                       (``백진영은``)
missing_honorific      an honoured subject (선생님, 어머니, 할아버지, 신부님, any noun counted
                       with 분) with a verb without -(으)시-: ``선생님 여섯 분이 사요``
                       (``사세요``), ``신부님이 조립한 의자`` (``조립하신``)
adjective_count        two or more attributive adjectives on one noun: ``빠르고 아픈 낙타``
numeral_style          Arabic digits with 분 (``선생님 6분`` reads "six minutes": ``여섯 분``);
                       Arabic and native numerals under 100 counting in one sentence
                       (``아홉 명 ... 4명``)
size_on_person         bare 크다 / 작다 on a person (``작은 남자``: ``키 작은 남자``; ``소년이
                       커요``), and ``큰 아이`` / ``작은 아이`` ("the eldest / youngest child")
wrong_counter          a noun counted with a counter it does not take (``시 열 개``: ``열 편``;
                       ``손수건 일곱 개``: ``일곱 장``), from this module's own counter table
hiking_place           등산하다 with a place in 에서: another place (``계곡에서 등산``) or the
                       mountain again (``산에서 등산``)
because_tense          a because-clause in the present with a past main clause, or an event in
                       the simple present with a future one ("will be hungry because it runs")
coordinate_adjectives  two adjectives of one kind before an English noun with no comma or
                       "and" ("cheerful brave worker"); cumulative ones in their order pass
                       ("big red ball"), and so does a noun's own word ("the big hot dog")
fronted_adverbials     more than one adverbial before the English subject ("Yesterday at the
                       store the boy ...", "When they were hungry, on Monday two couriers ...")
habitual_the           "the" + a singular count noun as the object of eating, buying, cooking
                       ... in a habitual sentence ("ate the strawberry every day")
first_do               도 on the first noun phrase of a sentence (``손지윤도 노래했다``): no
                       earlier noun shares its role (a heuristic; X도 Y도 passes)
progressive_pair       two progressive activities of one subject joined by -고 (``요리하고
                       있고 ... 야구를 하고 있어요``): one person does not do both at once
negated_own_relative   a negated clause whose subject carries a relative clause of the same
                       verb (``날고 있는 꿀벌은 안 날았습니다``)
effect_before_cause    an effect in -고 before its cause in -어서 and a state: ``오렌지를 먹었고
                       달려서 배고팠습니다`` (``달려서 배가 고파서 오렌지를 먹었습니다``)
counterless_han        한 + a noun as a subject with no counter: ``한 돼지가`` (``돼지 한
                       마리가`` or ``돼지가``)
double_subject         two bare subjects in a row, ``신지안이 가이드가 놀린 ...`` (a garden path;
                       ``소년이 배가 고프다`` passes)
stative_past_relative  a past relative of a stative verb: ``기억한 어부``, ``좋아하지 않은``
                       (``기억하는``, ``좋아하지 않는``)
kin_gender             형/누나/아내 after a female possessor, 오빠/언니/남편 after a male one (``황서아의
                       형``: 오빠), from this module's name and noun lists or an aligned his / her
arrive_ro              도착하다 with a place in (으)로: ``어디로 도착합니까`` (``어디에``)
seyo_statement         a statement ending in -세요, which reads first as an order
                       (``소리치세요.``: ``소리치십니다``)
first_mention_the      "ate / bought / picked the N" in a one-clause sentence whose Korean has
                       no demonstrative, possessor or topic on the noun ("ate a tomato")
wh_numeral_subject     a numeral subject without "the" in a wh-question ("Who are 90 rappers
                       angry at?": the 90 rappers)
one_off_present        a simple present for a one-off event in a one-clause statement with no
                       habit adverb ("A pig cries.": is squealing)
adverb_after_verb      a frequency adverb after the verb or its object ("dance suddenly",
                       "will yawn sometimes": suddenly dance, will sometimes yawn)
=====================  ========================================================================

The connective rule reads each English clause's predicate classes (hungry, tired, cold, hot,
sad, happy; eating, resting, shivering, cooling down, effort, falling, arrival, noise, teasing,
praise, weather) and accepts a because / if / when link only for a class pair of its table
(hungry -> eats, runs -> tired, cold -> shivers, falls -> cries) between clauses that share a
participant -- or across participants for noise, teasing, praise, weather and the cold or heat
of a place -- or a property of a thing the other clause names ("the soup is hot, so he does not
eat the soup"); "when" may also join two events of one participant, or time an event in
progress or a passing state by an arrival ("was sleeping when the guest came").

What the rules cannot see is listed in :data:`BLIND_SPOTS`. The alignment is used only to find
the Korean verb of each English relative clause (the eojeol its "who"/"that" is linked to), the
clause connectives, which Korean word an English adverbial translates, and which English words
translate one Korean noun (a person, or a compound such as 순두부 "soft tofu").

>>> report = check_pairs([("큰 작은 남자가 잔다.", "The big small man sleeps.")])
>>> report.counts["antonym_adjectives"], report.unnatural
(1, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import DataError

#: rule -> one-line description (the order in which reports list them)
RULES: dict[str, str] = {
    "antonym_adjectives": "two adjectives of one scale in one noun phrase (큰 작은 남자)",
    "stacked_adjectives": "a 하다-adjective stacked on another adjective without -고 "
                          "(착한 조용한 사람)",
    "indefinite_topic": "topic marker 은/는 on an indefinite subject (한 여자는)",
    "posture_progressive": "posture verb in -고 있- glossed as a state (서고 있는 'standing')",
    "curious_trait": "궁금하다 used as a trait (궁금한 광대)",
    "same_noun_object": "a noun as its own object or recipient (학생이 학생에게)",
    "implausible_adjective": "an adjective that does not fit its noun (tall school, long dog)",
    "modifier_garden_path": "an adjective predicate in -고 before an adjective reads as one noun "
                            "phrase (방이 크고 작은 소녀가)",
    "lasting_with_time": "a lasting property bound to a time (the chair was low yesterday)",
    "dangling_adverbial": "an adverbial where a reader attaches it to another verb than the "
                          "reference does",
    "article_han": "한 as the English article outside a narrative introduction (한 목수를 만났다)",
    "eotteon_question": "어떤 in a question not translated 'which' (어떤 이모가 …읽어줬니? 'Did an "
                        "aunt read …?')",
    "eotteon_do_positive": "어떤 N도 with a positive verb (어떤 팀장도 동물원에 돌아와요)",
    "eotteon_do_reading": "어떤 N도 under negation not translated 'no / any' (어떤 배달원도 안 뽑는다 "
                          "'a delivery worker does not pull out')",
    "unrelated_connective": "because / if / when between events no reader links (because the "
                            "hamster stands up)",
    "lasting_at_moment": "a lasting property timed by a when-clause (the sofa was low when …)",
    "clause_before_relative": "a subordinate clause right before a relative clause it does not "
                              "belong to (사회가 어려워서 우는 이모)",
    "future_adjective_go": "an adjective clause in -고 translated as future (will be big)",
    "relative_tense_in_past": "a relative clause in a past sentence with will / is -ing (came "
                              "with the boy who will yawn)",
    "generic_the": "a generic mass object with 'the' in a habitual sentence (drinks the tea "
                   "every day)",
    "missing_object": "a verb without its obligatory object (asks the daughter, gives to the "
                      "boy)",
    "kinship_possessor": "a kinship noun without a possessor (the maternal uncle)",
    "small_number_digits": "one to ten written in digits in running English (1 other "
                           "librarian)",
    "light_verb_spacing": "a light-verb phrase written as one word (미소지었다: 미소 지었다)",
    "honorific_counter": "an honorific noun counted with 명 (시장님 서른 명: 서른 분)",
    "location_particle": "에서 with a verb of position or dwelling (도서관에서 앉아), 에 for the "
                         "destination of 이사하다 (병원에 이사)",
    "wrong_gloss": "a known wrong gloss (소방대원 'rescue worker': firefighter)",
    "wrong_pairing": "a pairing the language does not use (바쁜 복도, 밥을 요리하다, a chick "
                     "bites, smile loudly)",
    "age_topic": "an age stated in a neutral statement with 이/가 (백진영이 72살입니다: 백진영은)",
    "missing_honorific": "an honoured subject with a verb without -시- (선생님 여섯 분이 사요: "
                         "사세요)",
    "adjective_count": "two or more attributive adjectives on one noun (빠르고 아픈 낙타)",
    "numeral_style": "Arabic digits with 분 (선생님 6분: 여섯 분), Arabic and native numerals "
                     "counting in one sentence (아홉 명 ... 4명)",
    "size_on_person": "bare 크다/작다 on a person (작은 남자: 키 작은 남자), 큰 아이 (the eldest)",
    "wrong_counter": "a noun counted with a counter it does not take (시 열 개: 열 편)",
    "hiking_place": "등산하다 with a place in 에서 (계곡에서 등산, 산에서 등산)",
    "because_tense": "a present because-clause with a past or future main clause (will be "
                     "hungry because it runs)",
    "coordinate_adjectives": "two adjectives of one kind before an English noun without a comma "
                             "or 'and' (cheerful brave worker)",
    "fronted_adverbials": "more than one adverbial before the English subject (Yesterday at "
                          "the store the boy ...)",
    "habitual_the": "'the' + a singular count noun as the object of a habitual sentence (ate "
                    "the strawberry every day)",
    "first_do": "도 on the first noun phrase of a sentence, with no earlier noun in its role "
                "(손지윤도 ...)",
    "progressive_pair": "two progressive activities of one subject joined by -고 (요리하고 "
                        "있고 ... 야구를 하고 있어요)",
    "negated_own_relative": "a negated clause whose subject's relative clause has the same verb "
                            "(날고 있는 꿀벌은 안 날았습니다)",
    "effect_before_cause": "an effect clause in -고 before its cause in -어서 (오렌지를 먹었고 "
                           "달려서 배고팠습니다)",
    "counterless_han": "한 + a noun as a subject without a counter (한 돼지가: 돼지 한 마리가)",
    "double_subject": "two bare subjects in a row (신지안이 가이드가 놀린 ...)",
    "stative_past_relative": "a past relative of a stative verb (기억한 어부: 기억하는)",
    "kin_gender": "형/누나/아내 after a female possessor, 오빠/언니/남편 after a male one (황서아의 형, 조민지의 아내)",
    "arrive_ro": "도착하다 with a place in (으)로 (어디로 도착합니까: 어디에)",
    "seyo_statement": "a statement ending in -세요, read as an order (소리치세요.: 소리치십니다)",
    "first_mention_the": "'ate / bought / picked the N' at a first mention (ate the tomato: a "
                         "tomato)",
    "wh_numeral_subject": "a numeral subject without 'the' in a wh-question (Who are 90 rappers "
                          "angry at?)",
    "one_off_present": "an English simple present for a one-off event (A pig cries.)",
    "adverb_after_verb": "a frequency adverb after the verb (dance suddenly, yawn sometimes)",
}

BLIND_SPOTS = (
    "an adverbial directly before an intransitive relative clause after a subject marked 이/가 "
    "(소년이 가게에서 기침하는 여자를 만났다) is not flagged: the surface cannot tell whether "
    "the subject belongs to the relative clause",
    "implausible adjective-noun pairs are checked only for the adjectives and nouns in this "
    "module's lists",
    "without an alignment the dangling-adverbial and clause-before-relative rules are skipped, "
    "clause boundaries fall back to the sentence, and the article rules read the whole English "
    "sentence instead of the words that translate 한 / 어떤",
    "related events are recognised only through the predicate classes of the compatibility "
    "table (hungry -> eat, run -> tired, fall -> cry ...) and shared participants: a link a "
    "reader accepts for another reason is flagged, and two unrelated events whose words fall "
    "in linked classes pass",
    "the English checks (kinship, generic objects, missing objects, digits) read only the word "
    "lists of this module: a kinship noun or mass noun not listed is not seen",
    "without an alignment an honoured subject is not checked when a second subject marked "
    "이/가 shares its clause (선생님이 만난 학생이 ...: whose verb, the surface cannot tell), "
    "and a relative clause's verb is not checked at all",
    "a person is recognised from this module's Korean list or, with the alignment, from its "
    "English word; a person noun in neither is not seen by the size rule",
    "도 is flagged only on a sentence's first noun phrase: a 도 in a later clause with no "
    "referent passes",
    "the sex of a kin term's possessor is known only from this module's short name and noun "
    "lists or an aligned his / her: names given to either sex, and names not listed, pass",
    "a one-off event in the simple present is recognised only in a one-clause statement with "
    "a plain present Korean predicate and no habit word; a generic truth (\"dogs bark\") is "
    "flagged with it",
    "a first mention with 'the' is checked only after ate / bought / picked in a one-clause "
    "sentence; the effect-before-cause rule knows only the states of its own list",
)

# ---------------------------------------------------------------- Korean word lists

#: attributive (adnominal) adjective forms by scale; two of one scale in one noun phrase clash
_SCALES_ATTR = {
    "size": "큰 작은 조그만 커다란",
    "height": "높은 낮은",
    "length": "긴 짧은",
    "age": "새로운 낡은 오래된",  # not 새 "new": 새 is also "bird"
    "temperature": "뜨거운 차가운 더운 추운 따뜻한 시원한",
    "weight": "무거운 가벼운",
    "thickness": "두꺼운 얇은",
    "width": "넓은 좁은",
    "depth": "깊은 얕은",
    "price": "비싼 싼",
    "cleanliness": "깨끗한 더러운",
    "noise": "조용한 시끄러운",
    "speed": "빠른 느린",
    "difficulty": "어려운 쉬운 복잡한 간단한",
    "interest": "재미있는 재미없는",
    "taste": "맛있는 맛없는",
    "strength": "강한 약한",
    "diligence": "부지런한 게으른",
    "wealth": "가난한 부유한",
    "danger": "위험한 안전한",
    "comfort": "편한 불편한",
    "brightness": "밝은 어두운",
    "hardness": "부드러운 딱딱한",
    "distance": "가까운 먼",
    "sharpness": "날카로운 무딘",
    "build": "날씬한 뚱뚱한",
    "health": "건강한 아픈",
    "mood": "행복한 슬픈 기쁜 즐거운 외로운",
    "ordinariness": "평범한 특별한 이상한 신기한",
}
#: the same adjectives with the connective -고 (크고 빨간 공): they stay inside the noun phrase
_SCALES_GO = {
    "size": "크고 작고 조그맣고 커다랗고",
    "height": "높고 낮고",
    "length": "길고 짧고",
    "age": "새롭고 낡고 오래되고",
    "temperature": "뜨겁고 차갑고 덥고 춥고 따뜻하고 시원하고",
    "weight": "무겁고 가볍고",
    "thickness": "두껍고 얇고",
    "width": "넓고 좁고",
    "depth": "깊고 얕고",
    "price": "비싸고 싸고",
    "cleanliness": "깨끗하고 더럽고",
    "noise": "조용하고 시끄럽고",
    "speed": "빠르고 느리고",
    "difficulty": "어렵고 쉽고 복잡하고 간단하고",
    "interest": "재미있고 재미없고",
    "taste": "맛있고 맛없고",
    "strength": "강하고 약하고",
    "diligence": "부지런하고 게으르고",
    "wealth": "가난하고 부유하고",
    "danger": "위험하고 안전하고",
    "comfort": "편하고 불편하고",
    "brightness": "밝고 어둡고",
    "hardness": "부드럽고 딱딱하고",
    "distance": "가깝고 멀고",
    "sharpness": "날카롭고 무디고",
    "build": "날씬하고 뚱뚱하고",
    "health": "건강하고 아프고",
    "mood": "행복하고 슬프고 기쁘고 즐겁고 외롭고",
    "ordinariness": "평범하고 특별하고 이상하고 신기하고",
}
SCALE_OF: dict[str, str] = {w: scale for table in (_SCALES_ATTR, _SCALES_GO)
                            for scale, words in table.items() for w in words.split()}
#: attributive adjectives without a scale of their own (they still make a stack)
_OTHER_ATTR = ("빨간 파란 노란 하얀 까만 예쁜 귀여운 아름다운 멋진 친절한 착한 정직한 심심한 "
               "바쁜 피곤한 배고픈 목마른 졸린 중요한 유명한 똑똑한 용감한 무서운 맑은 달콤한 "
               "단 짠 매운 신 싱거운 신선한 훌륭한 궁금한 소중한 튼튼한 향기로운 고소한 바삭한 "
               "쫄깃한 상냥한 겸손한 엄격한 침착한 수줍은 화려한 둥근 많은").split()
_OTHER_GO = ("빨갛고 파랗고 노랗고 하얗고 까맣고 예쁘고 귀엽고 아름답고 멋지고 친절하고 착하고 "
             "정직하고 심심하고 바쁘고 피곤하고 배고프고 목마르고 졸리고 중요하고 유명하고 "
             "똑똑하고 용감하고 무섭고 맑고 달고 짜고 맵고 시고 싱겁고 신선하고 훌륭하고 소중하고 "
             "튼튼하고 향기롭고 고소하고 바삭하고 쫄깃하고 상냥하고 겸손하고 엄격하고 침착하고 "
             "수줍고 화려하고 둥글고 많고").split()
ATTRIBUTIVE = frozenset(_OTHER_ATTR) | {w for ws in _SCALES_ATTR.values() for w in ws.split()}
JOINED = frozenset(_OTHER_GO) | {w for ws in _SCALES_GO.values() for w in ws.split()}
#: nouns that open a two-word adjective (호기심 많은 "curious")
_ADJ_PREFIX = frozenset({"호기심"})
#: counters: 한 before one of them is the numeral "one", not the indefinite "a"
_COUNTERS = frozenset("명 분 개 마리 권 대 벌 그루 송이 곡 척 자루 살 켤레 장 잔 그릇 채 통".split())
#: posture verbs whose state is -아/어 있다 (서 있다), with the English words of the state
_POSTURE_GO = frozenset({"서고", "앉고", "눕고"})
_STATE_GLOSS = frozenset({"standing", "sitting", "lying"})
#: time adverbials (one eojeol; 다음 주에 is matched on 주에 after 다음)
_KO_TIME = frozenset("어제 오늘 내일 지금 매일 아침에 저녁에 오후에 밤에 주말에 작년에 내년에 "
                     "지난주에 월요일에 화요일에 수요일에 목요일에 금요일에 토요일에 일요일에 "
                     "언제 왜".split())
_KO_HOUR = re.compile(r"^\d{1,2}시에$")
#: manner adverbs
_KO_MANNER = frozenset("빨리 천천히 조용히 다시 혼자 조심스럽게 행복하게 일찍 늦게 몰래 자주 "
                       "가끔 슬프게 기쁘게 부지런히 용감하게 친절하게 갑자기 크게 편하게 열심히 "
                       "바로 살짝 재빨리 힘차게 느긋하게".split())
#: subject and object/recipient particles (longest first), and the plural 들
_SUBJECT_PARTICLES = ("이", "가", "은", "는", "도")
_OBJECT_PARTICLES = ("에게", "을", "를", "만")

# ---------------------------------------------------------------- English word lists

_EN_ADJECTIVES = frozenset((
    "big small tall low long short high new old hot cold warm cool heavy light thick thin wide "
    "narrow deep shallow clear cheap expensive clean dirty quiet noisy fast slow difficult easy "
    "interesting boring delicious tasteless fresh sweet salty spicy sour bland red blue yellow "
    "white black pretty cute beautiful wonderful kind nice honest happy sad joyful lonely bored "
    "cheerful busy tired hungry thirsty sleepy sick healthy strong weak important famous smart "
    "brave lazy diligent poor rich scary dangerous safe comfortable uncomfortable slim fat "
    "bright dark round soft hard nearby distant strange special ordinary excellent curious tiny "
    "huge precious amazing complicated simple sturdy sharp dull fragrant savory crispy chewy "
    "friendly humble strict calm shy colorful spacious").split())
#: what English calls tall (a word ending in "tree" counts too)
_TALL_OK = frozenset((
    "tower towers lighthouse lighthouses apartment apartments hotel hotels castle castles palace "
    "palaces building buildings skyscraper skyscrapers bookcase bookcases wardrobe wardrobes "
    "dresser dressers bookshelf bookshelves ladder ladders sunflower sunflowers bamboo giraffe "
    "giraffes grass man men woman women person people boy boys girl girls player players "
    "department clock willow willows").split())
#: what English calls low
_LOW_OK = frozenset((
    "table tables chair chairs bed beds bench benches shelf shelves desk desks sofa sofas stool "
    "stools wall walls fence fences hill hills ceiling ceilings dining branch branches bridge "
    "bridges").split())
#: animals no one calls long (a snake, an eel, a crocodile may be)
_NOT_LONG = frozenset((
    "dog dogs cat cats bird birds horse horses cow cows pig pigs sheep mouse mice rabbit rabbits "
    "tiger tigers lion lions bear bears monkey monkeys fox foxes wolf wolves chicken chickens "
    "duck ducks goose geese goat goats deer frog frogs penguin penguins hippo hippos camel "
    "camels squirrel squirrels parrot parrots owl owls panda pandas zebra zebras puppy puppies "
    "hamster hamsters kitten kittens chick chicks ant ants bee bees spider spiders snail "
    "snails").split())
#: things without a body: no size, weight, colour, shape or wear
_ABSTRACT = frozenset("email emails poem poems homework forecast forecasts".split())
_PHYSICAL = frozenset((
    "big small heavy light thick thin red blue yellow white black round old clean dirty tiny "
    "huge sturdy soft hard cheap expensive pretty bright").split())
#: adjective -> nouns it cannot describe
_BAD_WITH = {
    "crispy": frozenset("soup soups stew stews water juice milk tea coffee ice cream porridge "
                        "yogurt honey jam pudding jelly".split()),
    "chewy": frozenset("soup soups stew stews water juice milk tea coffee porridge yogurt honey "
                       "jam".split()),
    "spicy": frozenset("cake cakes ice cream candy candies chocolate cookie cookies pudding "
                       "jelly honey jam donut donuts pie pies muffin muffins".split()),
    "hot": frozenset("envelope envelopes wallet wallets backpack backpacks bag bags basket "
                     "baskets suitcase suitcases pencil case".split()),
    "comfortable": frozenset("mirror mirrors curtain curtains door doors window windows frame "
                             "frames ladder ladders drawer drawers".split()),
}
#: properties that do not come and go: with a time adverbial they read oddly
_LASTING = frozenset((
    "big small tall low long short heavy light thick thin wide narrow deep shallow spacious red "
    "blue yellow white black round expensive cheap new old famous important smart brave lazy "
    "diligent poor rich kind nice honest friendly humble strict shy slim fat strong weak fast "
    "slow difficult easy interesting boring complicated simple sharp dull sturdy tiny huge "
    "precious amazing strange special ordinary excellent curious beautiful pretty cute "
    "wonderful scary dangerous safe comfortable uncomfortable nearby distant fragrant "
    "colorful").split())
#: textures: a passing state of a dish once eaten ("the noodles were chewy yesterday"), but
#: not in the present with a time ("the waffle is crispy on Wednesday")
_TEXTURE = frozenset({"chewy", "crispy"})
_EN_TIME = re.compile(r"\b(yesterday|today|tomorrow|now|every day|in the (morning|evening|"
                      r"afternoon)|at night|on the weekend|(last|next) (year|week)|on (monday|"
                      r"tuesday|wednesday|thursday|friday|saturday|sunday)|at \d+ o'clock)\b")
_CONJUNCTIONS = frozenset({"because", "when", "if"})
_COORDINATORS = frozenset({"and", "but"})


# ---------------------------------------------------------------- reading a pair

def _batchim(syllable: str) -> bool:
    """True when a Hangul syllable ends in a consonant (its tail index is not 0)."""
    code = ord(syllable) - 0xAC00
    return 0 <= code <= 11171 and code % 28 != 0


def _strip(word: str, particles: Sequence[str]) -> str | None:
    """The noun under ``word`` when it ends in one of ``particles`` with the right allomorph
    (이/은/을 after a consonant, 가/는/를 after a vowel), the plural 들 removed; else None."""
    for p in particles:
        if word.endswith(p) and len(word) > len(p):
            stem = word[:-len(p)]
            last = stem[-1]
            if p in ("이", "은", "을") and not _batchim(last):
                continue
            if p in ("가", "는", "를") and _batchim(last):
                continue
            return stem[:-1] if stem.endswith("들") and len(stem) > 1 else stem
    return None


def _parse_align(align: Any) -> list[tuple[int, int]] | None:
    if align is None:
        return None
    if isinstance(align, str):
        out = []
        for item in align.split():
            a, sep, b = item.partition("-")
            if not sep or not a.isdigit() or not b.isdigit():
                raise DataError(f"bad alignment link {item!r} (expected i-j)")
            out.append((int(a), int(b)))
        return out
    return [(int(i), int(j)) for i, j in align]


@dataclass
class _Pair:
    """One pair, split into words, with what the alignment says (when given)."""

    ko: list[str]
    en: list[str]  # words without punctuation
    en_raw: list[str]  # words as written (commas kept)
    links: list[tuple[int, int]] | None
    ko_of: dict[int, list[int]] = field(default_factory=dict)  # English word -> Korean words
    en_of: dict[int, list[int]] = field(default_factory=dict)  # Korean word -> English words

    @classmethod
    def read(cls, ko: str, en: str, align: Any = None) -> _Pair:
        ko_words = [w.rstrip(".?!") for w in ko.split()]
        raw = en.split()
        p = cls(ko_words, [w.strip(".,?!").lower() for w in raw], raw, _parse_align(align))
        for i, j in p.links or ():
            if not (0 <= i < len(ko_words) and 0 <= j < len(raw)):
                raise DataError(f"alignment link {i}-{j} outside the pair "
                                f"({len(ko_words)} Korean, {len(raw)} English words)")
            p.ko_of.setdefault(j, []).append(i)
            p.en_of.setdefault(i, []).append(j)
        return p

    # ---- structure recovered from the alignment
    def boundaries(self) -> set[int]:
        """Korean words that end a clause: those linked to a clause conjunction (because, when,
        if; ", and" / ", but"), and the last word."""
        out = {len(self.ko) - 1}
        for j, w in enumerate(self.en):
            if j == 0:
                continue
            if w in _CONJUNCTIONS or (w in _COORDINATORS and self.en_raw[j - 1].endswith(",")):
                out.update(self.ko_of.get(j, ()))
        return out

    def relative_clauses(self) -> list[tuple[int, int, int]]:
        """``(english index of who/that, first, last Korean word of the relative verb)``: the
        pronoun is linked to the last word of the verb group (먹지 않는, 앉아 있는)."""
        out = []
        for j, w in enumerate(self.en):
            if j == 0 or w not in ("who", "that", "which") or j not in self.ko_of:
                continue
            ks = self.ko_of[j]
            v = max(ks)
            if self.ko[v] in ("이", "저", "그"):  # "that girl": a demonstrative
                continue
            s = v
            if s > 0 and self.ko[s].startswith(("있", "않", "계")):
                s -= 1
            if s > 0 and self.ko[s - 1] == "안":
                s -= 1
            out.append((j, s, v))
        return out


def _adjective_runs(words: list[str], stop: set[int]) -> list[list[int]]:
    """Maximal runs of adjective words (attributive, or joined with -고; 호기심 opens one);
    a word in ``stop`` (a clause connective) never joins a run."""
    runs, cur = [], []
    for i, w in enumerate(words):
        is_adj = i not in stop and (w in ATTRIBUTIVE or w in JOINED or w in _ADJ_PREFIX)
        if is_adj:
            cur.append(i)
        else:
            if cur:
                runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


# ---------------------------------------------------------------- the rules

def _antonyms(p: _Pair, stop: set[int]) -> list[str]:
    out = []
    for run in _adjective_runs(p.ko, stop):
        seen: dict[str, str] = {}
        for i in run:
            scale = SCALE_OF.get(p.ko[i])
            if scale is None:
                continue
            if scale in seen:
                out.append(f"{seen[scale]} + {p.ko[i]} ({scale})")
            else:
                seen[scale] = p.ko[i]
    return out


def _stacked(p: _Pair, stop: set[int]) -> list[str]:
    out = []
    for i in range(len(p.ko) - 1):
        a, b = p.ko[i], p.ko[i + 1]
        if i in stop or len(a) < 2 or not a.endswith("한") or a not in ATTRIBUTIVE:
            continue
        if b in ATTRIBUTIVE or b in _ADJ_PREFIX:
            out.append(f"{a} {b}")
    return out


def _indefinite_topic(p: _Pair) -> list[str]:
    out = []
    ko = p.ko
    for i, w in enumerate(ko[:-1]):
        if w not in ("한", "어떤"):
            continue
        if w == "한" and p.links is not None:
            if not {p.en[j] for j in p.en_of.get(i, ())} & {"a", "an"}:
                continue  # 숙제를 (도서관에서) 한 학생: 한 is the verb 하다 ("who did")
        elif w == "한" and i > 0 and ko[i - 1].endswith(("을", "를")):
            continue
        if ko[i + 1] in _COUNTERS or ko[i + 1].rstrip("은는이가을를") in _COUNTERS:
            continue  # 한 명: the numeral
        j = i + 1
        while j < len(ko) and (ko[j] in ATTRIBUTIVE or ko[j] in JOINED or ko[j] in _ADJ_PREFIX):
            j += 1
        if j < len(ko) and j < len(ko) - 1 and _strip(ko[j], ("은", "는")) is not None:
            out.append(" ".join(ko[i:j + 1]))
    return out


def _posture(p: _Pair) -> list[str]:
    # the state: "standing", "sitting", "lying (down)"; the action: "standing up", "sitting down"
    nxt = p.en[1:] + [""]
    if not any(w in _STATE_GLOSS and (w, n) not in (("standing", "up"), ("sitting", "down"))
               for w, n in zip(p.en, nxt)):
        return []
    return [f"{a} {b}" for a, b in zip(p.ko, p.ko[1:]) if a in _POSTURE_GO and b.startswith("있")]


def _curious(p: _Pair) -> list[str]:
    return [w for w in p.ko if w.startswith("궁금")]


def _segments(p: _Pair, stop: set[int]) -> list[range]:
    out, start = [], 0
    for i in sorted(stop):
        out.append(range(start, i + 1))
        start = i + 1
    if start < len(p.ko):
        out.append(range(start, len(p.ko)))
    return out


_DIGIT_COUNT = re.compile(r"^\d+(" + "|".join(sorted(_COUNTERS, key=len, reverse=True)) + ")$")


#: first words of spaced compound nouns (야구 선수, 택배 기사, 호텔 방): the compound is the noun
_COMPOUND_FIRST = frozenset("야구 농구 축구 배구 테니스 탁구 골프 수영 택배 곰 버스 호텔 기차 "
                            "미술 음악 과학 수학 영어 체육 요리 소방 경찰 피아노".split())


def _noun_at(p: _Pair, i: int, particles: Sequence[str]) -> tuple[str, int] | None:
    """``(noun, index of its first word)`` of the phrase ending at word ``i`` in one of
    ``particles``: 학생이 -> 학생; a counted phrase names its noun before the numeral
    (학생 세 명이, 학생 3명이 -> 학생)."""
    stem = _strip(p.ko[i], particles)
    if stem is None:
        return None
    if stem in _COUNTERS:  # 학생 세 명이
        at = i - 2
        noun = p.ko[at] if at >= 0 else None
    elif _DIGIT_COUNT.match(stem):  # 학생 3명이
        at = i - 1
        noun = p.ko[at] if at >= 0 else None
    else:
        at, noun = i, stem
    if noun is None:
        return None
    if at > 0 and p.ko[at - 1] in _COMPOUND_FIRST:  # 야구 선수 is not 농구 선수
        return f"{p.ko[at - 1]} {noun}", at - 1
    return noun, at


_IRREGULAR_SINGULAR = {"children": "child", "men": "man", "women": "woman", "people": "person",
                       "mice": "mouse", "geese": "goose", "wolves": "wolf", "knives": "knife",
                       "thieves": "thief", "leaves": "leaf", "calves": "calf"}
_FUNCTION = frozenset("the a an this that these those to at in on by with into of who and "
                      "also only not do does did will is are was were be another other".split())


def _singular(word: str) -> str:
    if word in _IRREGULAR_SINGULAR:
        return _IRREGULAR_SINGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _english_nouns(p: _Pair, i: int) -> set[str]:
    """Content words the alignment links to Korean word ``i`` (singular, lower case)."""
    return {_singular(p.en[j]) for j in p.en_of.get(i, ()) if p.en[j] not in _FUNCTION
            and not p.en[j][:1].isdigit()}


_DETERMINERS = frozenset({"이", "저", "그", "어떤", "한", "다른"})


def _phrase_start(p: _Pair, i: int) -> int:
    """First word of the noun phrase whose noun is word ``i``: back over adjectives,
    determiners (이, 저, 어떤, 한, 다른) and a possessor (김민준의)."""
    while i > 0:
        w = p.ko[i - 1]
        if w in ATTRIBUTIVE or w in JOINED or w in _ADJ_PREFIX or w in _DETERMINERS or \
                (w.endswith("의") and len(w) > 1):
            i -= 1
        else:
            break
    return i


def _has_other(p: _Pair, noun_index: int) -> bool:
    """Whether the phrase of the noun at ``noun_index`` has 다른 "another, other" (also before
    the first word of a spaced compound: 다른 택시 기사를)."""
    s0 = _phrase_start(p, noun_index)
    if "다른" in p.ko[s0:noun_index]:
        return True
    return s0 >= 2 and p.ko[s0 - 2] == "다른" and _strip(
        p.ko[s0 - 1], _SUBJECT_PARTICLES + _OBJECT_PARTICLES + ("에게", "에", "의", "은", "는")) is None


def _same_noun(p: _Pair, stop: set[int]) -> list[str]:
    """A noun as its own object or recipient: in one clause (학생이 학생에게), or in a
    relative clause whose argument is its own head (학생이 만난 학생, 학생을 만난 학생).
    With an alignment both words must translate one English noun (so that verb forms such as
    않은 ... 않을 are not taken for nouns), and a relative clause's argument is told from the
    clause's own."""
    out = []
    rel_args: set[int] = set()
    advs = {i for a, b in _adverbials(p) for i in range(_phrase_start(p, a), b + 1)}
    rels = p.relative_clauses() if p.links is not None else []
    verbs = {i for _, s, v in rels for i in range(s, v + 1)}
    for _, s, v in rels:
        a = s - 1
        while a >= 0 and a in advs:
            a -= 1
        if a < 0:
            continue
        arg = _noun_at(p, a, _SUBJECT_PARTICLES + _OBJECT_PARTICLES)
        h = v + 1
        while h < len(p.ko) and (p.ko[h] in ATTRIBUTIVE or p.ko[h] in JOINED or
                                 p.ko[h] in _ADJ_PREFIX or p.ko[h] in _DETERMINERS):
            h += 1
        if arg is None or h >= len(p.ko):
            continue
        rel_args.add(a)
        head = p.ko[h].rstrip(".?")
        head_noun = _strip(head, _SUBJECT_PARTICLES + _OBJECT_PARTICLES + ("에", "의", "에서",
                                                                            "와", "과", "로",
                                                                            "으로")) or head
        if arg[0] == head_noun and not _has_other(p, arg[1]) and not _has_other(p, h):
            if _english_nouns(p, a) & _english_nouns(p, h):
                out.append(f"{p.ko[a]} {p.ko[v]} {p.ko[h]}")
    for seg in _segments(p, stop):
        subjects: dict[str, tuple[int, bool]] = {}
        for i in seg:
            if i in rel_args or i in verbs or p.ko[i] in ATTRIBUTIVE:
                continue
            obj = _noun_at(p, i, _OBJECT_PARTICLES)
            if obj is not None and obj[0] in subjects:
                first, other = subjects[obj[0]]
                if not other and not _has_other(p, obj[1]) and (
                        p.links is None or _english_nouns(p, first) & _english_nouns(p, i)):
                    out.append(f"{p.ko[first]} ... {p.ko[i]}")
            subj = _noun_at(p, i, _SUBJECT_PARTICLES)
            if subj is not None and subj[0] not in subjects:
                subjects[subj[0]] = (i, _has_other(p, subj[1]))
    return out


def _head_after(words: list[str], k: int) -> list[str]:
    """The noun words after position ``k`` (skipping further adjectives): up to two words, so
    that compounds ("pine tree", "ice cream") are seen whole."""
    j = k + 1
    while j < len(words) and words[j] in _EN_ADJECTIVES:
        j += 1
    return words[j:j + 2]


def _fits(adj: str, head: list[str]) -> bool:
    if not head:
        return True
    first = head[0]
    pair = " ".join(head)
    if adj == "tall":
        return (first in _TALL_OK or first.endswith(("tree", "trees"))
                or pair.endswith(("tree", "trees")) or (len(head) > 1 and head[1] in _TALL_OK))
    if adj == "low":
        return first in _LOW_OK or (len(head) > 1 and head[1] in _LOW_OK)
    if adj == "long":
        return first not in _NOT_LONG
    if adj in _PHYSICAL and (first in _ABSTRACT or pair in ("weather forecast",
                                                          "weather forecasts")):
        return False
    bad = _BAD_WITH.get(adj)
    if bad is not None and (first in bad or pair in bad):
        return False
    return True


_BE = frozenset({"is", "are", "was", "were", "be"})
_NP_OPENERS = frozenset("the a an this that these those another other and".split())
_EN_NUMBERS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety".split()) | {f"{t}-{u}" for t in "twenty thirty forty fifty sixty seventy eighty "
                         "ninety".split() for u in "one two three four five six seven eight "
                         "nine".split()}


def _predicate_subject(p: _Pair, k: int) -> list[str]:
    """The noun right before the verb "be" of a predicate adjective at ``k`` ("the wardrobe was
    low" -> wardrobe); empty when a relative clause or a question makes that uncertain."""
    en = p.en
    b = k - 1
    while b > 0 and en[b] in ("not", "also"):
        b -= 1
    if en[b] == "be":  # will (not) be
        b -= 1
        while b > 0 and en[b] in ("will", "not"):
            b -= 1
    if en[b] not in _BE and en[b] != "will":
        return []
    start = b
    while start > 0 and not (en[start - 1] in _CONJUNCTIONS or (
            en[start - 1] in _COORDINATORS and p.en_raw[start - 2].endswith(","))):
        start -= 1
    if start == b or any(w in ("who", "that", "which", "what", "where", "when", "why", "how")
                         for w in en[start:b]):
        return []
    if b - 2 >= start and en[b - 2] not in _FUNCTION and en[b - 2] not in _EN_ADJECTIVES and \
            not en[b - 2].endswith("'s") and not p.en_raw[b - 2][:1].isupper():
        return [en[b - 2], en[b - 1]]  # a compound: "the department store is tall"
    return [en[b - 1]]


def _implausible(p: _Pair) -> list[str]:
    out = []
    en = p.en
    for k, w in enumerate(en):
        if w not in _EN_ADJECTIVES:
            continue
        if k > 0 and en[k - 1] in _BE | {"not", "also"}:  # predicate: "the school is tall"
            head = _predicate_subject(p, k)
            if head and not _fits(w, head):
                out.append(f"{head[0]} ... {w}")
            continue
        prev = en[k - 1] if k > 0 else ""
        if k > 0 and _is_predicate(en, k):
            # a predicate in a question ("Is the sofa low?"), unless a relative clause stands
            # between ("Is the sofa that the boy bought low?")
            start = k
            while start > 0 and not (en[start - 1] in _CONJUNCTIONS or (
                    en[start - 1] in _COORDINATORS and p.en_raw[start - 2].endswith(","))):
                start -= 1
            if prev not in _BE and not any(x in ("who", "that", "which") for x in en[start:k]) and \
                    not _fits(w, [prev]):
                out.append(f"{prev} ... {w}")
            continue
        head = _head_after(en, k)
        if head and not _fits(w, head):
            out.append(f"{w} {' '.join(head)}")
    return out


def _garden_path(p: _Pair, stop: set[int]) -> list[str]:
    out = []
    for i in range(1, len(p.ko) - 1):
        w, nxt = p.ko[i], p.ko[i + 1]
        if w not in JOINED or not (nxt in ATTRIBUTIVE or nxt in JOINED or nxt in _ADJ_PREFIX):
            continue
        # a predicate: a clause connective (from the alignment), or right after a subject
        predicate = i in stop if p.links is not None else \
            _strip(p.ko[i - 1], _SUBJECT_PARTICLES) is not None
        if predicate:
            out.append(f"{p.ko[i - 1]} {w} {nxt}")
    return out


def _clauses_en(p: _Pair) -> list[range]:
    """English clauses: split before because / when / if and ", and" / ", but"."""
    cuts = [j for j, w in enumerate(p.en) if j > 0 and (
        w in _CONJUNCTIONS or (w in _COORDINATORS and p.en_raw[j - 1].endswith(",")))]
    edges = [0] + cuts + [len(p.en)]
    return [range(a, b) for a, b in zip(edges, edges[1:])]


_PREPOSITIONS = frozenset("to at in on with for from of about into by".split())


#: "get" of a change of state ("gets tired if she runs")
_GET = frozenset("get gets got getting".split())


def _is_predicate(words: list[str], k: int) -> bool:
    """Whether the adjective ``words[k]`` is a predicate: after be ("was low", "is not tall",
    "will be tall"), or after the subject of a yes/no question ("Is the sofa low?")."""
    prev = words[k - 1] if k > 0 else ""
    if _own_word(words, k):
        return False  # "black bean noodles": the noun's own word
    if k == 1 and words[0] in _BE:
        return False  # "Are black bean noodles warm?": the subject's own adjective
    if prev in _BE or prev in ("not", "also") or prev in _GET:
        return True  # (and "gets tired", "will get hungry": a change of state)
    if words[0] not in _BE or prev.endswith(("ing", "ed")):
        return False  # "Will the sofa be low?" has its "be"; "Will he slice expensive garlic?"
    return not (prev in _NP_OPENERS or prev in _EN_ADJECTIVES or prev.endswith("'s") or
                prev[:1].isdigit() or prev in _EN_NUMBERS or prev in _BE or
                prev in _PREPOSITIONS)  # "listening to short pieces": attributive


def _lasting_with_time(p: _Pair) -> list[str]:
    out = []
    for clause in _clauses_en(p):
        words = [p.en[j] for j in clause]
        m = _EN_TIME.search(" ".join(words))
        if m is None:
            continue
        for k, w in enumerate(words):
            if k == 0 or not _is_predicate(words, k):
                continue
            if {"who", "that", "which"} & set(words[:k]):
                continue  # "the woman who sees beautiful moss ... today": the clause's object
            present = {"is", "are"} & {words[0], *words[max(0, k - 3):k]}
            if w in _LASTING or (w in _TEXTURE and present):
                out.append(f"{words[k - 1]} {w} ... {m.group(0)}")
    return out


def _adverbials(p: _Pair) -> list[tuple[int, int]]:
    """Korean adverbials as ``(first, last)`` word index: time words (다음 주에 is two words),
    hours (3시에), places in 에서, manner adverbs, 언제 and 왜."""
    out = []
    for i, w in enumerate(p.ko):
        if w == "주에" and i > 0 and p.ko[i - 1] == "다음":
            out.append((i - 1, i))
        elif w in _KO_TIME or w in _KO_MANNER or _KO_HOUR.match(w) or \
                (w.endswith("에서") and len(w) > 2):
            out.append((i, i))
    return out


def _dangling(p: _Pair, stop: set[int]) -> list[str]:
    if p.links is None:
        return []
    rels = p.relative_clauses()
    if not rels:
        return []
    out = []
    advs = _adverbials(p)
    adv_words = {i for a, b in advs for i in range(a, b + 1)}
    # Korean: an adverbial is read with the nearest verb after it; when that is a relative
    # clause's verb, the adverbial must stand right before it and after an argument of it
    # (소녀가 가게에서 산 사과), not before the relative clause's own words or at its left edge
    for a, b in advs:
        end = min((x for x in stop if x >= b), default=len(p.ko) - 1)
        nearest = min(((s, v) for _, s, v in rels if b < s <= end), default=None)
        if nearest is None:
            continue
        s, v = nearest
        start = _phrase_start(p, a)
        prev = start - 1
        left_edge = prev < 0 or prev in stop or prev in adv_words or (
            p.ko[prev] not in ATTRIBUTIVE and _strip(p.ko[prev], ("은", "는")) is not None)
        if s > b + 1 or left_edge:
            out.append(f"ko: {' '.join(p.ko[start:b + 1])} ... {p.ko[v]}")
    # English: an adverbial after a relative clause that is still open is read inside it
    by_first: dict[int, tuple[int, int]] = {}
    for a, b in advs:
        js = [j for i in range(a, b + 1) for j in p.en_of.get(i, ())]
        if js:
            by_first[min(js)] = (a, b)
    en_stop = {j for j, w in enumerate(p.en) if j > 0 and (
        w in _CONJUNCTIONS or (w in _COORDINATORS and p.en_raw[j - 1].endswith(",")))}
    for j, (a, b) in sorted(by_first.items()):
        before = [r for r in rels if r[0] < j and not any(r[0] < x < j for x in en_stop)]
        for r, s, v in sorted(before, reverse=True):
            closed = any(i > v for x in range(r + 1, j) for i in p.ko_of.get(x, ()))
            if closed:
                continue
            if b != s - 1:
                out.append(f"en: {p.en_raw[r]} ... {' '.join(p.en[j:j + 1])}")
            break
    return out


# ---------------------------------------------------------------- articles, connectives, clause
# order, tense, the English, words, counters and particles

#: words that say "no" / "any" in English (어떤 N도 under negation)
_EN_NO_ANY = frozenset("no any anyone anybody anything none nobody nothing neither".split())
#: a Korean negation inside a clause: 안, 못, -지 않-, 없-, 모르-
_KO_NEG = re.compile(r"^(안|못)$|않|없|^모르|^모른|^몰라|^몰랐")
#: particles after which a phrase is a subject (for 한 introducing a referent)
_KO_SUBJECT = ("이", "가")


def _hangul_tail(syllable: str) -> int:
    """The final-consonant index of a Hangul syllable (0: none, 20: ㅆ); -1 for other text."""
    code = ord(syllable) - 0xAC00
    return code % 28 if 0 <= code <= 11171 else -1


def _ko_past(word: str) -> bool:
    """Whether a Korean verb form is past: a syllable with the final ㅆ of -았/었/였- (있, 겠
    are not past: 있다 is "be"/the progressive, 겠 a future or guess)."""
    return any(_hangul_tail(s) == 20 and s not in "있겠" for s in word)


def _noun_phrase_end(ko: list[str], i: int) -> int:
    """Index of the noun of the phrase that a determiner at ``i`` opens (over adjectives)."""
    j = i + 1
    while j < len(ko) - 1 and (ko[j] in ATTRIBUTIVE or ko[j] in JOINED or ko[j] in _ADJ_PREFIX
                               or ko[j] == "다른"):
        j += 1
    return j


def _en_words_of(p: _Pair, i: int) -> set[str]:
    return {p.en[j] for j in p.en_of.get(i, ())}


def _is_article(p: _Pair, i: int, words: Sequence[str] = ("a", "an")) -> bool:
    """Whether Korean word ``i`` translates the English article (by the alignment; without
    one, whether the English has the article at all)."""
    if p.links is not None:
        return bool(_en_words_of(p, i) & set(words))
    return bool(set(p.en) & set(words))


#: particles after a counter (한 명에게, 한 송이를)
_COUNTER_PARTICLES = ("에게", "한테", "께서", "이", "가", "은", "는", "을", "를", "에", "과", "와",
                      "도", "만", "의", "께")


def _article_han(p: _Pair) -> list[str]:
    """한 as the English "a": Korean narrative uses 한 to introduce a new referent as a subject
    (한 여자가 들어왔다); elsewhere -- an object, a place, a coordinated noun -- the bare noun
    is the Korean for "a N" (한 목수를 만났다: 목수를 만났다)."""
    out = []
    ko = p.ko
    for i, w in enumerate(ko[:-1]):
        if w != "한" or not _is_article(p, i):
            continue
        if p.links is None and i > 0 and ko[i - 1].endswith(("을", "를", "에서")):
            continue  # 숙제를 한 학생: the verb 하다
        nxt = ko[i + 1].rstrip(".?")
        if nxt in _COUNTERS | {"번"} or _strip(nxt, _COUNTER_PARTICLES) in _COUNTERS | {"번"}:
            continue  # 한 명, 한 번, 한 송이를, 한 명에게: the numeral
        if p.links is not None and "certain" in _en_words_of(p, i):
            continue  # "a certain": the narrative 한
        j = _noun_phrase_end(ko, i)
        if _strip(ko[j], _KO_SUBJECT) is not None:
            continue
        if _strip(ko[j], ("은", "는")) is not None:
            continue  # a topic: the indefinite_topic rule's finding
        out.append(" ".join(ko[i:j + 1]))
    return out


def _is_question(p: _Pair) -> bool:
    return bool(p.en_raw) and p.en_raw[-1].endswith("?")


def _eotteon_question(p: _Pair) -> list[str]:
    """어떤 in a question reads "which": 어떤 이모가 엽서를 읽어줬니? is "Which aunt read the
    postcard?", so a reference without "which" (or "what") translates another sentence."""
    if not _is_question(p):
        return []
    out = []
    for i, w in enumerate(p.ko[:-1]):
        if w != "어떤":
            continue
        j = _noun_phrase_end(p.ko, i)
        if p.ko[j].endswith("도"):
            continue  # 어떤 N도: "any", the two 어떤 N도 rules
        said = set().union(*(_en_words_of(p, k) for k in range(i, j + 1))) \
            if p.links is not None else set(p.en)
        if not said & {"which", "what"}:
            out.append(" ".join(p.ko[i:j + 1]))
    return out


def _relative_verbs(p: _Pair) -> set[int]:
    """(with the alignment) The Korean words of relative clauses' verb groups."""
    if p.links is None:
        return set()
    return {i for _, s, v in p.relative_clauses() for i in range(s, v + 1)}


def _clause_of(p: _Pair, i: int, stop: set[int]) -> range:
    """The Korean clause (between boundaries) that holds word ``i``."""
    start = max((b + 1 for b in stop if b < i), default=0)
    end = min((b for b in stop if b >= i), default=len(p.ko) - 1)
    return range(start, end + 1)


def _eotteon_do(p: _Pair, stop: set[int]) -> tuple[list[str], list[str]]:
    """``(positive, misread)``: 어떤 N도 with a verb that is not negated (ungrammatical: 어떤
    팀장도 돌아와요), and 어떤 N도 under negation whose English has no "no"/"any" (어떤 배달원도
    안 뽑는다 is "no delivery worker pulls out ...")."""
    positive, misread = [], []
    rel_verbs = {i for _, s, v in p.relative_clauses() for i in range(s, v + 1)} \
        if p.links is not None else set()
    for i, w in enumerate(p.ko[:-1]):
        if w != "어떤":
            continue
        j = _noun_phrase_end(p.ko, i)
        if not p.ko[j].endswith("도") or len(p.ko[j]) < 2:
            continue
        phrase = " ".join(p.ko[i:j + 1])
        clause = [k for k in _clause_of(p, j, stop) if k > j and k not in rel_verbs]
        if p.links is None:  # the clause ends at a clause connective (-고 not before 있다)
            ends = [k for k in clause if k + 1 < len(p.ko) and p.ko[k].endswith(
                ("고", "서", "면", "지만", "니까")) and not p.ko[k + 1].startswith(("있", "싶"))]
            clause = [k for k in clause if not ends or k <= ends[0]]
        if not any(_KO_NEG.search(p.ko[k]) and p.ko[k] not in ATTRIBUTIVE for k in clause):
            positive.append(phrase)
            continue
        if p.links is not None:
            said = set().union(*(_en_words_of(p, k) for k in range(i, j + 1)))
            said |= {w for w in p.en if w in ("no", "none", "nobody", "any", "anyone")}
        else:
            said = set(p.en)
        if not said & _EN_NO_ANY:
            misread.append(phrase)
    return positive, misread


# ---- connectives: a compatibility table of English predicate classes (word forms listed)

#: verbs that double their last consonant before -ing / -ed
_DOUBLED = frozenset("swim run sit hit jog shop stop chat nap plan drop hug clap grab skip dig "
                     "beg slip trip".split())


def _forms(lemmas: str) -> frozenset[str]:
    """A verb's English forms (walk walks walked walking; irregular pasts given as a/b)."""
    out = set()
    for item in lemmas.split():
        forms = item.split("/")
        lemma = forms[0]
        out.update(forms)
        if lemma.endswith(("s", "sh", "ch", "x")):
            out.add(lemma + "es")
        elif lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
            out.add(lemma[:-1] + "ies")
        else:
            out.add(lemma + "s")
        stem = lemma[:-1] if lemma.endswith("e") and not lemma.endswith("ee") else lemma
        if lemma in _DOUBLED:
            stem = lemma + lemma[-1]  # swim -> swimming
        out.update({stem + "ing", stem + "ed" if not lemma.endswith("e") else lemma + "d"})
    return frozenset(out)


#: predicate classes of the check: a clause belongs to every class one of its words (or
#: two-word phrases: "lie down", "go home") is in
_CLASS_WORDS: dict[str, frozenset[str]] = {
    "hunger": frozenset("hungry thirsty".split()),
    "fatigue": frozenset("tired sleepy exhausted sick ill".split()),
    "chill": frozenset("cold chilly".split()),
    "heat": frozenset("hot warm".split()),
    "sorrow": frozenset("sad lonely bored scared angry upset worried".split()),
    "joy": frozenset("happy joyful cheerful glad excited".split()) | _forms(
        "laugh smile sing/sang/sung dance whistle clap cheer hug"),
    "consume": _forms("eat/ate/eaten drink/drank/drunk taste order cook bake boil fry "
                      "buy/bought"),
    "rest": _forms("sleep/slept rest yawn doze nap") | {
        "lie down", "lay down", "lying down", "lies down", "sit down", "sits down", "sat down",
        "sitting down", "go home", "goes home", "went home", "going home", "come home",
        "comes home", "came home", "coming home", "go back", "goes back", "went back",
        "going back", "leave work", "leaves work", "left work", "leaving work"},
    "grief": _forms("cry/cried shout worry/worried sigh scream") | {
        "get angry", "gets angry", "got angry", "getting angry"},
    "shiver": _forms("shiver sneeze cough wear/wore close") | {"take a bath", "takes a bath",
                                                              "took a bath", "taking a bath"},
    "cool_down": _forms("swim/swam open drink/drank sweat") | {
        "take a shower", "takes a shower", "took a shower", "taking a shower"},
    "effort": _forms("run/ran exercise work climb hike jump swim/swam walk dance practice "
                     "carry lift clean study/studied play") | {
        "go hiking", "goes hiking", "went hiking", "going hiking"},
    "fall": {"fall down", "falls down", "fell down", "falling down", "fallen down"},
    "arrival": _forms("come/came arrive enter return leave/left meet/met visit greet call") | {
        "wake up", "wakes up", "woke up", "waking up", "get up", "gets up", "got up",
        "getting up", "go home", "goes home", "went home", "going home", "come home",
        "comes home", "came home", "coming home"},
    "noise": _forms("shout bark scream") | {"make noise", "makes noise", "made noise",
                                             "making noise"},
    "tease": _forms("tease scold hit/hit push kick bite/bit/bitten chase"),
    "praise": _forms("praise help/helped invite thank cheer hug"),
    "weather": frozenset("rain rains rained raining snow snows snowed snowing windy "
                         "sunny".split()),
}
#: the adjectives of the classes (a clause has their class only with one as its predicate)
_STATE_ADJECTIVES = frozenset().union(*(_CLASS_WORDS[c] for c in (
    "hunger", "fatigue", "chill", "heat", "sorrow"))) | frozenset(
    "happy joyful cheerful glad excited".split())
#: cause (or condition) class -> effect classes a reader accepts as its consequence
_LINKED: dict[str, frozenset[str]] = {
    "hunger": frozenset({"consume"}),
    "fatigue": frozenset({"rest", "consume", "shiver"}),
    "chill": frozenset({"shiver", "consume", "rest"}),
    "heat": frozenset({"cool_down", "consume", "rest"}),
    "sorrow": frozenset({"grief", "rest", "consume"}),
    "joy": frozenset({"joy"}),
    "effort": frozenset({"hunger", "fatigue", "heat", "rest", "consume", "cool_down", "joy"}),
    "fall": frozenset({"grief", "sorrow", "rest", "fatigue"}),
    "noise": frozenset({"grief", "sorrow", "arrival"}),
    "tease": frozenset({"grief", "sorrow"}),
    "praise": frozenset({"joy"}),
    "arrival": frozenset({"joy", "praise", "rest"}),
    "weather": frozenset({"shiver", "cool_down", "rest", "sorrow", "joy", "arrival"}),
}
#: causes that act on someone else (a dog barks -> the baby cries; so does the cold or heat of
#: a place); the other links hold within one participant (the boy is hungry -> the boy eats)
_ACROSS = frozenset({"noise", "tease", "praise", "weather", "chill", "heat"})
_SUBORDINATORS = frozenset({"because", "if", "when"})
_PRONOUNS = frozenset("he she they him her them his their it its".split())


def _classes(words: Sequence[str]) -> set[str]:
    """The predicate classes of a clause's words; an adjective counts only as a predicate
    ("the boy is hungry", not "the hungry boy")."""
    words = list(words)
    tokens = {w for k, w in enumerate(words) if w not in _STATE_ADJECTIVES or (
        k > 0 and _is_predicate(words, k))} | {f"{a} {b}" for a, b in zip(words, words[1:])} | {
        f"{a} {b} {c}" for a, b, c in zip(words, words[1:], words[2:])}
    return {c for c, ws in _CLASS_WORDS.items() if tokens & ws}


def _subordinations(p: _Pair) -> list[tuple[str, int, range, range]]:
    """English subordinate clauses as ``(because|if|when, index of the conjunction, the
    subordinate clause, the clause it attaches to)``: mid-sentence "Y because X" (X runs to
    the next conjunction) and sentence-initial "When X, Y" (X runs to the comma)."""
    out = []
    clauses = _clauses_en(p)
    for k, seg in enumerate(clauses):
        first = p.en[seg.start]
        if k == 0 or first not in _SUBORDINATORS:
            continue
        comma = next((j for j in range(seg.start, seg.stop - 1) if p.en_raw[j].endswith(",")),
                     None)
        if comma is not None:  # fronted after a coordinator: ", and when X, Y"
            out.append((first, seg.start, range(seg.start + 1, comma + 1),
                        range(comma + 1, seg.stop)))
        else:
            out.append((first, seg.start, range(seg.start + 1, seg.stop), clauses[k - 1]))
    en = p.en
    if en and en[0] in _SUBORDINATORS and (en[0] != "when" or any(
            w.startswith("때") for w in p.ko)):
        comma = next((j for j, w in enumerate(p.en_raw) if w.endswith(",")), None)
        if comma is not None:
            end = clauses[0].stop
            if end <= comma + 1:
                end = clauses[1].stop if len(clauses) > 1 else len(en)
            out.append((en[0], 0, range(1, comma + 1), range(comma + 1, end)))
    return out


def _content(words: Sequence[str]) -> set[str]:
    return {_singular(w) for w in words if w not in _FUNCTION and w not in _EN_ADJECTIVES
            and not w.endswith(("ed", "ing")) and len(w) > 2}


def _participants(p: _Pair, part: range) -> set[str]:
    """Who and what a clause names: with the alignment, the Korean nouns (a word in a case
    particle, its particle removed) that its English words translate; else its English
    content words."""
    if p.links is None:
        return _content([p.en[j] for j in part])
    ks = {i for j in part for i in p.ko_of.get(j, ())}
    out = set()
    for i in ks:
        w = p.ko[i]
        if w in ATTRIBUTIVE or w in JOINED or _strip(w, _SUBJECT_PARTICLES + _OBJECT_PARTICLES) \
                in _COUNTERS or _DIGIT_COUNT.match(w):
            continue
        stem = _strip(w, _SUBJECT_PARTICLES + _OBJECT_PARTICLES + ("에", "에서", "의", "와",
                                                                  "과", "로", "으로"))
        if stem:
            out.add(stem)
    return out


def _adjective_predicate(words: Sequence[str], adjectives: frozenset[str]) -> str | None:
    """The predicate adjective of a clause ("the sofa was low" -> low), if one of ``adjectives``."""
    for k, w in enumerate(words):
        if k > 0 and w in adjectives and _is_predicate(list(words), k):
            return w
    return None


def _outside_relatives(p: _Pair, part: range) -> list[str]:
    """The English words of a clause without its relative clauses (with the alignment)."""
    inside = {j for _, r, e in _relative_spans(p) for j in range(r, e + 1)} \
        if p.links is not None else set()
    return [p.en[j] for j in part if j not in inside]


_PROGRESSIVE = re.compile(r"\b(is|are|was|were) (not )?\w+ing\b")


def _unrelated(p: _Pair) -> list[str]:
    """because / if / when joining events that the table does not link. Accepted: a class pair
    of :data:`_LINKED` (hungry -> eats, runs -> tired, falls -> cries) between clauses that
    share a participant (or across participants for noise, teasing, praise, weather), a
    property of a thing that the other clause names (the soup is hot -> does not eat the
    soup), and for "when" two events that share a participant, or an arrival that times an
    event in progress or a passing state (was sleeping / the room was cold when she came)."""
    out = []
    for conj, c, sub, main in _subordinations(p):
        sw, mw = _outside_relatives(p, sub), _outside_relatives(p, main)
        cs, ms = _classes(sw), _classes(mw)
        shared = bool(_participants(p, sub) & _participants(p, main)) or bool(
            _PRONOUNS & (set(sw) | set(mw)))
        if any(b in _LINKED.get(a, ()) and (shared or a in _ACROSS) for a in cs for b in ms):
            continue
        if shared and _adjective_predicate(sw, _EN_ADJECTIVES):
            continue  # the soup is hot, so ... the soup
        if conj == "when" and (shared or ("arrival" in cs and (_PROGRESSIVE.search(
                " ".join(mw)) or _adjective_predicate(mw, _EN_ADJECTIVES - _LASTING)))):
            continue
        out.append(f"{' '.join(mw[:6])} ... {conj} {' '.join(sw[:6])}")
    return out


def _lasting_at_moment(p: _Pair) -> list[str]:
    """A lasting property (tall, low, new, expensive ...) as the event of a "when" clause or
    as the clause a "when" clause times: "the sofa was low when Minjun called"."""
    out = []
    for conj, _, sub, main in _subordinations(p):
        if conj != "when":
            continue
        for part in (sub, main):
            words = [p.en[j] for j in part]
            adj = _adjective_predicate(words, _LASTING)
            if adj is not None:
                out.append(f"{adj} ... when")
    return out


# ---- clause order

#: Korean connective endings of subordinate clauses (-아서/-어서, -면, -니까, -ㄹ 때)
_KO_SUBORDINATE = re.compile(r"(서|면|니까|때|때에)$")


def _relative_spans(p: _Pair, through_subordinates: bool = False) -> list[tuple[int, int, int]]:
    """``(first Korean word, English who/that, last English word)`` of each relative clause:
    the English runs from who/that while its words translate Korean words up to the relative
    verb (over a because / if / when clause too when ``through_subordinates``); the Korean
    starts at the first word they translate."""
    out = []
    for r, s, v in p.relative_clauses():
        e = r
        while e + 1 < len(p.en) and (through_subordinates or p.en[e + 1] not in _SUBORDINATORS) \
                and not (p.en[e + 1] in _COORDINATORS and p.en_raw[e].endswith(",")) and \
                all(i <= v for i in p.ko_of.get(e + 1, ())):
            e += 1
        ks = [i for j in range(r, e + 1) for i in p.ko_of.get(j, ())] + [s]
        out.append((min(ks), r, e))
    return out


def _opens_with_subject(words: Sequence[str]) -> bool:
    """Whether ``words`` open with a subject: a 이/가 noun (택시 기사가), a possessor (김민준의
    누나가) or a demonstrative (저 조용한 학생들이), not an adjective (조용한 여자들이)."""
    if not words:
        return False
    if words[0].endswith("의") or words[0] in ("이", "저", "그"):
        return True  # (a possessor or a demonstrative opens a noun phrase of its own)
    nominative = [k for k, w in enumerate(words) if _strip(w, ("이", "가")) is not None]
    # (택시 기사가: a compound noun; not after an adjective)
    return bool(nominative) and not any(w in ATTRIBUTIVE or w.endswith("신")
                                        for w in words[:nominative[0]])


def _clause_before_relative(p: _Pair) -> list[str]:
    """(needs the alignment) A subordinate clause ending right where a relative clause begins
    reads as part of it: 사회가 어려워서 우는 이모 is "the aunt who cries because social studies
    is hard". Flagged unless the reference reads it inside the relative clause too, with the
    main clause after it ("the aunt who cries because social studies is hard sleeps"); at the
    end of the English the attachment is as open as in the Korean. A relative clause that
    opens with its own subject after a topic (소년은 배가 고파서 소녀가 만든 빵을 먹었다) is
    not flagged: the new subject closes the subordinate clause off, and the topic is its
    subject, which is how a native writer orders it (not 빵을 배가 고파서 먹었다)."""
    if p.links is None:
        return []
    spans = [(start, r, wide[2]) for (start, r, _), wide in
             zip(_relative_spans(p), _relative_spans(p, through_subordinates=True))]
    if not spans:
        return []
    out = []
    for i, w in enumerate(p.ko[:-1]):
        conj = [j for j in p.en_of.get(i, ()) if p.en[j] in _SUBORDINATORS]
        if not conj or not _KO_SUBORDINATE.search(w):
            continue
        topic = any(_strip(x, ("은", "는")) for x in p.ko[:i])
        for start, r, e in spans:
            if topic and _opens_with_subject(p.ko[start:start + 3]):
                continue  # (소년은 배가 고파서 | 소녀가 만든 빵을)
            if start == i + 1 and not (any(r < j <= e for j in conj) and e + 1 < len(p.en)):
                out.append(f"{w} | {' '.join(p.ko[i + 1:i + 3])}")
    return out


# ---- tense

def _future_adjective_go(p: _Pair) -> list[str]:
    """An adjective clause joined with -고 takes no future of its own: in 방이 크고 소년이 올
    거예요 a Korean reader reads "the room is big", not "will be big"."""
    out = []
    for k, w in enumerate(p.en):
        if w not in _EN_ADJECTIVES or k < 2 or p.en[k - 1] != "be" or "will" not in (
                p.en[k - 2], p.en[k - 3] if k > 2 else ""):
            continue
        if p.links is not None:
            kos = {i for j in (k, k - 1, k - 2) for i in p.ko_of.get(j, ())}
            hit = [p.ko[i] for i in kos if p.ko[i].endswith("고") and "겠" not in p.ko[i]
                   and i < len(p.ko) - 1]
        else:
            hit = [x for i, x in enumerate(p.ko[1:-1], 1)
                   if x in JOINED and _strip(p.ko[i - 1], _SUBJECT_PARTICLES) is not None]
        if hit:
            out.append(f"{hit[0]} -> will be {w}")
    return out


_REL_WILL = re.compile(r"\b(who|that) (?:[\w'-]+ ){0,4}?(will (?:not )?\w+|(?:is|are) (?:not )?"
                       r"\w+ing)\b")


def _relative_tense_in_past(p: _Pair) -> list[str]:
    """A relative clause inside a past sentence keeps the English sequence of tenses: "met the
    girl who would sing / who was singing", not "who will sing / who is singing"."""
    if not p.ko or not _ko_past(p.ko[-1]):
        return []
    text_words = p.en
    if p.links is not None:  # the English clause of the final verb
        js = p.en_of.get(len(p.ko) - 1, [])
        clause = next((c for c in _clauses_en(p) if any(j in c for j in js)), range(len(p.en)))
        rel_at = {r for r, _, _ in p.relative_clauses()}
    else:
        clause, rel_at = range(len(p.en)), None
    words = [text_words[j] for j in clause]
    out = []
    for m in _REL_WILL.finditer(" ".join(words)):
        at = clause.start + len(" ".join(words)[:m.start()].split())
        if rel_at is not None and at not in rel_at:
            continue
        out.append(f"{m.group(1)} ... {m.group(2)}")
    return out


# ---- English a native writer would keep

_HABITUAL = re.compile(r"\b(every (day|morning|evening|night|week|weekend)|often|sometimes|"
                       r"usually|always|on weekends)\b")
#: mass nouns that a habitual sentence names without an article (drinks tea every day)
_MASS = frozenset((
    "water tea coffee milk juice bread rice soup noodles cereal oatmeal cheese butter jam honey "
    "chocolate candy sugar salt kimchi music homework cola soda porridge yogurt meat fish fruit "
    "salad pasta pizza popcorn ice cream lemonade cocoa broth").split())


#: words that may follow an object noun (not the second noun of a compound)
_AFTER_OBJECT = _FUNCTION | frozenset("and or but every often sometimes usually always on at in "
                                      "with for from again today now alone together".split())


def _in_past_relative(words: Sequence[str], k: int) -> bool:
    """Whether ``words[k]`` follows who / that and a past verb of that relative clause ("meets
    the girl who drank the tea"): the object of a finished deed, not of the habit."""
    for r in range(k - 1, -1, -1):
        if words[r] in _COORDINATORS or words[r] in _SUBORDINATORS:
            return False
        if words[r] in ("who", "that", "which"):
            return any(w in _IRREGULAR_PAST or (w.endswith("ed") and len(w) > 3)
                       for w in words[r + 1:k])
    return False


def _generic_the(p: _Pair) -> list[str]:
    """"drinks the tea and the water every day": in a habitual sentence a generic mass object
    takes no article (drinks tea and water every day)."""
    out = []
    inside = {j for _, r, e in _relative_spans(p) for j in range(r, e + 1)} \
        if p.links is not None else set()
    for clause in _clauses_en(p):
        words = [p.en[j] for j in clause]
        if not _HABITUAL.search(" ".join(words)):
            continue
        for k, w in enumerate(words[:-1]):
            if w != "the" or clause[k] in inside or _in_past_relative(words, k):
                continue  # (a relative clause's object is not the habitual one)
            h = k + 1
            while h < len(words) - 1 and words[h] in _EN_ADJECTIVES:
                h += 1
            nxt = words[h + 1] if h + 1 < len(words) else ""
            if k == 0 or words[k - 1] in _BE or nxt in _BE or nxt in ("who", "that", "which", "of"):
                continue  # a subject, or a noun said to be specific
            if nxt and nxt not in _AFTER_OBJECT and not nxt.endswith("ly"):
                continue  # a compound: "the rice cooker", "the fish market"
            if words[h] in _MASS:
                out.append(f"the {words[h]} ... {_HABITUAL.search(' '.join(words)).group(0)}")
    return out


_GIVE_TO = re.compile(r"\b(give|gives|gave|giving|send|sends|sent|sending|show|shows|showed|"
                      r"showing|lend|lends|lent|lending|hand|hands|handed|toss|tosses|tossed|"
                      r"throw|throws|threw|pass|passes|passed|explain|explains|explained|"
                      r"explaining|introduce|introduces|introduced|bring|brings|brought|deliver|"
                      r"delivers|delivered|sell|sells|sold) (?:(?:not|also|only|quickly|slowly|"
                      r"again) )*to\b")
_ASK = frozenset("ask asks asked asking".split())
_ASK_COMPLETE = frozenset("question questions about for if whether what where when why how "
                          "favor directions way".split())


def _missing_object(p: _Pair) -> list[str]:
    """A verb without the object English requires: "gives to the boy", "asks the daughter"
    (asks the daughter a question / about ...)."""
    text = " ".join(p.en)
    out = [m.group(0) for m in _GIVE_TO.finditer(text)
           if not {"who", "that", "which"} & set(text[:m.start()].split()[-8:])]  # "that X sold to Y"
    if p.en and p.en[0] in ("who", "whom"):
        return out  # "Who is the wizard asking?": the question word is the object
    for clause in _clauses_en(p):
        words = [p.en[j] for j in clause]
        for k, w in enumerate(words):
            if w in _ASK and not _ASK_COMPLETE & set(words[k + 1:]):
                out.append(" ".join(words[k:k + 3]))
    return out


#: English kinship nouns: "the aunt" needs a possessor (her aunt, Minjun's aunt)
_KIN = frozenset((
    "mother father sister brother aunt uncle grandmother grandfather cousin niece nephew son "
    "daughter husband wife grandson granddaughter sibling mothers fathers sisters brothers "
    "aunts uncles grandmothers grandfathers cousins nieces nephews sons daughters husbands "
    "wives grandsons granddaughters siblings").split())
_KIN_PRE = frozenset("older younger elder little big maternal paternal".split())


def _kinship(p: _Pair) -> list[str]:
    out = []
    en = p.en
    for k, w in enumerate(en[:-1]):
        if w != "the":
            continue
        h = k + 1
        while h < len(en) - 1 and (en[h] in _KIN_PRE or en[h] in _EN_ADJECTIVES):
            h += 1
        if en[h] in _KIN and not (h + 1 < len(en) and en[h + 1] in ("who", "that", "which", "of")):
            out.append(" ".join(en[k:h + 1]))
    return out


_SMALL_DIGIT = re.compile(r"^(10|[1-9])$")


def _small_digits(p: _Pair) -> list[str]:
    """One to ten in running English are words ("four students", "one other librarian"); clock
    times keep digits (at 2 o'clock)."""
    out = []
    for k, w in enumerate(p.en):
        nxt = p.en[k + 1] if k + 1 < len(p.en) else ""
        if _SMALL_DIGIT.match(w) and nxt not in ("o'clock", "a.m", "p.m", "am", "pm"):
            out.append(" ".join(p.en_raw[k:k + 2]))
    return out


# ---- Korean words, counters and particles

#: light-verb phrases that Korean spelling writes as two words: attached stem -> spelled
_LIGHT_VERBS = {"미소지": "미소 짓다", "미소짓": "미소 짓다", "숨쉬": "숨 쉬다", "숨셔": "숨 쉬다",
                "숨쉰": "숨 쉬다", "숨쉽": "숨 쉬다", "박수치": "박수 치다", "박수쳐": "박수 치다",
                "박수쳤": "박수 치다", "박수친": "박수 치다", "박수칠": "박수 치다",
                "박수칩": "박수 치다", "소리지르": "소리 지르다", "소리질": "소리 지르다",
                "노래부르": "노래 부르다", "노래불": "노래 부르다", "사진찍": "사진 찍다",
                "낮잠자": "낮잠 자다", "낮잠잤": "낮잠 자다", "낮잠잔": "낮잠 자다",
                "낮잠잘": "낮잠 자다", "낮잠잡": "낮잠 자다", "손흔들": "손 흔들다",
                "손흔드": "손 흔들다", "손흔든": "손 흔들다", "밥짓": "밥 짓다", "밥지": "밥 짓다",
                "휘파람불": "휘파람 불다", "휘파람부": "휘파람 불다", "기지개켜": "기지개 켜다",
                "기지개켰": "기지개 켜다", "기지개켠": "기지개 켜다", "줄넘기를하": "줄넘기를 하다"}
_LIGHT_RE = re.compile("^(" + "|".join(sorted(_LIGHT_VERBS, key=len, reverse=True)) + ")")


def _light_verb_spacing(p: _Pair) -> list[str]:
    return [f"{w} ({_LIGHT_VERBS[m.group(1)]})" for w in p.ko if (m := _LIGHT_RE.match(w))]


_NUMERAL_RE = re.compile(r"^(열|스물|스무|서른|마흔|쉰|예순|일흔|여든|아흔)?(한|하나|두|둘|세|셋|네|"
                         r"넷|다섯|여섯|일곱|여덟|아홉)?$")
#: honorific nouns counted with 분 (besides every noun in -님)
_HONORIFIC = frozenset("스님 선생님 어르신 손님".split())


def _honorific_counter(p: _Pair) -> list[str]:
    """An honorific noun (시장님, 스님, -님) is counted with 분: 시장님 서른 분, not 서른 명."""
    out = []
    ko = p.ko
    for i, w in enumerate(ko[:-1]):
        if not (w.endswith("님") or w in _HONORIFIC):
            continue
        nxt = ko[i + 1]
        if re.match(r"^\d+명", nxt):
            out.append(f"{w} {nxt}")
        elif i + 2 < len(ko) and nxt and _NUMERAL_RE.match(nxt) and ko[i + 2].startswith("명"):
            out.append(f"{w} {nxt} {ko[i + 2]}")
    return out


#: English forms of the state verbs that take 에, not 에서 (앉다 sit, 살다 live, 서 있다 ...)
_STATE_EN = frozenset("sit sits sat sitting live lives lived living stand stands stood standing "
                      "lie lies lay lying stay stays stayed staying".split())
_STATE_KO = re.compile(r"^(앉|누워|눕|누운|누웠|머물|머무|살|사는|산다|삽니|있)")
_NOUN_PARTICLES = ("을", "를", "이", "가", "은", "는", "도", "에게", "한테", "와", "과", "만", "의")
#: time nouns in 에 (다음 주에, 3월에, 그날에): not places
_KO_TIME_NOUN_E = ("주에", "월에", "년에", "날에", "때에", "후에", "전에", "중에", "시에", "분에")
_MOVE_KO = re.compile(r"^이사(하|해|했|한|할|합|하였)")


def _location_particle(p: _Pair, stop: set[int]) -> list[str]:
    """A place in 에서 with a verb of position or dwelling (도서관에서 앉아: 도서관에 앉아; 서울에서
    산다: 서울에 산다; 집에서 있다: 집에 있다), and the destination of 이사하다 in 에 (병원에 이사:
    병원으로 이사)."""
    out = []
    ko = p.ko
    state_en = bool(set(p.en) & _STATE_EN)
    rel_verbs = _relative_verbs(p)
    for i, w in enumerate(ko):
        if w.endswith("에서") and len(w) > 2:
            for k in _clause_of(p, i, stop):
                if k <= i:
                    continue
                v = ko[k]
                if _STATE_KO.match(v):
                    main_itda = v.startswith("있") and not ko[k - 1].endswith(("고", "아", "어"))
                    posture = ko[k - 1] in ("서", "앉아", "누워") and v.startswith("있")
                    lexical = not v.startswith("있") and state_en and (
                        p.links is None or _en_words_of(p, k) & _STATE_EN)
                    if main_itda or posture or lexical:
                        out.append(f"{w} ... {v}")
                    break
                if k in rel_verbs or not (
                        v.endswith(_NOUN_PARTICLES) or v in _KO_MANNER or v in _KO_TIME
                        or v in ATTRIBUTIVE or v in ("서", "앉아", "누워") or v in _DETERMINERS):
                    break  # another verb comes first (나를 "will carry"): the place is its
        if w.endswith("에") and not w.endswith(("에서", "에게") + _KO_TIME_NOUN_E) and \
                len(w) > 1 and w not in _KO_TIME and not _KO_HOUR.match(w):
            rest = [ko[k] for k in _clause_of(p, i, stop) if k > i]
            if any(_MOVE_KO.match(v) for v in rest):
                out.append(f"{w} ... 이사")
    return out


#: Korean noun -> English glosses that are wrong for it
_WRONG_GLOSS = {"소방대원": ("rescue worker", "rescue workers"), "쌍둥이": ("twin",)}


def _wrong_gloss(p: _Pair) -> list[str]:
    out = []
    for i, w in enumerate(p.ko):
        for noun, bad in _WRONG_GLOSS.items():
            if not w.startswith(noun):
                continue
            if p.links is not None:
                said = " ".join(p.en[j] for j in sorted(p.en_of.get(i, ())))
                said_words = said.split()
            else:
                said, said_words = " ".join(p.en), p.en
            for b in bad:
                if (" " in b and b in said) or (" " not in b and b in said_words):
                    out.append(f"{noun} '{b}'")
    return out


#: places: a place is crowded (붐비다), never 바쁘다 (though English says "a busy street")
_KO_PLACES = frozenset((
    "복도 시장 역 기차역 거리 가게 식당 공항 공원 학교 도서관 병원 카페 은행 약국 우체국 정류장 "
    "광장 마트 슈퍼마켓 백화점 동물원 해변 부엌 사무실 교실 헬스장 피시방 항구 터미널 "
    "시내 회사 호텔 극장 영화관 박물관 미술관 수영장 운동장 체육관 놀이터 주차장 주유소 "
    "빵집 서점 꽃집 미용실").split())
_BUSY_KO = re.compile(r"^바쁘|^바빠|^바쁜|^바빴|^바쁩")
_ANIMALS = frozenset(_NOT_LONG | {"snake", "snakes", "turtle", "turtles", "whale", "whales",
                                  "shark", "sharks", "eagle", "eagles", "pigeon", "pigeons",
                                  "elephant", "elephants", "sloth", "sloths", "weasel",
                                  "weasels", "calf", "calves", "foal", "foals", "toad", "toads"})
_HUMAN_DRINKS = "tea|coffee|juice|cola|soda|wine|beer|latte|lemonade|cocoa|smoothie"
_EN_PAIRS = (
    (re.compile(r"\bchicks?\b(?: (?:who|that|will|not|did|does|do|is|are|was|were|also))* "
                r"(?:bite|bites|bit|biting)\b"), "a chick bites (쪼다: pecks)"),
    (re.compile(r"\b(?:" + "|".join(sorted(_ANIMALS)) + r")\b(?: (?:who|that|will|not|did|does|"
                r"do|is|are|was|were|also|only))* (?:drink|drinks|drank|drinking) (?:the |this |"
                r"that |some )?(?:\w+ )?(?:" + _HUMAN_DRINKS + r")\b"), "an animal drinks tea"),
    (re.compile(r"\b(?:smile|smiles|smiled|smiling) (?:\w+ ){0,4}?loudly\b"), "smile loudly"),
    (re.compile(r"\b(?:wear|wears|wore|wearing) (?:\w+ ){0,4}?(?:hard|diligently)\b"),
     "wear hard"),
)
_INSECTS = ("사마귀", "개미", "벌", "꿀벌", "나비", "거미", "모기", "파리", "메뚜기", "귀뚜라미",
            "잠자리", "무당벌레", "바퀴벌레", "매미")


def _english_object(p: _Pair, j: int) -> bool:
    """(without an alignment) Whether the noun ``en[j]`` follows a word that is neither a
    clause opening nor a determiner of its own phrase: "who fed the cat" -- an object."""
    en, s = p.en, j
    while s > 0 and not p.en_raw[s - 1].endswith(",") and (en[s - 1] in _NP_OPENERS - {"and", "that"} or en[s - 1] in _EN_ADJECTIVES
                     or en[s - 1] in _EN_NUMBERS or en[s - 1].isdigit()
                     or en[s - 1].endswith("'s")):
        s -= 1
    return s > 0 and not p.en_raw[s - 1].endswith(",") and \
        en[s - 1] not in _COORDINATORS | _SUBORDINATORS | {"that", "who", "which", "while"}


def _wrong_pairing(p: _Pair, stop: set[int]) -> list[str]:
    """Pairings Korean (or English) does not use: 바쁘다 said of a place (붐비다), 밥을
    요리하다 (밥을 하다 / 짓다), a chick that bites (쪼다), an insect with 새끼, an animal
    drinking tea, "smile loudly", "wear hard"."""
    out = []
    ko = p.ko
    rel_verbs = _relative_verbs(p)
    for i, w in enumerate(ko):
        if _BUSY_KO.match(w):
            before = _strip(ko[i - 1], _SUBJECT_PARTICLES) if i > 0 else None
            after = ko[i + 1] if i + 1 < len(ko) else ""
            if (before in _KO_PLACES) or (w.startswith("바쁜") and _strip(
                    after, _NOUN_PARTICLES + ("에", "에서")) in _KO_PLACES) or (
                    w.startswith("바쁜") and after in _KO_PLACES):
                out.append(f"{ko[i - 1] if before else ''} {w} {after}".strip())
        if w in ("밥을", "밥만", "밥도"):
            # the first verb after the object is its own (밥을 먹는 학생 ... 요리할: 먹다's)
            rest = [ko[k] for k in _clause_of(p, i, stop) if k > i and (
                k in rel_verbs or _strip(ko[k], _NOUN_PARTICLES + ("에", "에서", "으로", "로"))
                is None) and ko[k] not in _KO_TIME and ko[k] not in _KO_MANNER
                and ko[k] not in ATTRIBUTIVE and ko[k] not in _DETERMINERS]
            if rest and rest[0].startswith("요리"):
                out.append("밥을 요리하다")
        if w.startswith(_INSECTS) and "새끼" in w:
            out.append(w)
    text = " ".join(p.en)
    for rx, what in _EN_PAIRS:
        for m in rx.finditer(text):
            j = len(text[:m.start()].split())  # the English index of the animal (or chick)
            if p.links is not None and p.ko_of.get(j) and not any(
                    _strip(ko[i], ("이", "가", "은", "는", "도", "께서")) is not None
                    for i in p.ko_of[j]):
                continue  # "who fed the puppy drank the tea": the puppy is not a subject
            if p.links is None and what != "smile loudly" and what != "wear hard" and \
                    _english_object(p, j):
                continue
            out.append(what)
            break
    return out


def _age_topic(p: _Pair) -> list[str]:
    """A neutral statement of a named person's age takes the topic marker: 백진영은 72살입니다,
    not 백진영이 (which answers "who is 72?")."""
    if _is_question(p):
        return []
    return [f"{a} {b}" for a, b in zip(p.ko, p.ko[1:])
            if re.match(r"^\d+살(이|입|이에|이야|이었|였)", b) and _strip(a, ("이", "가")) is not None]


# ---------------------------------------------------------------- honorifics, adjective count,
# numerals, sizes, counters, places of an activity, English tense and word order, 도

#: nouns a speaker honours (besides every noun in -님 and every noun counted with 분)
_HONOURED = frozenset("선생님 어머니 아버지 할머니 할아버지 스님 신부님 시장님 손님 어르신 부모님 "
                      "교수님 사장님 목사님 선배님 외할머니 외할아버지".split())
#: subject particles, the honorific 께서 first
_HON_SUBJECT = ("께서는", "께서도", "께서", "이", "가", "은", "는", "도")
#: syllables of the honorific -(으)시- (가시다, 가셔서, 가셨다, 가세요, 가십니다, 가신, 가실)
_SI = re.compile(r"[시셔셨세십신실심]")
#: verb and adjective stems that hold one of those syllables themselves (마시다 "drink", 신다
#: "wear shoes", 심다 "plant", 세우다 "stand up"): removed before the syllables are read
_SI_STEMS = tuple(sorted(("마시 마셔 마셨 마신 마실 마십 시작 시키 시켜 시켰 시킨 시킬 신어 신었 신는 "
                          "신고 신지 신을 신은 신습 신니 신다 실망 심어 심었 심는 심고 심지 심을 "
                          "심은 심다 세우 세워 세웠 세운 세울 시끄러 시끄럽 시원 신나 신선 신기 "
                          "세수 세탁 시청 시험 실수 심심 시도 시들 실어 실었 싣").split(),
                         key=len, reverse=True))
#: the last words of a verb group that are auxiliaries (가고 있다, 먹지 않다, 할 거예요, 읽어 주다)
_AUXILIARY = ("있", "계", "않", "주고", "주다", "주는", "주세", "주셨", "주시", "주었", "주어",
              "주지", "주면", "주니", "줘", "줬", "준", "줄", "줍", "거", "것", "겁", "싶", "보고",
              "보다", "보는", "보세", "보셨", "보시", "봐", "봤", "본", "볼", "봅", "버리", "버려",
              "버렸", "수")
#: nouns after a clause's verb that close a subordinate clause (배고플 때, 먹은 후에)
_CLAUSE_NOUNS = ("때", "때에", "때는", "동안", "후에", "전에", "뒤에")


def _honorific_form(word: str) -> bool:
    """Whether a verb form carries -(으)시-; a stem such as 마시- "drink" does not count."""
    for stem in _SI_STEMS:
        if word.startswith(stem):
            word = word[len(stem):]
            break
    return bool(_SI.search(word))


def _verb_group(p: _Pair, v: int) -> list[int]:
    """The words of the verb group ending at ``v``: the verb with its auxiliaries and a
    negation before it (가고 있어요, 먹지 않았다, 안 갔다, 할 거예요); a closing 때 / 후에 is
    skipped to the verb before it (배고플 때)."""
    while v > 0 and p.ko[v] in _CLAUSE_NOUNS:
        v -= 1
    group = [v]
    k = v
    while k > 0 and len(group) < 4:
        if p.ko[k].startswith(_AUXILIARY) or p.ko[k - 1] in ("안", "못"):
            k -= 1
            group.insert(0, k)
        else:
            break
    return group


def _honoured_subject(p: _Pair, i: int) -> str | None:
    """The honoured noun when word ``i`` is a subject (이/가/은/는/도/께서) whose noun is
    honoured: 선생님이, 어머니는, 신부님 다섯 분이, 손님 5분이; else None."""
    w = p.ko[i]
    if w.endswith(("께서", "께서는", "께서도")) and len(w) > 2:
        stem = w[:w.index("께서")]
        return stem if stem else None
    found = _noun_at(p, i, _HON_SUBJECT)
    if found is None:
        return None
    noun, _ = found
    counter = _strip(w, _HON_SUBJECT)
    counted_bun = counter == "분" or bool(counter and re.match(r"^\d+분$", counter))
    if noun in _HONOURED or noun.endswith("님") or counted_bun:
        return noun
    return None


def _missing_honorific(p: _Pair, stop: set[int]) -> list[str]:
    """An honoured subject (선생님, 어머니, 할아버지, 신부님, any noun counted with 분) with a
    verb that lacks -(으)시-: 선생님 여섯 분이 사요 (사세요), 신부님이 기다렸습니다
    (기다리셨습니다). The verb is the one of the subject's clause; with the alignment, a subject
    inside a relative clause takes the relative verb (신부님이 조립한 의자: 조립하신), a subject
    relative on an honoured head takes its verb (웃는 선생님: 웃으시는), and a clause with no
    subject of its own after the subject's clause shares it (선생님이 배고파서 빵을 먹었다)."""
    out = []
    ko = p.ko
    if p.links is None:  # clauses end at a connective (-고, -서, -면, -지만) not before 있다
        stop = {k for k, w in enumerate(ko[:-1]) if w.endswith(("고", "서", "면", "지만", "니까"))
                and not w.endswith("에서") and w not in JOINED and not ko[k + 1].startswith(
                    _AUXILIARY)}
    segments = _segments(p, stop)
    spans = _relative_spans(p) if p.links is not None else []
    checked: set[int] = set()

    existential = "there" in p.en  # 체육관에 손님이 없어요 "there is no guest": no -시-

    def check(noun: str, v: int) -> None:
        group = _verb_group(p, v)
        if v in checked or not group:
            return
        checked.add(v)
        if existential and ko[group[-1]].startswith(("있", "없")):
            return
        if not any(_honorific_form(ko[k]) for k in group):
            out.append(f"{noun} ... {' '.join(ko[k] for k in group)}")

    rel_words = {}
    rel_verbs = {i for _, s, v in p.relative_clauses() for i in range(s, v + 1)} \
        if p.links is not None else set()
    for start, r, e in spans:
        _, s, v = next(x for x in p.relative_clauses() if x[0] == r)
        for j in range(r, e + 1):
            rel_words[j] = v
        # a subject relative: "the teacher who laughs" (who + a verb); "the teacher who the
        # boy met" is an object relative
        if r + 1 >= len(p.en):
            continue
        nxt = p.en[r + 1]
        if nxt in _NP_OPENERS or nxt in _EN_NUMBERS or nxt in _PRONOUNS or \
                nxt[:1].isdigit() or p.en_raw[r + 1][:1].isupper():
            continue
        h = v + 1
        while h < len(ko) and (ko[h] in ATTRIBUTIVE or ko[h] in JOINED or ko[h] in _DETERMINERS
                               or ko[h] in _ADJ_PREFIX):
            h += 1
        if h < len(ko):
            noun = _strip(ko[h], _NOUN_PARTICLES + ("에", "에서", "으로", "로")) or ko[h]
            if noun in _HONOURED or noun.endswith("님"):
                check(noun, v)
    carry: str | None = None
    for seg in segments:
        subject_here = False
        owner: str | None = None
        for i in seg:
            noun = _honoured_subject(p, i)
            if p.links is not None:
                inside = {rel_words[j] for j in p.en_of.get(i, ()) if j in rel_words}
                if inside:  # the subject of a relative clause
                    if noun is not None and ko[i].endswith(("이", "가", "께서")):
                        check(noun, min(inside))
                    continue
            stem = _strip(ko[i], _SUBJECT_PARTICLES)
            is_subject = (stem is not None and ko[i] not in ATTRIBUTIVE and i not in rel_verbs
                          and not (len(stem) == 1 and ko[i][-1] in "은는" and p.links is None)
                          ) or "께서" in ko[i]  # not 작은, 먹은, 자는: adnominal forms
            if is_subject and subject_here and _strip(ko[i], ("이", "가")) is not None:
                if i + 1 in _verb_group(p, seg[-1]):
                    owner = noun  # 선생님은 손전등이 없다: the predicate's subject is the second
                elif p.links is None:
                    owner = None  # 신부님이 깨우는 은행원이 ...: whose verb, the surface cannot tell
                continue
            if not is_subject or subject_here:
                continue
            if ko[i].endswith("도") and _strip(ko[i], ("도",)) is not None and any(
                    _strip(ko[k], ("이", "가", "은", "는")) for k in seg if k < i):
                continue
            subject_here = True
            owner = noun
        if not subject_here:
            owner = carry
        if owner is not None:
            check(owner, seg[-1])
        carry = owner
    return out


def _adjective_count(p: _Pair, stop: set[int]) -> list[str]:
    """Two or more attributive adjectives on one noun (빠르고 아픈 낙타, 맛있고 따뜻한 물): a
    reader takes one adjective that fits; 호기심 많은 "curious" is one adjective."""
    out = []
    for run in _adjective_runs(p.ko, stop):
        words = [p.ko[i] for i in run if p.ko[i] not in _ADJ_PREFIX]
        if len(words) > 1 and p.links is None and words[0] in JOINED and run[0] > 0 and \
                _strip(p.ko[run[0] - 1], _SUBJECT_PARTICLES) is not None:
            words = words[1:]  # 방이 크고 작은 소녀가: a predicate, then one adjective
        if len(words) > 1 and run[-1] + 1 < len(p.ko):
            out.append(" ".join(words))
    return out


#: counters a digit or a native numeral may count with (clock times, 시, are apart)
_COUNT_WORDS = frozenset(_COUNTERS | set("편 통 곡 짝 다발 병 조각 접시 봉지 상자 켤레 칸 군데 "
                                         "번".split()))
_COUNTER_RE = "|".join(sorted(_COUNT_WORDS, key=len, reverse=True))
#: a counter and what may follow it in one word: a case particle or the copula (명이, 살이에요)
_AFTER_COUNTER = r"(?:|이|가|을|를|은|는|도|에게|께|과|와|의|만|이에요|이야|입니다|이다|이었\w*|였\w*)"
_DIGIT_COUNTED = re.compile(r"^\d+(" + _COUNTER_RE + ")" + _AFTER_COUNTER + "$")
_NATIVE_COUNTED = re.compile(r"^(" + _COUNTER_RE + ")" + _AFTER_COUNTER + "$")
_TIME_AFTER = ("동안", "후에", "전에", "뒤에", "만에", "늦게", "일찍", "정도")


def _numerals(p: _Pair) -> list[str]:
    """Arabic digits with the counter 분 (선생님 6분 reads "six minutes": 여섯 분), and Arabic and
    native numerals counting in one sentence (일흔여섯 분 ... 62명, 아홉 명 ... 4명)."""
    out = []
    ko = p.ko
    digits, native = [], []
    for i, w in enumerate(ko):
        m = _DIGIT_COUNTED.match(w)
        if m:
            after = ko[i + 1] if i + 1 < len(ko) else ""
            clock = i > 0 and re.match(r"^\d+시$", ko[i - 1])
            if m.group(1) == "분" and not clock and after not in _TIME_AFTER:
                out.append(f"{ko[i - 1] if i else ''} {w}".strip())
            if not (m.group(1) == "분" and (clock or after in _TIME_AFTER)) and \
                    int(re.match(r"\d+", w).group(0)) < 100:
                digits.append(w)  # 576명 beside 서른여섯 대 is the usual writing
        elif w and _NUMERAL_RE.match(w) and i + 1 < len(ko) and _NATIVE_COUNTED.match(ko[i + 1]) \
                and not (w in ("한", "세", "네", "두") and i > 0 and ko[i - 1].endswith(
                    ("을", "를", "에서"))):
            native.append(f"{w} {ko[i + 1]}")
    if digits and native:
        out.append(f"{native[0]} + {digits[0]}")
    return out


#: people (a size adjective on them says 키 / 덩치: 키 큰 남자, 덩치 큰 소년)
_KO_PERSONS = frozenset((
    "남자 여자 소년 소녀 아이 어린이 아기 학생 선생님 사람 친구 아저씨 아주머니 할머니 할아버지 "
    "어머니 아버지 엄마 아빠 언니 오빠 누나 형 동생 삼촌 이모 고모 외삼촌 딸 아들 손자 손녀 남편 "
    "아내 의사 간호사 요리사 경찰관 소방관 소방대원 군인 농부 어부 화가 가수 배우 작가 시인 기자 "
    "변호사 판사 회사원 점원 직원 손님 고객 승객 관광객 주민 세입자 이웃 팀장 사장 교장 시장님 "
    "목수 광대 마술사 도둑 경호원 배달원 택배기사 운전사 기관사 조종사 선수 축구선수 야구선수 "
    "농구선수 코치 감독 심판 사서 약사 수의사 과학자 발명가 음악가 무용가 소설가 편집자 "
    "아나운서 미용사 은행원 경비원 정원사 제빵사 청소년 청년 노인 어르신 쌍둥이 장군 목사 "
    "신부님 스님 교수 비서 룸메이트 동료 기타리스트 피아니스트 바이올리니스트 군인 천사 거인 "
    "마녀 왕 왕자 공주 주인 사촌 조카 신부 신랑 여왕 탐정 해적 기사 선원 선장 어른 청소부 "
    "우체부 통역사 건축가 조각가 사진가 디자이너 엔지니어 프로그래머 연구원 집배원 배관공").split())
_EN_PERSONS = frozenset((
    "man men woman women boy boys girl girls child children kid kids baby babies person people "
    "student students teacher teachers friend friends aunt aunts uncle uncles mother father "
    "grandmother grandfather son daughter sister brother nurse nurses doctor doctors cook cooks "
    "chef chefs painter painters singer singers writer writers poet poets clown clowns thief "
    "thieves guest guests customer customers passenger passengers tourist tourists resident "
    "residents tenant tenants neighbor neighbors twin twins general generals priest priests "
    "monk monks judge judges coach coaches secretary roommate colleague angel angels giant "
    "giants witch king queen prince princess owner cousin nephew niece detective pirate "
    "pirates knight sailor captain adult adults youth soldier soldiers farmer farmers "
    "principal principals mayor mayors lawyer lawyers").split())
#: second words of English person compounds ("office worker", "train driver")
_EN_PERSON_HEADS = frozenset("worker workers driver drivers player players officer officers "
                             "leader leaders guard guards keeper keepers maker makers carrier "
                             "carriers".split())


def _en_person(word: str) -> bool:
    """Whether an English noun names a person (its own lists; -ist / -ian words)."""
    return word in _EN_PERSONS or word in _EN_PERSON_HEADS or (
        len(word) > 5 and word.endswith(("ist", "ists", "ian", "ians")))
_SIZE_ATTR = frozenset({"큰", "작은", "커다란", "조그만", "조그마한"})
_SIZE_PRED = re.compile(r"^(크(다|고|지|니|면|네|세|시|셨)|클$|커(요|서|도)?$|컸|큽|작(다|아|았|고|지|니|"
                        r"습|으|네|을))")
_BODY = ("키", "덩치", "몸집", "키가", "덩치가", "몸집이")


def _is_person(p: _Pair, i: int, noun: str) -> bool:
    if noun in _KO_PERSONS or noun.endswith("님"):
        return True
    if p.links is None:
        return False
    said = [p.en[j] for j in p.en_of.get(i, ())]
    return any(_en_person(w) for w in said)


def _size_on_person(p: _Pair) -> list[str]:
    """Bare 크다 / 작다 on a person (작은 남자, 큰 선생님들, 소년이 커요): Korean says 키 큰 /
    키 작은 or 덩치 큰; 큰 아이 and 작은 아이 read "the eldest / the youngest child"."""
    out = []
    ko = p.ko
    for i, w in enumerate(ko[:-1]):
        if w not in _SIZE_ATTR or (i > 0 and ko[i - 1] in _BODY):
            continue
        j = i + 1
        while j < len(ko) - 1 and (ko[j] in ATTRIBUTIVE or ko[j] in JOINED or
                                   ko[j] in _ADJ_PREFIX):
            j += 1
        noun = _strip(ko[j], _NOUN_PARTICLES + ("에", "에서", "께서")) or ko[j]
        if noun.startswith(("아이", "애")) and noun in ("아이", "애", "아이들", "애들"):
            out.append(f"{w} {ko[j]}")
        elif _is_person(p, j, noun):
            out.append(f"{w} {ko[j]}")
    for i, w in enumerate(ko[1:], 1):
        if not _SIZE_PRED.match(w):
            continue
        k = i - 1
        while k > 0 and (ko[k] in _KO_TIME or ko[k] in _KO_MANNER or ko[k] in ("안", "못",
                                                                            "정말", "아주")):
            k -= 1
        subj = _noun_at(p, k, _SUBJECT_PARTICLES)
        if subj is not None and ko[k] not in _BODY and _is_person(p, subj[1], subj[0]):
            out.append(f"{ko[k]} {w}")
    return out


#: nouns whose counter is not 개 (a table of this module's own): noun -> its counters
_NOUN_COUNTERS = {
    "시": "편", "손수건": "장", "수건": "장", "종이": "장", "사진": "장", "편지": "통 장",
    "엽서": "장", "담요": "장", "책": "권", "공책": "권", "잡지": "권", "소설": "권 편",
    "동화책": "권", "요리책": "권", "시집": "권", "사전": "권", "영화": "편", "노래": "곡",
    "동요": "곡", "자동차": "대", "자전거": "대", "컴퓨터": "대", "비행기": "대", "버스": "대",
    "양말": "켤레 짝", "신발": "켤레 짝", "장갑": "켤레 짝", "운동화": "켤레 짝", "구두": "켤레 짝",
    "바지": "벌", "원피스": "벌", "코트": "벌", "재킷": "벌", "정장": "벌", "나무": "그루",
    "소나무": "그루", "꽃": "송이 다발", "장미": "송이 다발", "연필": "자루", "집": "채",
}


def _wrong_counter(p: _Pair) -> list[str]:
    """A noun counted with a counter it does not take: 시 열 개 (열 편), 손수건 일곱 개 (일곱
    장), 책 세 개 (세 권)."""
    out = []
    ko = p.ko
    for i, w in enumerate(ko[:-1]):
        right = _NOUN_COUNTERS.get(w)
        if right is None:
            continue
        nxt = ko[i + 1]
        m = _DIGIT_COUNTED.match(nxt)
        if m is None and _NUMERAL_RE.match(nxt) and nxt and i + 2 < len(ko):
            m = _NATIVE_COUNTED.match(ko[i + 2])
            shown = f"{w} {nxt} {ko[i + 2]}"
        else:
            shown = f"{w} {nxt}"
        if m is not None and m.group(1) not in right.split():
            out.append(f"{shown} ({right.split()[0]})")
    return out


_HIKE = re.compile(r"^등산(하|해|했|한|할|합|을|도|만)")


def _hiking_place(p: _Pair, stop: set[int]) -> list[str]:
    """등산하다 means climbing a mountain: a place in 에서 with it is either another place
    (계곡에서 등산하면) or the mountain again (산에서 등산: redundant)."""
    out = []
    for i, w in enumerate(p.ko):
        if not (w.endswith("에서") and len(w) > 2) or w in _KO_TIME:
            continue
        for k in _clause_of(p, i, stop):
            if k <= i:
                continue
            v = p.ko[k]
            if _HIKE.match(v):
                out.append(f"{w} ... 등산")
                break
            relative = p.links is not None and bool(_en_words_of(p, k) & {"who", "that", "which"})
            if relative or not (_strip(v, _NOUN_PARTICLES) is not None or v in _KO_MANNER or
                                v in _KO_TIME or v in ATTRIBUTIVE or v in _DETERMINERS or
                                _NUMERAL_RE.match(v)):
                break  # another verb comes first: the place is its (집에서 접는 ...)
    return out


_PRESENT_BE = frozenset({"is", "are", "am", "does", "do", "has", "have"})
_PAST_OR_FUTURE = frozenset({"was", "were", "did", "had", "will", "would", "could", "'ll"})
_SUBJECT_PRONOUNS = frozenset({"he", "she", "it", "they", "i", "we", "you"})
_IRREGULAR_PAST = frozenset((
    "ate drank ran swam sang came went saw met bought slept fell sat stood lay woke got gave "
    "took made left wore caught threw brought taught thought told wrote read rode drew grew "
    "heard felt found lost won flew spoke broke chose began hid hit cut put sold sent spent "
    "built became forgot understood kept held paid lent").split())


def _ko_future(word: str) -> bool:
    return word.startswith(("거", "것", "겁")) or "겠" in word


def _because_tense(p: _Pair) -> list[str]:
    """A because-clause in the present with a past main clause ("was tired on Thursday
    because he cleans up": because he cleaned), or an event in the simple present with a
    future main clause ("will be hungry because it runs": because it ran, from running). A
    present state with a future main clause is fine: "will eat because he is hungry"."""
    out = []
    for conj, c, sub, main in _subordinations(p):
        if conj != "because":
            continue
        sw = _outside_relatives(p, sub)
        if not sw or _PAST_OR_FUTURE & set(sw):
            continue
        state = bool(_PRESENT_BE & set(sw))
        event = False
        for a, b in zip(sw, sw[1:]):
            if a in _SUBJECT_PRONOUNS and b not in _PRESENT_BE and not b.endswith("ed") and \
                    b not in _IRREGULAR_PAST and b not in ("not", "also", "still"):
                event = True
                break
        if not (state or event):
            continue
        mw = _outside_relatives(p, main)
        if "will" in mw or "'ll" in mw:
            tense = "future"
        elif {"was", "were", "did"} & set(mw):
            tense = "past"
        else:
            if p.links is not None:
                ks = sorted({i for j in main for i in p.ko_of.get(j, ())})
                last = ks[-1] if ks else len(p.ko) - 1
            else:
                last = len(p.ko) - 1
            nxt = p.ko[last + 1] if last + 1 < len(p.ko) else ""
            if _ko_future(p.ko[last]) or _ko_future(nxt):
                tense = "future"
            elif _ko_past(p.ko[last]):
                tense = "past"
            else:
                continue
        if tense == "past" or event:
            out.append(f"{tense} ... because {' '.join(sw[:5])}")
    return out


#: English noun compounds whose first word is an adjective elsewhere ("the hot dog is cold")
_EN_COMPOUNDS = frozenset((
    "hot dog|hot dogs|hot chocolate|hot pot|hot spring|hot springs|ice cream|sweet potato|"
    "sweet potatoes|green tea|black tea|black bean|red bean|cold noodles|white board|"
    "high school|old man|fast food|soft drink|soft drinks|light bulb|black bean noodles|"
    "red pepper|green onion|green onions|short story|long jump|small talk|soft tofu|"
    "cold noodle|hot water|sweet rice|white rice|black beans|red beans").split("|"))
#: the order of cumulative adjectives: opinion (0), size, temperature, age, shape, colour
_ADJ_RANK = {**{w: 1 for w in "big small tall short long tiny huge little large high low wide "
                              "narrow thick thin heavy light deep shallow spacious".split()},
             **{w: 2 for w in "hot cold warm cool".split()},
             **{w: 3 for w in "new old young".split()},
             **{w: 4 for w in "round square".split()},
             **{w: 5 for w in "red blue yellow white black green".split()}}


#: adjectives that are verbs as well ("clean the room", "warm the soup")
_EN_VERB_TOO = frozenset("clean warm cool dry open empty clear calm slow light".split())


def _own_word(words: Sequence[str], k: int) -> bool:
    """Whether ``words[k]`` is the first word of a noun compound (hot dog, ice cream)."""
    return k + 1 < len(words) and (f"{words[k]} {words[k + 1]}" in _EN_COMPOUNDS)


def _one_word_in_korean(p: _Pair, j: int) -> bool:
    """(with the alignment) Whether English words ``j`` and ``j + 1`` translate one Korean
    noun (순두부 "soft tofu"): the first is the noun's own word, not an adjective."""
    if p.links is None:
        return False
    shared = set(p.ko_of.get(j, ())) & set(p.ko_of.get(j + 1, ()))
    return any(p.ko[i] not in ATTRIBUTIVE and p.ko[i] not in JOINED for i in shared)


def _coordinate_adjectives(p: _Pair) -> list[str]:
    """Two adjectives of one kind before an English noun with no comma or "and": "cheerful
    brave office worker", "fast sick camel" (cheerful, brave; fast and sick). Cumulative
    adjectives in their order (big red ball, small old house) are fine, and so is a noun's own
    word (the big hot dog)."""
    out = []
    en = p.en
    for k in range(len(en) - 2):
        a, b = en[k], en[k + 1]
        if a not in _EN_ADJECTIVES or b not in _EN_ADJECTIVES or p.en_raw[k].endswith(","):
            continue
        if _own_word(en, k + 1) or _own_word(en, k) or _one_word_in_korean(p, k + 1):
            continue
        if k > 0 and (en[k - 1] in _BE or en[k - 1] in ("not", "also", "very", "so")):
            continue  # a predicate
        if a in _EN_VERB_TOO and not (k > 0 and (en[k - 1] in _NP_OPENERS or en[k - 1] in
                                                 _EN_NUMBERS or en[k - 1].endswith("'s"))):
            continue  # "did two soldiers clean complicated hair dryers": the verb
        if _ADJ_RANK.get(a, 0) < _ADJ_RANK.get(b, 0):
            continue  # cumulative: big red ball
        out.append(f"{a} {b} {en[k + 2]}")
    return out


_EN_TIME_WORDS = frozenset("yesterday today tomorrow now tonight suddenly sometimes often usually "
                           "always secretly quietly slowly quickly again".split())
_EN_TIME_PHRASE = re.compile(r"^(every (day|morning|evening|night|week|weekend)|on (monday|tuesday|"
                             r"wednesday|thursday|friday|saturday|sunday|the weekend|weekends)|"
                             r"(last|next|this) (year|week|month|morning|evening)|in the (morning|"
                             r"evening|afternoon)|at night|at \d+ o'clock)\b")
_EN_PLACE_PREP = frozenset("at in on into near by from to inside behind".split())
_EN_SUB_OPEN = frozenset("if when because while after before".split())


def _fronted_adverbials(p: _Pair) -> list[str]:
    """More than one adverbial before the subject of an English clause: "If it is thirsty, on
    Sunday in the field the camel ...", "When they were hungry, on Monday two couriers ...",
    "Yesterday at the store the boy ..." (one fronted, the rest after the verb phrase)."""
    out = []
    en, raw = p.en, p.en_raw
    starts = [0] + [j + 1 for j, w in enumerate(en) if j > 0 and w in _COORDINATORS and
                    raw[j - 1].endswith(",")]
    for s in starts:
        k, found = s, []
        while k < len(en):
            w = en[k]
            if w in _EN_SUB_OPEN:
                comma = next((j for j in range(k, len(en) - 1) if raw[j].endswith(",")), None)
                if comma is None:
                    break
                found.append(" ".join(en[k:k + 2]) + " ...")
                k = comma + 1
                continue
            m = _EN_TIME_PHRASE.match(" ".join(en[k:k + 4]))
            if m:
                found.append(m.group(0))
                k += len(m.group(0).split())
                continue
            if w in _EN_TIME_WORDS:
                found.append(w)
                k += 1
                continue
            if w in _EN_PLACE_PREP and k + 2 < len(en) and en[k + 1] in _NP_OPENERS:
                h = k + 2
                while h < len(en) - 1 and en[h] in _EN_ADJECTIVES:
                    h += 1
                found.append(" ".join(en[k:h + 1]))
                k = h + 1
                continue
            break
        if len(found) > 1:
            out.append(" | ".join(found))
    return out


#: verbs whose habitual object is any one of a kind (eats strawberries every day)
_CONSUME = frozenset((
    "eat eats ate eating buy buys bought buying cook cooks cooked cooking bake bakes baked "
    "baking pick picks picked picking order orders ordered ordering boil boils boiled boiling "
    "fry fries fried frying sell sells sold selling drink drinks drank drinking peel peels "
    "peeled peeling slice slices sliced slicing catch catches caught catching taste tastes "
    "tasted tasting").split())


def _habitual_the(p: _Pair) -> list[str]:
    """"ate the small strawberry every day": in a habitual sentence the object of eating,
    buying, cooking ... is any one of its kind, a bare plural (ate small strawberries every
    day); "the" + a singular count noun names one thing again and again."""
    out = []
    inside = {j for _, r, e in _relative_spans(p) for j in range(r, e + 1)} \
        if p.links is not None else set()
    for clause in _clauses_en(p):
        words = [p.en[j] for j in clause]
        hab = _HABITUAL.search(" ".join(words))
        if hab is None:
            continue
        for k, w in enumerate(words[:-2]):
            if w not in _CONSUME or words[k + 1] != "the" or clause[k] in inside:
                continue  # (a relative clause's verb is not the habitual one)
            h = k + 2
            while h < len(words) - 1 and words[h] in _EN_ADJECTIVES and not _own_word(words, h):
                h += 1
            noun = words[h]
            nxt = words[h + 1] if h + 1 < len(words) else ""
            if nxt in ("who", "that", "which", "of") or noun in _MASS or noun in _EN_ADJECTIVES or \
                    noun.endswith("'s") or \
                    _en_person(noun):
                continue  # a specific thing, a mass noun, a person (draws the girl every day)
            if nxt and nxt not in _AFTER_OBJECT and not nxt.endswith("ly"):
                noun = f"{noun} {nxt}"  # a compound: the rice cake
                last = nxt
            else:
                last = noun
            if _singular(last) == last and not last.endswith("ss") and last not in _MASS:
                out.append(f"{w} the {noun} ... {hab.group(0)}")
    return out


#: nouns that end in 도 themselves (포도 "grape", 복도 "corridor")
_DO_NOUNS = frozenset("포도 복도 지도 정도 온도 속도 태도 인도 보도 기도 수도 각도 습도 제도 시도 "
                      "강도 농도 고도 열도 반도 효도 도".split())
_NOT_NP = frozenset("아무도 누구도 아무것도 하나도 어디도 언제도".split())


def _first_do(p: _Pair) -> list[str]:
    """도 "also" on the first noun phrase of a sentence (손지윤도 …, 언니도 …): no earlier noun
    shares its role, so a reader asks "who else?" (a heuristic: X도 Y도, 어떤 N도 "any" and N이 한
    명도 "not even one" pass)."""
    ko = p.ko
    i = 0
    while i < len(ko) and (ko[i] in _KO_TIME or ko[i] in _KO_MANNER or ko[i] in _DETERMINERS
                           or ko[i] in ATTRIBUTIVE or ko[i] in JOINED or ko[i] in _ADJ_PREFIX
                           or _KO_HOUR.match(ko[i]) or (ko[i].endswith("의") and len(ko[i]) > 1)
                           or (ko[i] == "다음" and i + 1 < len(ko) and ko[i + 1] == "주에")
                           or ko[i] == "주에"):
        i += 1
    if i >= len(ko) - 1 or "어떤" in ko[:i]:
        return []
    j = i
    if i + 2 < len(ko) and _NUMERAL_RE.match(ko[i + 1]) and ko[i + 1] and \
            _NATIVE_COUNTED.match(ko[i + 2]):
        j = i + 2  # 학생 세 명도
        if ko[i + 1] == "한" and ko[i][-1] in "이가을를":
            return []  # (학생들이 한 명도 안 왔다 "not even one": a quantifier, not "also")
    elif i + 1 < len(ko) and _DIGIT_COUNTED.match(ko[i + 1]):
        j = i + 1  # 학생 3명도
    w = ko[j]
    if not w.endswith("도") or len(w) < 2 or w in _DO_NOUNS or w in _NOT_NP:
        return []
    if any(x.endswith("도") and len(x) > 1 and x not in _DO_NOUNS for x in ko[j + 1:]):
        return []  # X도 Y도
    return [" ".join(ko[i:j + 1])]


# ---------------------------------------------------------------- round three: stories and English


def _progressive_aux(ko: list[str], i: int) -> bool:
    """Whether ``ko[i]`` is the auxiliary 있- of a progressive (먹고 있고, 하고 있어요)."""
    return i > 0 and ko[i].startswith("있") and ko[i - 1].endswith("고") and len(ko[i - 1]) > 1


def _progressive_pair(p: _Pair) -> list[str]:
    """Two progressive activities of one subject joined by -고 (요리하고 있고 ... 야구를 하고
    있어요): one person does not do both at once; a second subject (소년이 요리하고 있고 소녀가
    ...) or a sequence (요리하고 야구를 했다) is fine."""
    ko = p.ko
    for i, w in enumerate(ko):
        if w not in ("있고", "있었고") or not _progressive_aux(ko, i):
            continue
        for k in range(i + 1, len(ko)):
            if _strip(ko[k], ("이", "가", "은", "는", "도", "께서")) is not None and \
                    k + 1 < len(ko) and not ko[k + 1].startswith("있"):
                break  # a subject of its own
            if _progressive_aux(ko, k) and not ko[k].endswith(("는", "던")):
                return [f"{ko[i - 1]} {w} ... {ko[k - 1]} {ko[k]}"]
    return []


def _same_verb(stem: str, word: str) -> bool:
    """Whether ``word`` is a form of the verb whose stem is ``stem`` (날 / 날았습니다, 요리하 /
    요리했다)."""
    if not stem or not word.startswith(stem[:-1]):
        return False
    if word.startswith(stem) and (len(word) == len(stem) or word[len(stem)] in "았었였어아는을습지다니"
                                   or word[len(stem)] == "고"):
        return True
    if stem.endswith("하"):
        return word[len(stem) - 1:].startswith(("했", "해", "할", "합", "한"))
    return False


def _negated_own_relative(p: _Pair) -> list[str]:
    """A negated clause whose subject carries a relative clause of the same verb: 날고 있는
    꿀벌은 안 날았습니다 "the flying bee did not fly" contradicts itself."""
    ko = p.ko
    for r in range(len(ko) - 2):
        if ko[r + 1] in ("있는", "있던") and ko[r].endswith("고") and len(ko[r]) > 1:
            stem = ko[r][:-1]
            head = r + 2
        elif ko[r].endswith("는") and len(ko[r]) > 1 and _strip(ko[r], _NOUN_PARTICLES) is None \
                and r + 1 < len(ko) and _hangul_tail(ko[r][-1]) == 4 and ko[r] not in _DETERMINERS:
            stem = ko[r][:-1]
            head = r + 1
        else:
            continue
        while head < len(ko) and ko[head] in ATTRIBUTIVE:
            head += 1
        if head >= len(ko) or _strip(ko[head], ("이", "가", "은", "는", "께서")) is None:
            continue
        for k in range(head + 1, len(ko)):
            w = ko[k]
            if w in ("안", "못") and k + 1 < len(ko) and _same_verb(stem, ko[k + 1]):
                return [f"{ko[r]} ... {w} {ko[k + 1]}"]
            if w.endswith("지") and k + 1 < len(ko) and ko[k + 1].startswith(("않", "못")) \
                    and w[:-1] == stem:
                return [f"{ko[r]} ... {w} {ko[k + 1]}"]
    return []


#: states a deed can cause (배고프다 after running): the predicate of a because-clause's effect
_KO_STATES = ("배고", "피곤", "목마", "목말", "아프", "아팠", "아파", "기쁘", "기뻤", "기뻐", "슬프",
              "슬펐", "슬퍼", "행복", "즐거", "즐겁", "외로", "추웠", "추워", "춥", "더웠", "더워", "덥",
              "졸려", "졸렸", "졸리")


def _effect_before_cause(p: _Pair) -> list[str]:
    """A -고 clause, then a cause in -어서 and a state as the main predicate: 오렌지를 먹었고
    달려서 배고팠습니다 -- the state is the reason for the first clause, which comes before
    both (달려서 배가 고파서 오렌지를 먹었습니다)."""
    ko = p.ko
    if not ko or not ko[-1].startswith(_KO_STATES):
        return []
    for i, w in enumerate(ko[:-2]):
        base = ko[i - 1] if w.startswith("않") and i > 0 else w  # 배고프지 않았고: a state
        if not w.endswith("고") or len(w) < 2 or ko[i + 1].startswith(("있", "계시", "계신")) \
                or w in JOINED or base.startswith(_KO_STATES):  # a state in -고 is no deed; -고
            continue  # 있는 / 계시는 is a progressive (걷고 계시는 선생님), not a clause
        for k in range(i + 1, len(ko) - 1):
            if ko[k].endswith("서") and not ko[k].endswith("에서") and len(ko[k]) > 1:
                return [f"{w} ... {ko[k]} {ko[-1]}"]
    return []


def _counterless_han(p: _Pair) -> list[str]:
    """한 + a noun as a subject, with no counter (한 돼지가 울어요, 한 농구 선수가): 한 is the
    English article; Korean says 돼지가 or 돼지 한 마리가. 한 before a counter (한 명이) is the
    number, and 한 after an object or a bare noun (숙제를 한 학생이) is the verb 하다."""
    ko = p.ko
    out = []
    for i, w in enumerate(ko[:-1]):
        if w != "한":
            continue
        if i > 0 and (not (ko[i - 1] in _KO_TIME or ko[i - 1].endswith(("서", "고", "면", "때",
                                                                         "에", ","))) or
                      ko[i - 1].endswith("에서") and len(ko[i - 1]) > 2):
            continue  # 숙제를 한 학생, 헬스장에서 한 후배: the relative of 하다
        h = i + 1
        while h < len(ko) - 1 and ko[h] in ATTRIBUTIVE:
            h += 1
        noun = _strip(ko[h], ("이", "가", "은", "는", "께서", "과", "와"))
        if noun is None and h + 1 < len(ko) - 1 and _strip(ko[h + 1], ("이", "가")) is not None \
                and ko[h + 1][:-1] not in _COUNTERS:
            noun = ko[h] + " " + ko[h + 1]  # 한 농구 선수가
        if noun is None or noun in _COUNTERS or noun.split()[0] in _COUNTERS:
            continue
        out.append(" ".join(ko[i:h + 1]))
    return out


#: predicates a second nominative belongs to (배가 고프다, 키가 크다, 의사가 되다): a double
#: subject is then natural
_NOMINATIVE_PREDICATES = ("고프", "고파", "고팠", "아프", "아파", "아팠", "크", "커", "컸", "작",
                          "좋", "나쁘", "나빠", "많", "적", "없", "있", "되", "돼", "됐", "아니",
                          "필요", "무서", "싫", "부러")


def _double_subject(p: _Pair) -> list[str]:
    """Two bare subjects in a row, N이/가 N이/가 (신지안이 가이드가 놀린 ..., 이웃이 탐험가 마흔한
    명이 ...): the reader takes the first for the second's clause (a garden path); an adverbial
    or the object between them, or a predicate of the second (소년이 배가 고프다), reads well."""
    ko = p.ko
    out = []
    for i in range(len(ko) - 2):
        first = _strip(ko[i], ("이", "가"))
        if first is None or first in _COUNTERS or ko[i] in ("이", "가"):
            continue
        if ko[i + 1] in _NUMBER_WORDS or ko[i + 1][:1].isdigit():
            continue  # 어린이 560명이: the noun of a counted phrase, not a subject
        k = i + 1
        second = _strip(ko[k], ("이", "가"))
        if second is not None and k + 1 < len(ko) and (ko[k + 1] in _NUMBER_WORDS or
                                                       ko[k + 1][:1].isdigit()):
            second = None  # 고양이 열두 마리에게, 화가 두 명에게: the noun's own 이/가
        if second is None:  # 탐험가 마흔한 명이: a counted noun
            k = i + 1
            while k + 1 < len(ko) and (ko[k + 1] in _NUMBER_WORDS or ko[k + 1].isdigit()):
                k += 1
            if k == i + 1 or k + 1 >= len(ko) or _strip(ko[k + 1], ("이", "가")) not in _COUNTERS:
                continue
            k += 1
            second = ko[i + 1]
        if k + 1 < len(ko) and ko[k + 1].startswith(_NOMINATIVE_PREDICATES):
            continue
        out.append(f"{ko[i]} {' '.join(ko[i + 1:k + 1])}")
    return out


#: Korean numerals that count before a counter (native and Sino-Korean)
_NUMBER_WORDS = frozenset(
    "한 두 세 네 다섯 여섯 일곱 여덟 아홉 열 스무 스물 서른 마흔 쉰 예순 일흔 여든 아흔 백".split()
    + [t + u for t in "열 스물 서른 마흔 쉰 예순 일흔 여든 아흔".split()
       for u in "한 두 세 네 다섯 여섯 일곱 여덟 아홉".split()])

#: stative verbs (a lasting attitude, not a deed): their relative is -는 even in the past
#: (기억하는 어부, 좋아하지 않는 독수리), not the completed -ㄴ/-은
_STATIVE_PAST_RELATIVES = frozenset(
    "기억한 좋아한 싫어한 사랑한 존경한 미워한 그리워한 부러워한 무서워한 두려워한 원한 믿은 "
    "모른 아낀 좋아했던".split()) - {"좋아했던"}
_STATIVE_STEMS = ("기억하", "좋아하", "싫어하", "사랑하", "존경하", "미워하", "그리워하", "부러워하",
                  "무서워하", "두려워하", "원하", "믿", "모르", "아끼")


def _stative_past_relative(p: _Pair) -> list[str]:
    """A past relative (-ㄴ/-은) of a stative verb: 기억한 어부, 좋아하지 않은 독수리 (natural:
    기억하는, 좋아하지 않는)."""
    ko = p.ko
    out = []
    for i, w in enumerate(ko[:-1]):
        if w in _STATIVE_PAST_RELATIVES:
            out.append(f"{w} {ko[i + 1]}")
        elif w.endswith("지") and w[:-1] in _STATIVE_STEMS and ko[i + 1] == "않은" \
                and i + 2 < len(ko):
            out.append(f"{w} {ko[i + 1]} {ko[i + 2]}")
    return out


#: given names by the sex they are usually given to (a small list of common ones)
_MALE_GIVEN = frozenset("""민준 도윤 서준 하준 시우 주원 지호 예준 건우 현우 태민 민규 동현 준서 지훈
    도현 우진 은우 선우 유준 정우 승우 준우 이준 지환 승현 재원 성민 준호 철수 민호 영호 태윤 준혁
    현준 지성 재민 민재 동훈 성훈 태현 상민 대현 진우 영수 동민 민성 상우 경수 수호 재현 도영""".split())
_FEMALE_GIVEN = frozenset("""서아 서연 하은 민서 수아 지아 예린 다은 하윤 서윤 지유 채원 예은 소율
    혜원 유나 서현 민지 은지 하린 아린 나연 다인 시은 윤서 소연 영희 수연 지혜 은서 예서 가은 채은
    나은 다연 수진 미영 혜진 지은 은비 다현 서영 하영 소희 미나 아윤 수지 윤아 보라 지윤
    태희""".split())
_MALE_KO = frozenset("소년 남자 할아버지 아버지 형 오빠 왕 왕자 삼촌 외삼촌 아들 남편 신랑 "
                     "남동생 아저씨".split())
_FEMALE_KO = frozenset("소녀 여자 할머니 어머니 누나 언니 여왕 공주 이모 고모 딸 아내 신부 "
                       "여동생 아주머니 아줌마".split())
_KIN_OF_MALE = ("형", "누나", "아내")  # said by a brother; a man's wife
_KIN_OF_FEMALE = ("오빠", "언니", "남편")  # said by a sister; a woman's husband
_SURNAMES_2 = ("남궁", "선우", "제갈", "황보", "독고", "사공")


def _sex_of(p: _Pair, i: int, noun: str) -> str | None:
    """"m" / "f" for the possessor ``noun`` (the Korean word ``i``): a person noun of this
    module's lists, a given name of its lists, or the English his / her it is aligned to."""
    if noun in _MALE_KO:
        return "m"
    if noun in _FEMALE_KO:
        return "f"
    for j in p.en_of.get(i, ()):
        if p.en[j] in ("his", "he"):
            return "m"
        if p.en[j] in ("her", "she"):
            return "f"
    given = noun[2:] if noun.startswith(_SURNAMES_2) and len(noun) > 3 else noun[1:]
    if len(noun) in (3, 4) and given in _MALE_GIVEN:
        return "m"
    if len(noun) in (3, 4) and given in _FEMALE_GIVEN:
        return "f"
    return None


def _kin_gender(p: _Pair) -> list[str]:
    """An older sibling named from the wrong side: 형/누나 are said by a brother, 오빠/언니 by a
    sister (황서아의 형: 오빠; 고서아의 누나: 언니; 김민준의 언니: 누나); a spouse of the
    wrong sex (조민지의 아내, 손상우의 남편)."""
    ko = p.ko
    out = []
    for i, w in enumerate(ko[:-1]):
        if not w.endswith("의") or len(w) < 2:
            continue
        h = i + 1
        while h < len(ko) - 1 and ko[h] in ATTRIBUTIVE:
            h += 1
        kin = _strip(ko[h], _NOUN_PARTICLES + ("에게", "한테", "께", "께서")) or ko[h]
        kin = kin[:-1] if kin.endswith("님") else kin
        sex = _sex_of(p, i, w[:-1])
        if (sex == "f" and kin in _KIN_OF_MALE) or (sex == "m" and kin in _KIN_OF_FEMALE):
            out.append(f"{w} {ko[h]}")
    return out


def _arrive_ro(p: _Pair) -> list[str]:
    """도착하다 with a place in (으)로: 어디로 도착합니까, 공항으로 도착했다 (도착하다 takes 에:
    어디에, 공항에); a means in (으)로 (비행기로 도착했다) is fine."""
    ko = p.ko
    out = []
    for i, w in enumerate(ko):
        noun = w[:-2] if w.endswith("으로") else w[:-1] if w.endswith("로") else None
        if not noun or not (noun == "어디" or noun in _KO_PLACES):
            continue
        for k in range(i + 1, min(len(ko), i + 4)):
            if ko[k].startswith("도착"):
                out.append(f"{w} {ko[k]}")
                break
            if _strip(ko[k], ("을", "를", "이", "가")) is not None or ko[k].endswith(("고", "서")):
                break
    return out


def _seyo_statement(p: _Pair, raw_ko: str) -> list[str]:
    """A statement ending in -세요 (외삼촌이 금붕어에게 소리치세요.): the form reads first as an
    order; a statement of an honoured subject says -십니다 or -셔요 (a question in -세요? is
    fine)."""
    ko = p.ko
    if not ko or raw_ko.rstrip().endswith("?") or not ko[-1].endswith("세요"):
        return []
    if p.en and (p.en[0] == "please" or any(w in _BE for w in p.en) or any(
            a in _GET and b in _STATE_ADJECTIVES for a, b in zip(p.en, p.en[1:]))):
        return []  # "the guest is lazy", "gets tired": an adjective (게으르세요) is no order
    if any(w in ("not", "cannot", "no", "never") or w.endswith("n't") for w in p.en) or \
            ko[-1].startswith(("모르", "없", "있", "계", "아세")):
        return []  # a negation (못하세요: an order says -지 마세요) or a state is no order
    return [ko[-1]]


# ---- English


_EN_WH = frozenset("who whom what where when why which".split())
_EN_AUX = frozenset("is are was were do does did will would can could have has had".split())
_EN_CLAUSE_WORDS = frozenset("who that which because when if while and but after before "
                             "whom".split())
_FIRST_MENTION_VERBS = frozenset("ate eat eats eating bought buy buys buying picked pick picks "
                                 "picking".split())
_EN_DETERMINER_CUES = frozenset("this that these those my your his her its our their".split())


def _first_mention_the(p: _Pair, raw_en: str) -> list[str]:
    """"ate / bought / picked the N" in a one-clause sentence whose Korean gives no reason for
    "the" (no 이/그/저, no possessor, no topic on the noun): a first mention takes "a" (ate a
    tomato)."""
    en = p.en
    if raw_en.rstrip().endswith("?") or any(w in _EN_CLAUSE_WORDS for w in en) \
            or any(w.endswith(",") for w in p.en_raw[:-1]):
        return []
    if {"not", "no", "never"} & set(en):
        return []  # "could not eat the orange": a negated deed presupposes its object
    for k, w in enumerate(en[:-2]):
        if w not in _FIRST_MENTION_VERBS:
            continue
        t = k + 1 + (en[k + 1] == "up")
        if t >= len(en) - 1 or en[t] != "the":
            continue
        h = t + 1
        while h < len(en) - 1 and en[h] in _EN_ADJECTIVES:
            h += 1
        noun = en[h]
        if noun.endswith("s") and not noun.endswith("ss") or noun in _MASS:
            continue  # plural, or a mass noun: the habitual rules read those
        if h + 1 < len(en) and en[h + 1] == "of":
            continue
        if any(x.endswith("'s") for x in en[t + 1:h + 3]):
            continue  # "the police officer's meat": the possessor's article
        ks = p.ko_of.get(h, []) if p.links is not None else list(range(len(p.ko)))
        cue = False
        for i in ks:
            start = i
            while start > 0 and (p.ko[start - 1] in ATTRIBUTIVE or p.ko[start - 1] in _DETERMINERS
                                 or p.ko[start - 1].endswith("의")):
                start -= 1
                if p.ko[start] in ("이", "그", "저") or p.ko[start].endswith("의"):
                    cue = True
            if p.links is not None and _strip(p.ko[i], ("은", "는")) is not None:
                cue = True
        if p.links is None:
            cue = cue or any(x in ("이", "그", "저") or x.endswith("의") for x in p.ko)
        if not cue:
            out = " ".join(en[k:h + 1])
            return [out]
    return []


def _wh_numeral_subject(p: _Pair) -> list[str]:
    """A numeral subject without "the" in an English wh-question: "Who are 90 rappers angry
    at?", "What are two secretaries feeding?" (the 90 rappers, the two secretaries)."""
    en = p.en
    if len(en) > 3 and en[0] in _EN_WH and en[1] in _EN_AUX and (
            en[2] in _EN_NUMBERS or en[2].isdigit()) and en[3] not in ("o'clock",):
        return [" ".join(en[:4])]
    return []


_EN_HABIT = re.compile(r"\b(every|always|usually|often|sometimes|never|rarely|daily|weekly|"
                       r"mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|"
                       r"weekends?|at night|o'clock|in the (morning|evening|afternoon)s?)\b")
_EN_STATIVE = frozenset("like likes love loves know knows want wants need needs have has hate "
                        "hates live lives remember remembers believe believes own owns "
                        "understand understands prefer prefers miss misses".split())
_EN_NOT_SIMPLE = frozenset("is are am was were will would can could did do does not be been "
                           "has had have no nobody nothing none cannot can't don't doesn't "
                           "didn't won't".split())


def _one_off_present(p: _Pair, raw_en: str) -> list[str]:
    """An English simple present for a one-off event in a one-clause statement with no habit
    adverb, of a subject just introduced: "A pig cries.", "Four otters swim." (is squealing,
    are swimming); Korean names the event in the plain present (울어요), English a habit. A
    known subject's simple present ("Kim Jiwoo drinks coffee") states a habit and passes."""
    en = p.en
    if not en or not raw_en.rstrip().endswith(".") or not p.ko:
        return []
    if any(w in _EN_CLAUSE_WORDS or w in _EN_NOT_SIMPLE or w in _EN_STATIVE for w in en) or \
            any(w.endswith(",") for w in p.en_raw[:-1]) or _EN_HABIT.search(" ".join(en)):
        return []
    if any(w.endswith("ing") and len(w) > 4 for w in en):
        return []
    if en[0] not in ("a", "an", "one") and en[0] not in _EN_NUMBERS and not en[0].isdigit():
        return []  # a known subject's simple present states a habit: "Jiwoo drinks coffee"
    last = p.ko[-1]
    if _ko_past(last) or _ko_future(last) or last.startswith("있") or last.endswith(
            ("것이다", "것입니다", "거예요", "거야", "겠다", "겠어요", "겠습니다", "래요", "지요",
             "군요", "네요")):
        return []
    if any(w in ("매일", "자주", "가끔", "항상", "보통", "늘", "언제나", "주말마다") or
           w.endswith("마다") for w in p.ko):
        return []
    if last.endswith(("이다", "입니다", "이에요", "예요")):  # a noun predicate
        return []
    # the English verb: the first word ending in s after the subject noun phrase, or a base
    verbs = [w for w in en[1:] if w.endswith("s") and not w.endswith("ss") and w not in
             _EN_NUMBERS and w not in ("his", "its", "as", "us", "this", "is", "was")]
    if not verbs:
        return []
    return [" ".join(en[:min(len(en), 5)])]


_EN_FREQUENCY = frozenset("suddenly sometimes often always usually never rarely".split())
_EN_AFTER_ADVERB_OK = _EN_AUX | _BE | frozenset({"not", "and", "but", "will", "also"})
_EN_FOLLOWERS = frozenset("in at on to with if when because and but while after before near "
                          "into from for".split())


def _adverb_after_verb(p: _Pair) -> list[str]:
    """A frequency or sudden-change adverb after the verb (or its object) and before what
    follows: "dance suddenly", "will yawn sometimes if he is tired" (suddenly dance, will
    sometimes yawn). A frequency adverb that ends the sentence ("ordered noodles often") is
    English too and passes."""
    en, raw = p.en, p.en_raw
    out = []
    for k, w in enumerate(en):
        if w not in _EN_FREQUENCY or k == 0 or raw[k - 1].endswith(","):
            continue
        if en[k - 1] in _EN_AFTER_ADVERB_OK or en[k - 1] in _EN_WH:
            continue
        last = k == len(en) - 1 or raw[k].endswith((".", "?", "!"))
        if "not" in en[:k] and not any(x.endswith(",") for x in raw[en[:k].index("not"):k]) \
                or en[0] == "no":
            continue  # "does not get up often, but ...", "did not fall down suddenly": English
        if (w == "suddenly" and last) or (not last and (raw[k].endswith(",") or
                                                        en[k + 1] in _EN_FOLLOWERS)):
            out.append(f"{en[k - 1]} {w}")
    return out


def check_pair(ko: str, en: str, align: Any = None) -> list[tuple[str, str]]:
    """The findings of one pair as ``(rule, detail)``; ``align`` is a Pharaoh string
    ("0-0 1-2"), a sequence of ``(i, j)`` links, or None (then dangling_adverbial is skipped).

    >>> check_pair("한 여자는 잔다.", "A woman is sleeping.")
    [('indefinite_topic', '한 여자는'), ('counterless_han', '한 여자는')]
    """
    p = _Pair.read(ko, en, align)
    stop = p.boundaries() if p.links is not None else set()
    stop.discard(len(p.ko) - 1)
    found: list[tuple[str, str]] = []
    do_positive, do_reading = _eotteon_do(p, stop)
    for rule, details in (
        ("antonym_adjectives", _antonyms(p, stop)),
        ("stacked_adjectives", _stacked(p, stop)),
        ("indefinite_topic", _indefinite_topic(p)),
        ("posture_progressive", _posture(p)),
        ("curious_trait", _curious(p)),
        ("same_noun_object", _same_noun(p, stop)),
        ("implausible_adjective", _implausible(p)),
        ("modifier_garden_path", _garden_path(p, stop)),
        ("lasting_with_time", _lasting_with_time(p)),
        ("dangling_adverbial", _dangling(p, stop | {len(p.ko) - 1})),
        ("article_han", _article_han(p)),
        ("eotteon_question", _eotteon_question(p)),
        ("eotteon_do_positive", do_positive),
        ("eotteon_do_reading", do_reading),
        ("unrelated_connective", _unrelated(p)),
        ("lasting_at_moment", _lasting_at_moment(p)),
        ("clause_before_relative", _clause_before_relative(p)),
        ("future_adjective_go", _future_adjective_go(p)),
        ("relative_tense_in_past", _relative_tense_in_past(p)),
        ("generic_the", _generic_the(p)),
        ("missing_object", _missing_object(p)),
        ("kinship_possessor", _kinship(p)),
        ("small_number_digits", _small_digits(p)),
        ("light_verb_spacing", _light_verb_spacing(p)),
        ("honorific_counter", _honorific_counter(p)),
        ("location_particle", _location_particle(p, stop)),
        ("wrong_gloss", _wrong_gloss(p)),
        ("wrong_pairing", _wrong_pairing(p, stop)),
        ("age_topic", _age_topic(p)),
        ("missing_honorific", _missing_honorific(p, stop)),
        ("adjective_count", _adjective_count(p, stop)),
        ("numeral_style", _numerals(p)),
        ("size_on_person", _size_on_person(p)),
        ("wrong_counter", _wrong_counter(p)),
        ("hiking_place", _hiking_place(p, stop)),
        ("because_tense", _because_tense(p)),
        ("coordinate_adjectives", _coordinate_adjectives(p)),
        ("fronted_adverbials", _fronted_adverbials(p)),
        ("habitual_the", _habitual_the(p)),
        ("first_do", _first_do(p)),
        ("progressive_pair", _progressive_pair(p)),
        ("negated_own_relative", _negated_own_relative(p)),
        ("effect_before_cause", _effect_before_cause(p)),
        ("counterless_han", _counterless_han(p)),
        ("double_subject", _double_subject(p)),
        ("stative_past_relative", _stative_past_relative(p)),
        ("kin_gender", _kin_gender(p)),
        ("arrive_ro", _arrive_ro(p)),
        ("seyo_statement", _seyo_statement(p, ko)),
        ("first_mention_the", _first_mention_the(p, en)),
        ("wh_numeral_subject", _wh_numeral_subject(p)),
        ("one_off_present", _one_off_present(p, en)),
        ("adverb_after_verb", _adverb_after_verb(p)),
    ):
        found.extend((rule, d) for d in details)
    return found


@dataclass
class NaturalnessReport:
    """Per-rule counts of flagged pairs (a pair counts once per rule), pairs with any finding,
    and up to ``max_examples`` examples per rule as ``(ko, en, detail)``."""

    pairs: int
    unnatural: int
    counts: dict[str, int]
    examples: dict[str, list[tuple[str, str, str]]]
    aligned: bool

    @property
    def rate(self) -> float:
        """Share of pairs with at least one finding."""
        return self.unnatural / self.pairs if self.pairs else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"pairs": self.pairs, "unnatural": self.unnatural, "rate": self.rate,
                "aligned": self.aligned, "counts": dict(self.counts),
                "rates": {k: (v / self.pairs if self.pairs else 0.0)
                          for k, v in self.counts.items()},
                "examples": {k: [list(e) for e in v] for k, v in self.examples.items()}}


def _fields(pair: Any) -> tuple[str, str, Any]:
    if isinstance(pair, (tuple, list)):
        if len(pair) == 2:
            return pair[0], pair[1], None
        if len(pair) == 3:
            return pair[0], pair[1], pair[2]
        raise DataError(f"a pair is (ko, en) or (ko, en, align), got {len(pair)} fields")
    try:
        return pair.ko, pair.en, getattr(pair, "align", None)
    except AttributeError:
        raise DataError(f"cannot read a pair from {type(pair).__name__} (needs .ko and .en, "
                        f"or a (ko, en[, align]) tuple)") from None


def check_pairs(pairs: Iterable[Any], max_examples: int = 5) -> NaturalnessReport:
    """Check every pair (objects with ``.ko``, ``.en`` and optionally ``.align``, or tuples
    ``(ko, en[, align])``) and count, per rule, the pairs it flags."""
    counts = {rule: 0 for rule in RULES}
    examples: dict[str, list[tuple[str, str, str]]] = {rule: [] for rule in RULES}
    n = unnatural = 0
    aligned = True
    for pair in pairs:
        ko, en, align = _fields(pair)
        aligned = aligned and align is not None
        n += 1
        found = check_pair(ko, en, align)
        if not found:
            continue
        unnatural += 1
        for rule in dict.fromkeys(r for r, _ in found):
            counts[rule] += 1
            if len(examples[rule]) < max_examples:
                detail = "; ".join(d for r, d in found if r == rule)
                examples[rule].append((ko, en, detail))
    return NaturalnessReport(n, unnatural, counts, examples, aligned and n > 0)


__all__ = ["ATTRIBUTIVE", "BLIND_SPOTS", "JOINED", "NaturalnessReport", "RULES", "SCALE_OF",
           "check_pair", "check_pairs"]
