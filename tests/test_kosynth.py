"""Unit tests of the kosynth morphology: Hangul, Korean conjugation, English inflection,
noun phrases and the alignment of single constructions."""

import random
import re

import pytest

from companion.data.kosynth import english as E
from companion.data.kosynth import hangul as H
from companion.data.kosynth import korean as KO
from companion.data.kosynth.grammar import (Clause, Coord, SentenceBuilder, Sub, finish,
                                            native_numeral)
from companion.data.kosynth.lexicon import (ADJECTIVES, NOUN_BY_KO, NOUNS, VERBS,
                                            lemma_count)

# ---------------------------------------------------------------- Hangul and particles


def test_compose_decompose_roundtrip():
    assert H.decompose("봐") == ("ㅂ", "ㅘ", "")
    assert H.compose("ㅂ", "ㅘ") == "봐"
    assert H.decompose("먹") == ("ㅁ", "ㅓ", "ㄱ")
    assert H.with_tail("가", "ㄹ") == "갈"
    with pytest.raises(ValueError, match="not a Hangul syllable"):
        H.decompose("a")


def test_batchim_and_digits():
    assert not H.has_batchim("사과")
    assert H.has_batchim("책")
    assert H.final_consonant("연필") == "ㄹ"
    assert H.has_batchim("3")  # 삼
    assert not H.has_batchim("2")  # 이


@pytest.mark.parametrize("word,kind,expected", [
    ("사과", "을/를", "를"), ("책", "을/를", "을"),
    ("사과", "이/가", "가"), ("책", "이/가", "이"),
    ("소년", "은/는", "은"), ("소녀", "은/는", "는"),
    ("사과", "와/과", "와"), ("책", "와/과", "과"),
    ("버스", "(으)로", "로"), ("연필", "(으)로", "로"), ("칼", "(으)로", "로"),
    ("숟가락", "(으)로", "으로"), ("3", "을/를", "을"),
    ("학교", "에", "에"), ("공원", "에서", "에서"), ("소년", "에게", "에게"),
    ("소년", "의", "의"), ("사과", "도", "도"), ("물", "만", "만"),
])
def test_particles(word, kind, expected):
    assert H.particle(word, kind) == expected


def test_unknown_particle():
    with pytest.raises(ValueError, match="unknown particle"):
        H.particle("사과", "을/가")


# ---------------------------------------------------------------- Korean predicates

PLAIN = [("먹다", "먹는다"), ("마시다", "마신다"), ("만들다", "만든다"), ("살다", "산다"),
         ("돕다", "돕는다"), ("듣다", "듣는다")]
POLITE = [("먹다", "먹어요"), ("마시다", "마셔요"), ("만들다", "만들어요"), ("보다", "봐요"),
          ("주다", "줘요"), ("하다", "해요"), ("가다", "가요"), ("서다", "서요"), ("쓰다", "써요"),
          ("돕다", "도와요"), ("듣다", "들어요"), ("걷다", "걸어요"), ("모르다", "몰라요"),
          ("부르다", "불러요"), ("짓다", "지어요"), ("공부하다", "공부해요"), ("되다", "돼요"),
          ("오다", "와요"), ("쉬다", "쉬어요")]
FORMAL = [("먹다", "먹습니다"), ("마시다", "마십니다"), ("만들다", "만듭니다"),
          ("돕다", "돕습니다"), ("살다", "삽니다")]


@pytest.mark.parametrize("verb,form", PLAIN)
def test_plain_present(verb, form):
    assert KO.conjugate(verb, "plain", "present") == form


@pytest.mark.parametrize("verb,form", POLITE)
def test_polite_present(verb, form):
    assert KO.conjugate(verb, "polite", "present") == form


@pytest.mark.parametrize("verb,form", FORMAL)
def test_formal_present(verb, form):
    assert KO.conjugate(verb, "formal", "present") == form


def test_adjectives_plain_is_dictionary_form():
    assert KO.conjugate("덥다", "plain", "present", adj=True) == "덥다"
    assert KO.conjugate("덥다", "polite", "present", adj=True) == "더워요"
    assert KO.conjugate("크다", "formal", "present", adj=True) == "큽니다"
    assert KO.conjugate("바쁘다", "polite", "past", adj=True) == "바빴어요"
    assert KO.conjugate("빨갛다", "polite", "present", adj=True) == "빨개요"


def test_tenses_and_questions():
    assert KO.conjugate("먹다", "plain", "past") == "먹었다"
    assert KO.conjugate("보다", "polite", "past") == "봤어요"
    assert KO.conjugate("마시다", "formal", "past") == "마셨습니다"
    assert KO.conjugate("먹다", "plain", "future") == "먹을 것이다"
    assert KO.conjugate("가다", "polite", "future") == "갈 거예요"
    assert KO.conjugate("만들다", "formal", "future") == "만들 것입니다"
    assert KO.conjugate("먹다", "plain", "progressive") == "먹고 있다"
    assert KO.conjugate("먹다", "formal", "progressive") == "먹고 있습니다"
    assert KO.conjugate("먹다", "plain", "present", question=True) == "먹니"
    assert KO.conjugate("만들다", "plain", "present", question=True) == "만드니"
    assert KO.conjugate("먹다", "formal", "present", question=True) == "먹습니까"
    assert KO.conjugate("가다", "formal", "future", question=True) == "갈 것입니까"
    assert KO.conjugate("먹다", "plain", "past", question=True) == "먹었니"


def test_negation_short_and_long():
    assert KO.conjugate("먹다", "plain", "present", negation="short") == "안 먹는다"
    assert KO.conjugate("먹다", "plain", "past", negation="long") == "먹지 않았다"
    assert KO.conjugate("먹다", "polite", "present", negation="long") == "먹지 않아요"
    assert KO.conjugate("크다", "plain", "present", negation="long", adj=True) == "크지 않다"
    # short negation never splits a 하다-compound: falls back to the long form
    assert KO.conjugate("공부하다", "plain", "present", negation="short") == "공부하지 않는다"
    roles = [r for _, r in KO.verb_group("먹다", "plain", "past", negation="long")]
    assert roles == ["V", "NEG"]


@pytest.mark.parametrize("level,tense,question,form", [
    ("plain", "present", False, "모른다"), ("plain", "present", True, "모르니"),
    ("plain", "past", False, "몰랐다"), ("polite", "present", False, "몰라요"),
    ("polite", "past", False, "몰랐어요"), ("polite", "future", False, "모를 거예요"),
    ("formal", "present", False, "모릅니다"), ("formal", "past", True, "몰랐습니까"),
    ("formal", "future", False, "모를 것입니다"), ("plain", "future", True, "모를 거니"),
])
def test_negated_know_is_moreuda(level, tense, question, form):
    """알다 negates as 모르다 in every tense and speech level, short or long negation."""
    for negation in ("long", "short"):
        assert KO.conjugate("알다", level, tense, question=question,
                            negation=negation) == form
    group = KO.verb_group("알다", level, tense, question=question, negation="long")
    assert group[0][1] == "V+NEG" and all(r != "NEG" for _, r in group)


def test_negated_iss_is_eobs():
    """있다 and its compounds (맛있다, 재미있다) negate as 없다, never 있지 않다."""
    assert KO.negative_of("있다") == "없다" and KO.negative_of("맛있다") == "맛없다"
    assert KO.negative_of("알다") == "모르다" and KO.negative_of("먹다") is None
    assert KO.conjugate("있다", "plain", "present", negation="long", adj=True) == "없다"
    assert KO.conjugate("맛있다", "plain", "present", negation="long", adj=True) == "맛없다"
    assert KO.conjugate("맛있다", "polite", "past", negation="long", adj=True) == "맛없었어요"
    assert KO.conjugate("재미있다", "formal", "future", negation="long",
                        adj=True) == "재미없을 것입니다"
    assert KO.conjugate("있다", "formal", "present", question=True,
                        negation="long", adj=True) == "없습니까"


def test_suppletive_negation_in_relative_clauses_and_connectives():
    assert KO.adnominal_group("알다", "present", negation=True) == (("모르는", "V+NEG"),)
    assert KO.adnominal_group("알다", "past", negation=True) == (("몰랐던", "V+NEG"),)
    assert KO.adnominal_group("알다", "future", negation=True) == (("모를", "V+NEG"),)
    assert KO.adnominal_group("있다", "present", negation=True) == (("없는", "V+NEG"),)
    assert KO.adnominal_group("알다", "past") == (("알았던", "V"),)  # not 안 (= "not")
    assert KO.adnominal_group("먹다", "present", negation=True) == (
        ("먹지", "V"), ("않는", "NEG"))
    assert [KO.connective("모르다", k) for k in KO.CONNECTIVES] == [
        "모르고", "모르지만", "몰라서", "모를 때", "모르면"]


def test_irregular_adnominals():
    assert KO.adnominal("덥다", adj=True) == "더운"
    assert KO.adnominal("크다", adj=True) == "큰"
    assert KO.adnominal("작다", adj=True) == "작은"
    assert KO.adnominal("길다", adj=True) == "긴"
    assert KO.adnominal("맛있다", adj=True) == "맛있는"
    assert KO.adnominal("빨갛다", adj=True) == "빨간"
    assert KO.adnominal("얇다", adj=True) == "얇은"
    assert KO.adnominal("만들다") == "만드는"
    assert KO.adnominal("만들다", "past") == "만든"
    assert KO.adnominal("살다") == "사는"
    assert KO.adnominal("먹다") == "먹는"
    assert KO.adnominal("먹다", "past") == "먹은"
    assert KO.adnominal("먹다", "future") == "먹을"
    assert KO.adnominal("돕다", "past") == "도운"
    assert KO.adnominal("듣다", "future") == "들을"
    assert KO.adnominal("짓다", "past") == "지은"
    with pytest.raises(ValueError, match="present adnominal"):
        KO.adnominal("크다", "past", adj=True)


def test_connectives():
    assert KO.connective("먹다", "and") == "먹고"
    assert KO.connective("먹다", "and", "past") == "먹었고"
    assert KO.connective("먹다", "but") == "먹지만"
    assert KO.connective("덥다", "because", adj=True) == "더워서"
    assert KO.connective("먹다", "because") == "먹어서"
    assert KO.connective("가다", "when") == "갈 때"
    assert KO.connective("먹다", "when", "past") == "먹었을 때"
    assert KO.connective("먹다", "if") == "먹으면"
    assert KO.connective("만들다", "if") == "만들면"
    assert KO.connective("듣다", "if") == "들으면"


def test_copula():
    assert KO.copula("살", "plain", "present") == "살이다"
    assert KO.copula("의사", "polite", "present") == "의사예요"
    assert KO.copula("살", "polite", "present") == "살이에요"
    assert KO.copula("학생", "formal", "present") == "학생입니다"
    assert KO.copula("의사", "plain", "past") == "의사였다"


def test_bad_inputs():
    with pytest.raises(ValueError, match="dictionary form"):
        KO.stem("먹")
    with pytest.raises(ValueError, match="speech level"):
        KO.conjugate("먹다", "casual", "present")
    with pytest.raises(ValueError, match="tense"):
        KO.conjugate("먹다", "plain", "pluperfect")


def test_native_numerals():
    assert [native_numeral(n) for n in (1, 2, 3, 4, 20, 21, 35)] == \
        ["한", "두", "세", "네", "스무", "스물한", "서른다섯"]
    with pytest.raises(ValueError):
        native_numeral(100)


# ---------------------------------------------------------------- English


def test_articles():
    assert E.indefinite_article("apple") == "an"
    assert E.indefinite_article("hour") == "an"
    assert E.indefinite_article("honest") == "an"
    assert E.indefinite_article("university") == "a"
    assert E.indefinite_article("uniform") == "a"
    assert E.indefinite_article("umbrella") == "an"
    assert E.indefinite_article("boy") == "a"
    assert E.with_article("old man") == "an old man"


def test_plurals():
    assert E.plural("child") == "children"
    assert E.plural("mouse") == "mice"
    assert E.plural("person") == "people"
    assert E.plural("watch") == "watches"
    assert E.plural("study") == "studies"
    assert E.plural("day") == "days"
    assert E.plural("knife") == "knives"
    assert E.plural("old man") == "old men"


def test_third_person_past_ing():
    assert [E.third_person(v) for v in ("watch", "study", "go", "play", "have")] == \
        ["watches", "studies", "goes", "plays", "has"]
    assert E.third_person("look for") == "looks for"
    assert [E.past(v) for v in ("eat", "go", "study", "stop", "play", "like", "buy")] == \
        ["ate", "went", "studied", "stopped", "played", "liked", "bought"]
    assert [E.present_participle(v) for v in ("eat", "make", "run", "lie", "see")] == \
        ["eating", "making", "running", "lying", "seeing"]
    assert E.number_word(21) == "twenty-one"


def test_do_support_will_and_progressive():
    def words(*a, **k):
        before, after = E.verb_phrase(*a, **k)
        return " ".join(w for w, _ in before + after)

    assert words("eat", "past", negated=True) == "did not eat"
    assert words("eat", "present", negated=True) == "does not eat"
    assert words("eat", "present", negated=True, plural_subject=True) == "do not eat"
    assert words("eat", "present") == "eats"
    assert words("eat", "present", plural_subject=True) == "eat"
    assert words("eat", "future") == "will eat"
    assert words("eat", "progressive", plural_subject=True) == "are eating"
    assert words("hot", "past", adjective=True, plural_subject=True) == "were hot"
    assert words("hot", "future", adjective=True, negated=True) == "will not be hot"
    before, after = E.verb_phrase("eat", "past", question=True)
    assert [w for w, _ in before] == ["did"] and [w for w, _ in after] == ["eat"]


# ---------------------------------------------------------------- lexicon


def test_lexicon_size_and_uniqueness():
    assert lemma_count() >= 1500
    kos = [n.ko for ns in NOUNS.values() for n in ns]
    assert len(kos) == len(set(kos)), "a Korean noun must have one English translation"


def test_irregular_stems_are_marked():
    """Every ㅂ-final adjective in the lexicon is explicitly regular or irregular."""
    regular_b = {"좁다", "얇다", "수줍다"}
    for a in ADJECTIVES:
        last = KO.stem(a.ko)[-1]
        if H.decompose(last)[2] == "ㅂ" and a.ko not in regular_b:
            assert KO.irregular_class(a.ko) in ("ㅂ", "ㅂ와"), a.ko


def test_verbs_have_objects_matching_frame():
    for v in VERBS:
        if v.frame in ("T", "D", "R"):
            assert v.objects, v
        else:
            assert not v.objects, v


# ---------------------------------------------------------------- alignment of one clause


def _clause_pair(clause, level="plain", question=False):
    b = SentenceBuilder(random.Random(0))
    ko, en, _ = b.render(clause, ("final", level, question))
    return finish(ko, en, question)


def _np(b, ko):
    return b.noun_np((), 2, 0.0, allow_count=False, allow_rel=False, noun=NOUN_BY_KO[ko])


def test_alignment_of_negated_past():
    b = SentenceBuilder(random.Random(3))
    eat = next(v for v in VERBS if v.ko == "먹다")
    boy, apple = _np(b, "소년"), _np(b, "사과")
    boy.en, apple.en = [["the", boy.ko[0]], ["boy", boy.ko[0]]], \
        [["the", apple.ko[0]], ["apple", apple.ko[0]]]
    boy.ko[0].text, apple.ko[0].text = "소년", "사과"
    cl = Clause(boy, eat, "past", neg="long", obj=apple)
    ko, en, align = _clause_pair(cl)
    assert " ".join(ko) == "소년이 사과를 먹지 않았다."
    assert " ".join(en) == "The boy did not eat the apple."
    links = set(align)
    assert {(1, 5), (1, 6)} <= links  # 사과를 <-> the apple
    assert {(2, 4), (3, 2), (3, 3)} <= links  # 먹지 않았다 <-> did not eat


def _know_clause(b, tense, neg, form):
    know = next(v for v in VERBS if v.ko == "알다")
    boy, girl = _the(b, "소년", "boy"), _the(b, "소녀", "girl")
    return Clause(boy, know, tense, neg=neg, obj=girl), form


def test_alignment_of_negated_know():
    """모르다 carries the negation: "did not know" all align to 몰랐다."""
    b = SentenceBuilder(random.Random(0))
    cl, _ = _know_clause(b, "past", "long", None)
    ko, en, align = _clause_pair(cl)
    assert " ".join(ko) == "소년이 소녀를 몰랐다."
    assert " ".join(en) == "The boy did not know the girl."
    assert {(2, 2), (2, 3), (2, 4)} <= set(align)
    b = SentenceBuilder(random.Random(0))
    cl, _ = _know_clause(b, "present", "short", None)
    ko, en, _ = _clause_pair(cl, level="polite")
    assert " ".join(ko) == "소년이 소녀를 몰라요."
    assert " ".join(en) == "The boy does not know the girl."
    b = SentenceBuilder(random.Random(0))
    hot = next(a for a in ADJECTIVES if a.ko == "덥다")
    know, _ = _know_clause(b, "past", "long", None)
    sub = Sub("because", know, Clause(_the(b, "방", "room"), hot, "past"))
    ko, en, align = _clause_pair(sub)
    assert " ".join(ko) == "소년이 소녀를 몰라서 방이 더웠다."
    assert " ".join(en) == "The room was hot because the boy did not know the girl."


def test_subordination_and_coordination_render():
    b = SentenceBuilder(random.Random(5))
    hot = next(a for a in ADJECTIVES if a.ko == "덥다")
    drink = next(v for v in VERBS if v.ko == "마시다")
    room, girl, water = _np(b, "방"), _np(b, "소녀"), _np(b, "물")
    sub = Sub("because", Clause(room, hot, "past"), Clause(girl, drink, "past", obj=water))
    ko, en, _ = _clause_pair(sub, level="polite")
    assert " ".join(ko) == "방이 더워서 소녀가 물을 마셨어요."
    assert " ".join(en) == "The girl drank the water because the room was hot."
    b2 = SentenceBuilder(random.Random(5))
    room2, girl2, water2 = _np(b2, "방"), _np(b2, "소녀"), _np(b2, "물")
    co = Coord("but", Clause(room2, hot, "present"),
               Clause(girl2, drink, "present", neg="short", obj=water2))
    ko, en, _ = _clause_pair(co, level="formal")
    assert " ".join(ko) == "방이 덥지만 소녀가 물을 안 마십니다."
    assert " ".join(en) == "The room is hot, but the girl does not drink the water."


def test_short_negation_only_where_natural():
    assert KO.short_negation_ok("먹다")
    assert KO.short_negation_ok("하다")  # 축구를 안 한다
    assert not KO.short_negation_ok("공부하다")
    assert not KO.short_negation_ok("산책시키다")
    assert not KO.short_negation_ok("춤추다")


def test_english_adjective_order():
    adjs = sorted(["red", "big", "pretty", "old", "clean"], key=E.adjective_rank)
    assert adjs == ["pretty", "big", "clean", "old", "red"]


def test_double_object_reference():
    from companion.data.kosynth.grammar import double_object_refs
    b = SentenceBuilder(random.Random(1))
    give = next(v for v in VERBS if v.ko == "주다")
    boy, girl, book = _np(b, "소년"), _np(b, "소녀"), _np(b, "책")
    boy.en = [["the", boy.ko[0]], ["boy", boy.ko[0]]]
    girl.en = [["the", girl.ko[0]], ["girl", girl.ko[0]]]
    book.en = [["the", book.ko[0]], ["book", book.ko[0]]]
    boy.ko[0].text, girl.ko[0].text, book.ko[0].text = "소년", "소녀", "책"
    cl = Clause(boy, give, "past", obj=book, rec=girl)
    ko, en, _ = b.render(cl, ("final", "plain", False))
    assert double_object_refs(cl, en, False) == ("The boy gave the girl the book.",)
    assert " ".join(finish(ko, en, False)[1]) == "The boy gave the book to the girl."
    assert " ".join(finish(ko, en, False)[0]).startswith("소년이 소녀에게 책을 줬다")


def test_age_sentences_use_native_numerals_and_sal():
    from companion.data.kosynth.grammar import age_sentence
    b = SentenceBuilder(random.Random(0))
    seen = set()
    for i in range(60):
        s = age_sentence(b, KO.LEVELS[i % 3], "present" if i % 2 else "past")
        ko, en = " ".join(s.ko), " ".join(s.en)
        if en.startswith("How old"):
            assert " 몇 살" in ko and en.endswith("?")
            seen.add("question")
        else:
            assert re.search(r" (is|was) [\w-]+ years? old\.$", en), en
            assert "살" in ko
            digits = re.findall(r"\d+", ko)
            assert digits == re.findall(r"\d+", en)
            seen.add("digits" if digits else "native")
    assert seen == {"question", "digits", "native"}
    assert native_numeral(20) + " " + KO.copula("살", "plain", "present") == "스무 살이다"


def _the(b, ko, en):
    np = _np(b, ko)
    np.ko[0].text = ko
    np.en = [["the", np.ko[0]], [en, np.ko[0]]]
    np.plural = False
    return np


def test_also_only_and_noun_phrase_coordination():
    from companion.data.kosynth.grammar import coordinate_nps
    eat = next(v for v in VERBS if v.ko == "먹다")
    b = SentenceBuilder(random.Random(2))
    subj = coordinate_nps(_the(b, "소년", "boy"), _the(b, "소녀", "girl"))
    obj = coordinate_nps(_the(b, "사과", "apple"), _the(b, "배", "pear"))
    ko, en, _ = _clause_pair(Clause(subj, eat, "present", obj=obj))
    assert " ".join(ko) == "소년과 소녀가 사과와 배를 먹는다."
    assert " ".join(en) == "The boy and the girl eat the apple and the pear."
    b = SentenceBuilder(random.Random(2))
    cl = Clause(_the(b, "소년", "boy"), eat, "future", obj=_the(b, "사과", "apple"))
    cl.also, cl.topic = True, True
    ko, en, _ = _clause_pair(cl, level="polite")
    assert " ".join(ko) == "소년도 사과를 먹을 거예요."
    assert " ".join(en) == "The boy will also eat the apple."
    b = SentenceBuilder(random.Random(2))
    cl = Clause(_the(b, "소년", "boy"), eat, "past", neg="short", obj=_the(b, "사과", "apple"))
    cl.also = True
    assert " ".join(_clause_pair(cl)[1]) == "The boy did not eat the apple either."
    b = SentenceBuilder(random.Random(2))
    cl = Clause(_the(b, "소년", "boy"), eat, "present", obj=_the(b, "사과", "apple"), topic=True)
    cl.only = True
    ko, en, _ = _clause_pair(cl, level="formal")
    assert " ".join(ko) == "소년은 사과만 먹습니다."
    assert " ".join(en) == "The boy eats only the apple."
