"""The lexicon read by a Korean eye: selectional classes (a pig drinks water, not tea; a chick
pecks, it does not bite), glosses, light-verb spacing, counters (분 for honorific nouns), place
particles decided by the verb (에 for a position, 에서 for an action, (으)로 for the place one
moves to), manner adverbs that fit their verb, and the flags the grammar reads (lasting
properties, kinship nouns). Static checks of the tables, then properties of clauses drawn over
many seeds at every level, then of whole generated pairs."""

from __future__ import annotations

import random
import re

import pytest

from companion.data.kosynth import LEVELS, generate_pairs
from companion.data.kosynth.grammar import _TOWARD_ROOMS, SentenceBuilder, lexicon_of
from companion.data.kosynth.lexicon import (ADJECTIVES, ADVERBS, NOUN_BY_KO, NOUNS, VERBS,
                                            adverb_fits, can_subject, habitat, kin_gender,
                                            kin_term, places_for, resolve, vehicle_fits)
from companion.data.kosynth.tables import NOUN_SETS

SEEDS = (0, 1, 2)
HONORIFIC = ("선생님", "할머니", "할아버지", "시장님", "신부님", "스님", "손님")


def _verbs(ko: str, en: str | None = None):
    out = [v for v in VERBS if v.ko == ko and (en is None or v.en == en)]
    assert out, (ko, en)
    return out


def _objects(ko: str, en: str | None = None, animal: bool | None = None) -> set[str]:
    return {n.ko for v in _verbs(ko, en) for n in v.objects
            if animal is None or ("animal" in v.subj) == animal}


# ---------------------------------------------------------------- the tables


def test_animals_drink_water_and_milk_only():
    for v in _verbs("마시다"):
        animals = [n for n in NOUNS["animal"] if can_subject(v, n)]
        if animals:
            assert {n.ko for n in v.objects} <= {"물", "우유"}, v
    assert not any(can_subject(v, NOUN_BY_KO["돼지"]) and NOUN_BY_KO["차"] in v.objects
                   for v in _verbs("마시다"))


def test_no_animal_eats_with_a_spoon_or_a_snail_walks_a_whale_runs():
    for v in _verbs("먹다"):
        if "animal" in v.subj:
            assert not v.instr and "person" not in v.subj
    for ko, animal in (("걷다", "달팽이"), ("달리다", "고래"), ("달리다", "달팽이"),
                       ("앉다", "뱀"), ("기침하다", "개미"), ("서다", "금붕어")):
        assert not any(can_subject(v, NOUN_BY_KO[animal]) for v in _verbs(ko)), (ko, animal)
    assert any(can_subject(v, NOUN_BY_KO["개"]) for v in _verbs("걷다"))


def test_chicks_peck_and_do_not_bite():
    assert not any(can_subject(v, NOUN_BY_KO["병아리"]) for v in _verbs("물다"))
    bird_biters = [n.ko for v in _verbs("물다") for n in NOUNS["animal"]
                   if can_subject(v, n) and n.ko in NOUN_SETS["bird"].split()
                   and n.ko not in ("독수리", "부엉이", "올빼미")]  # raptors do bite
    assert not bird_biters
    assert all(can_subject(v, NOUN_BY_KO["병아리"]) for v in _verbs("쪼다"))


def test_rice_is_cooked_with_jitda_not_yorihada():
    assert "밥" not in _objects("요리하다") and "밥" not in _objects("만들다")
    assert _objects("짓다", "cook") == {"밥"}
    assert "밥" not in _objects("짓다", "build")


def test_busy_is_said_of_people_only():
    busy = next(a for a in ADJECTIVES if a.ko == "바쁘다")
    assert busy.person and all(n.cls == "person" for n in busy.nouns)


def test_taste_and_temperature_fit_the_food():
    adj = {a.ko: {n.ko for n in a.nouns} for a in ADJECTIVES}
    assert "아이스크림" not in adj["뜨겁다"] and "빙수" not in adj["따뜻하다"]
    assert "콜라" not in adj["뜨겁다"] and "커피" in adj["뜨겁다"]
    assert "케이크" not in adj["짜다"] and "레몬" not in adj["달다"]
    assert "바나나" not in adj["둥글다"] and "오이" not in adj["맵다"]
    assert "바다" not in adj["덥다"] and "바다" not in adj["춥다"]
    assert "주차장" not in adj["아름답다"] and "햄스터" not in adj["무섭다"]
    assert "달팽이" not in adj["빠르다"] and "달팽이" in adj["느리다"]


def test_abstract_nouns_are_not_carried_bought_or_given():
    for ko in ("사다", "나르다", "줍다", "버리다", "주다", "잃어버리다", "훔치다"):
        assert not {"이메일", "시", "숙제"} & _objects(ko), ko
    assert "이메일" in _objects("받다") and "이메일" in _objects("보내다")
    # an email is written, but never with a pencil
    assert all(not v.instr for v in _verbs("쓰다", "write") if NOUN_BY_KO["이메일"] in v.objects)


def test_doors_are_not_carried_or_given_and_wear_takes_its_own_verb():
    for ko in ("나르다", "들다", "주다", "가져오다", "밀다"):
        assert not {"문", "창문"} & _objects(ko), ko
    assert "장갑" not in _objects("신다") and "장갑" in _objects("끼다")
    assert "모자" in _objects("쓰다", "wear") and "모자" not in _objects("입다")


def test_no_compound_with_saekki_and_fixed_glosses():
    assert not [n.ko for n in NOUN_BY_KO.values() if "새끼" in n.ko]
    assert NOUN_BY_KO["소방대원"].en == "firefighter"
    twins = NOUN_BY_KO["쌍둥이"]
    assert twins.plural == "twins" and twins.plural_only
    assert NOUN_BY_KO["방울토마토"].en == "cherry tomato" and "앵두" not in NOUN_BY_KO
    assert NOUN_BY_KO["언니"].en == "older sister" and NOUN_BY_KO["오빠"].en == "older brother"


def test_light_verbs_are_spaced():
    assert not [v.ko for v in VERBS if v.ko.endswith("짓다") and v.ko != "짓다" and " " not in v.ko]
    smile = _verbs("미소 짓다")
    assert all(v.pre == "미소" and v.head == "짓다" for v in smile)


def test_counters():
    for ko in HONORIFIC:
        assert NOUN_BY_KO[ko].counter == "분", ko
    for n in NOUNS["person"]:
        if n.ko not in HONORIFIC and n.counter:
            assert n.counter == "명", n
    assert all(n.counter == "마리" for n in NOUNS["animal"])
    assert NOUN_BY_KO["사진"].counter == "장" and NOUN_BY_KO["편지"].counter == "통"
    assert NOUN_BY_KO["책"].counter == "권" and NOUN_BY_KO["자동차"].counter == "대"


def test_place_particles_are_the_verbs():
    for ko in ("앉다", "눕다", "서다", "숨다"):
        assert all(v.loc == "에" for v in _verbs(ko)), ko
    for ko in ("먹다", "놀다", "자다", "공부하다", "만나다"):
        assert all(v.loc == "에서" for v in _verbs(ko)), ko
    move = _verbs("이사하다")[0]
    assert move.goal_particle == "(으)로" and {n.ko for n in move.goals} >= {"도시", "아파트"}
    assert "병원" not in {n.ko for n in move.goals}
    assert _verbs("가다")[0].goal_particle == "에"


def test_manner_adverbs_fit_their_verb():
    adv = {a.ko: a for a in ADVERBS}
    smile, wear = _verbs("미소 짓다")[0], _verbs("신다")[0]
    assert not adverb_fits(adv["크게"], smile) and adverb_fits(adv["크게"], _verbs("웃다")[0])
    assert not adverb_fits(adv["열심히"], wear) and adverb_fits(adv["열심히"], _verbs("일하다")[0])
    assert adverb_fits(adv["살짝"], smile) and adverb_fits(adv["다시"], wear)


def test_flags_for_the_grammar():
    adj = {a.ko: a for a in ADJECTIVES}
    for ko in ("높다", "낮다", "새롭다", "비싸다", "유명하다", "친절하다", "크다"):
        assert adj[ko].lasting, ko
    for ko in ("피곤하다", "덥다", "배고프다", "깨끗하다"):
        assert not adj[ko].lasting, ko
    for ko in ("이모", "삼촌", "누나", "아들", "할머니", "부모님"):
        assert NOUN_BY_KO[ko].kin, ko
    for ko in ("소년", "선생님", "친구", "쌍둥이"):
        assert not NOUN_BY_KO[ko].kin, ko


def test_spec_exclusion_and_unknown_names():
    fruit = resolve("fruit,-small_fruit")
    assert "포도" not in {n.ko for n in fruit} and "사과" in {n.ko for n in fruit}
    with pytest.raises(ValueError, match="unknown noun"):
        resolve("fruit,=없는말")


# ---------------------------------------------------------------- clauses at every level


def _clauses(level: str, n: int = 600):
    for seed in SEEDS:
        b = SentenceBuilder(random.Random(seed), level)
        for i in range(n):
            tense = ("present", "past", "future", "progressive")[i % 4]
            cl = b.make_clause(0.6, tense=tense)
            b.render(cl, ("final", "plain", False))
            yield b, cl


def _nouns_of(np, lex) -> list:
    return [lex.noun_by_ko[h] for h in np.head.split("|") if h in lex.noun_by_ko]


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_drawn_pairing_is_in_the_verbs_classes(level):
    lex = lexicon_of(LEVELS[level])
    checked = 0
    for _, cl in _clauses(level):
        if cl.adj:
            for n in _nouns_of(cl.subj, lex):
                # (a person adjective too: 가난한 왕, 게으른 아기 are left out of its spec)
                assert n.ko in {x.ko for x in cl.pred.nouns}, (cl.pred.ko, n.ko)
            continue
        v = cl.pred
        for n in _nouns_of(cl.subj, lex):
            assert can_subject(v, n), (v.ko, v.en, n.ko)
            checked += 1
        if cl.obj is not None and v.frame in ("T", "D"):
            for n in _nouns_of(cl.obj, lex):
                assert n in v.objects, (v.ko, n.ko)
        if cl.goal is not None and v.goals:
            assert _nouns_of(cl.goal, lex)[0] in v.goals, (v.ko, cl.goal.head)
        if cl.place is not None and v.places:  # 등산하다 on a mountain, not in the library
            assert _nouns_of(cl.place, lex)[0] in v.places, (v.ko, cl.place.head)
        for n in _nouns_of(cl.subj, lex) if cl.place is not None else ():
            # no owl in a classroom, no penguin in a bookstore, no cat and orangutan at home
            assert n.cls != "animal" or cl.place.head in habitat(n.ko), (v.ko, n.ko,
                                                                         cl.place.head)
        if cl.instr is not None and cl.instr.cls == "vehicle" and cl.goal is not None:
            (veh,) = cl.instr.lemmas  # "noun:버스"
            assert vehicle_fits(lex.noun_by_ko[veh.split(":")[1]],
                                _nouns_of(cl.goal, lex)[0]), (v.ko, cl.goal.head)
    assert checked > 500


def test_hiking_fishing_and_swimming_happen_where_they_can():
    places = {v.ko: {n.ko for n in v.places} for v in VERBS if v.places}
    # 등산하다 is "climb a mountain": no place adjunct (산에서 등산 is redundant, 계곡에서 wrong)
    assert all(v.loc == "" and not v.places for v in _verbs("등산하다"))
    assert "바다" in places["낚시하다"] and "음악실" not in places["낚시하다"]
    assert "수영장" in places["수영하다"] and "도서관" not in places["수영하다"]
    assert _verbs("출근하다")[0].loc == "에" and "회사" in places["출근하다"]
    assert "도서관" not in places["사다"] and "시장" in places["사다"]
    assert "철물점" not in places["먹다"] and "집" in places["요리하다"]
    for ko, en in (("청소하다", "clean"), ("방문하다", None), ("건너다", None), ("오르다", None),
                   ("떠나다", None)):
        assert all(v.loc == "" for v in _verbs(ko, en)), ko


@pytest.mark.parametrize("level", ["small", "full"])
def test_where_questions_have_no_goal(level):
    """Not "Where does the teacher come to the store?" nor "Where does she like the park?": a
    place question has no goal and asks about an action."""
    b = SentenceBuilder(random.Random(4), level)
    for _ in range(400):
        cl = b.make_clause(0.5, tense="present", wh="place", question=True)
        assert cl.goal is None and cl.place is not None, cl.pred.ko
        assert cl.pred.loc and not cl.pred.stative, cl.pred.ko  # not "Where does he like X?"


@pytest.mark.parametrize("level", list(LEVELS))
def test_place_and_goal_particles_follow_the_verb(level):
    seen = {"에": 0, "에서": 0, "로": 0}
    for _, cl in _clauses(level):
        if cl.adj:
            continue
        if not cl.pred.loc:  # 청소하다, 방문하다: the object is the place
            assert cl.place is None, (cl.pred.ko, cl.place.head)
        if cl.place is not None and cl.wh is None:
            text = cl.place.ko[-1].text
            if cl.pred.loc == "에":
                assert text.endswith("에") and not text.endswith("에서"), (cl.pred.ko, text)
                seen["에"] += 1
            else:
                assert text.endswith("에서"), (cl.pred.ko, text)
                seen["에서"] += 1
        if cl.goal is not None and cl.wh is None:
            text = cl.goal.ko[-1].text
            if cl.pred.ko == "이사하다":
                assert text.endswith("로"), text
                seen["로"] += 1
            elif cl.goal.head in _TOWARD_ROOMS and cl.pred.ko != "도착하다":
                assert text.endswith("로"), (cl.pred.ko, text)  # 침실로 간다
            else:
                assert text.endswith("에"), (cl.pred.ko, text)
    assert seen["에서"] > 50
    if level in ("medium", "full"):
        assert seen["에"] > 0 and seen["로"] > 0, seen


@pytest.mark.parametrize("level", list(LEVELS))
def test_manner_adverbs_drawn_fit_their_verb(level):
    n = 0
    for _, cl in _clauses(level):
        if cl.manner is not None:
            assert adverb_fits(cl.manner, cl.pred), (cl.manner.ko, cl.pred.ko)
            n += 1
    assert n > 20


# ---------------------------------------------------------------- generated pairs

_NUMERAL = re.compile(r"^(열|스물|스무|서른|마흔|쉰|예순|일흔|여든|아흔)?(한|두|세|네|다섯|여섯|일곱|여덟|아홉)?$")


@pytest.fixture(scope="module")
def corpora():
    return {name: [p for s in SEEDS for p in generate_pairs(1500, s, name)] for name in LEVELS}


@pytest.mark.parametrize("level", list(LEVELS))
def test_honorific_nouns_are_counted_with_bun(corpora, level):
    counted = 0
    for p in corpora[level]:
        ko = p.ko.rstrip(".?").split()
        for i, w in enumerate(ko[:-1]):
            if w.rstrip("들") not in HONORIFIC:
                continue
            nxt = ko[i + 1]
            if re.match(r"^\d+", nxt):
                assert re.match(r"^\d+분", nxt), p.ko
                counted += 1
            elif _NUMERAL.match(nxt) and nxt and i + 2 < len(ko):
                assert ko[i + 2].startswith("분"), p.ko
                counted += 1
    if level == "full":
        assert counted > 2, counted


_POSTURE = re.compile(r"^(앉|누워|눕|누운|누웠|숨(?![기겨겼긴길깁])|섰|선다|섭니|서요|서$)")


@pytest.mark.parametrize("level", list(LEVELS))
def test_no_solid_light_verb_and_no_state_verb_with_eseo(corpora, level):
    for p in corpora[level]:
        ko = p.ko.rstrip(".?").split()
        assert not any(w.startswith("미소지") for w in ko), p.ko
        for i, w in enumerate(ko[:-1]):
            # a place in 에서 directly before a posture verb: 공원에서 앉았다
            if w.endswith("에서") and _POSTURE.match(ko[i + 1]):
                raise AssertionError(p.ko)
        en = p.en.lower()
        assert not re.search(r"\bchicks? (?:\w+ )?(?:bite|bites|bit|biting)\b", en), p.en
        assert "rescue worker" not in en, p.en


def test_smile_and_move_render_as_a_korean_writes_them():
    pairs = [p for s in SEEDS for p in generate_pairs(3000, s, "full")]
    smiles = [p for p in pairs if "미소" in p.ko]
    moves = [p for p in pairs if re.search(r"\S+로 이사", p.ko)]
    assert smiles and moves
    for p in smiles:
        assert re.search(r"미소 (안 )?(짓|지었|지어|지을|지은|짓지|지으)", p.ko), p.ko  # 지으시-: honorific
        assert "smil" in p.en, p.en


# ---------------------------------------------------------------- round two: word choices


def test_size_is_never_said_of_a_person_and_predicate_adjectives_stay_predicates():
    """크다/작다 on people read as 큰 아이 "the eldest child"; 기쁜 이모 is 기분 좋은 이모."""
    for a in ADJECTIVES:
        if a.ko in ("크다", "작다", "조그맣다", "커다랗다"):
            assert not a.person and not [n.ko for n in a.nouns if n.cls == "person"], a.ko
    pred = {a.ko for a in ADJECTIVES if not a.attributive}
    assert {"기쁘다", "즐겁다", "심심하다"} <= pred
    from companion.data.kosynth.lexicon import select_lexicon

    for ko, adjs in select_lexicon().adj_by_noun.items():
        assert not pred & {a.ko for a in adjs}, ko
    # the reader's pairings: no 안전한 식당, 소중한 편집자, 유명한 이웃, 화려한 숲, 맛있는 물
    fit = {a.ko: {n.ko for n in a.nouns} for a in ADJECTIVES}
    assert "식당" not in fit["안전하다"] and "편집자" not in fit["소중하다"]
    assert "이웃" not in fit["유명하다"] and "가수" in fit["유명하다"]
    assert "숲" not in fit["화려하다"] and "물" not in fit["맛있다"] and "주스" in fit["맛있다"]
    assert "목장" not in fit["어둡다"] and "사막" not in fit["시끄럽다"]
    assert "학자" not in fit["귀엽다"] and "아기" in fit["귀엽다"] and "해적" not in fit["아름답다"]
    assert "밥" not in fit["차갑다"] and "식당" not in {n.ko for n in _verbs("사다")[0].places}


def test_states_of_one_body_share_a_scale():
    """Two passing states never stack on one noun (심심하고 재미있는 is blocked by the
    predicate-only flag; 아프고 건강한, 피곤하고 배고픈 by the scale)."""
    scale = {a.ko: a.scale for a in ADJECTIVES}
    assert len({scale[k] for k in ("아프다", "건강하다", "피곤하다", "배고프다", "행복하다")}) == 1


def test_every_noun_has_its_korean_counter():
    counter = {ko: n.counter for ko, n in NOUN_BY_KO.items()}
    # 시 "poem" is counted with 편, a counter no other noun takes: left uncounted (never 시 열 개)
    assert counter["시"] in ("편", "") and counter["보고서"] in ("편", "")
    assert counter["손수건"] == "장" and counter["딱지"] == "장" and counter["팬케이크"] == "장"
    assert counter["수박"] == "통" and counter["여권"] == "권"
    assert NOUN_BY_KO["포도"].plural_only  # 포도 "grapes", counted in bunches: not 포도 세 개
    # flat and soft things are not 개 where Korean says 장; plants one cannot count have none
    for ko in ("카펫", "테이블보", "마스크", "깻잎"):
        assert counter[ko] == "장", ko
    for ko in ("덩굴", "클로버", "갈대", "배추", "파", "비눗방울"):
        assert counter[ko] == "", ko


def test_glosses_a_reader_asked_for():
    assert NOUN_BY_KO["딱지"].en == "ddakji" and NOUN_BY_KO["딱지"].plural == "ddakji"
    assert NOUN_BY_KO["전시관"].en == "exhibition hall"
    assert NOUN_BY_KO["박람회장"].en != NOUN_BY_KO["전시관"].en
    tea = [v for v in _verbs("끓이다") if any(n.ko == "차" for n in v.objects)]
    assert [v.en for v in tea] == ["make"]  # 차를 끓이다 "made the tea", not "boiled"
    assert "차" not in _objects("끓이다", "boil") and "라면" in _objects("끓이다", "boil")
    # 찾다 is "find" in every tense (찾은 학생 "the student ... found"): one reading only
    assert {v.en for v in _verbs("찾다")} == {"find"} and all(v.stative for v in _verbs("찾다"))


def test_assembling_is_for_things_in_parts():
    things = _objects("조립하다")
    assert {"책상", "로봇", "자전거"} <= things
    assert not things & {"매트리스", "이불", "커튼", "카펫", "방석", "문", "풍선", "공"}


def test_every_verb_with_a_place_names_its_places():
    """An activity only where people do it: every verb that takes a place adjunct lists its
    places (no apples picked at a laundry, no noodles boiled at a bakery)."""
    for v in VERBS:
        if v.loc and not v.stative and v.frame != "M":
            assert v.places, (v.ko, v.en)
    places = {(v.ko, v.en): {n.ko for n in v.places} for v in VERBS if v.places}
    assert "세탁소" not in places["따다", "pick"] and "과수원" in places["따다", "pick"]
    for ko in ("끓이다", "볶다", "튀기다", "요리하다"):
        assert all("빵집" not in {n.ko for n in v.places} for v in _verbs(ko)), ko
    assert "빵집" in places["굽다", "bake"]
    assert "가게" not in places["달리다", "run"]
    # 웃다 "laugh" at a place that English says "at": "laughs at the store" is mocking it
    for ko in ("웃다", "미소 짓다"):
        for v in _verbs(ko):
            assert v.places and all(n.prep != "at" for n in v.places), ko
    for ko in ("가져오다", "가져가다", "칠하다", "꾸미다", "초대하다"):  # X에서: "from", or redundant
        assert all(v.loc == "" for v in _verbs(ko)), ko


def test_adjectives_a_native_writer_pairs_with_the_noun():
    """A second native pass: keep an adjective on a noun only where a Korean writer would use
    it in a short story (a novel is 짧은 or 얇은, never 작은; 먼 of a place one travels to, not
    of a room of the house)."""
    fit = {a.ko: {n.ko for n in a.nouns} for a in ADJECTIVES}
    books = {n.ko for n in NOUNS["book"]}
    for ko in ("크다", "작다", "조그맣다", "커다랗다"):  # 작은 소설: 짧은 / 얇은 소설
        assert not fit[ko] & books, ko
        # a size is of a counted thing: no "small garlic", "big soap"
        assert not [n.ko for a in ADJECTIVES if a.ko == ko for n in a.nouns if n.mass], ko
    assert "소설" in fit["짧다"] and "소설" in fit["얇다"] and "소설" in fit["두껍다"]
    rooms = {n.ko for n in NOUNS["place"] if n.room} | {"마당", "옥상", "집"}
    for ko in ("멀다", "가깝다"):  # 저 먼 지하실
        assert not fit[ko] & rooms, ko
        assert {"도시", "공원", "학교", "계곡"} <= fit[ko], ko
    for ko in ("깨끗하다", "더럽다"):  # 깨끗한 공원, 깨끗한 들판; a street or a river is clean
        assert not fit[ko] & {"공원", "들판", "숲", "산", "언덕", "사막", "동굴"}, ko
        assert {"방", "도시", "강", "해변"} <= fit[ko], ko
    assert not fit["덥다"] & {"대학교", "공항", "경기장"} and "교실" in fit["덥다"]
    assert "잠수함" not in fit["편하다"] and "자동차" in fit["편하다"]
    assert "룸메이트" not in fit["건강하다"] and "아기" in fit["건강하다"]
    assert not fit["날씬하다"] & {"어른", "할아버지", "아기", "부모"} and "모델" in fit["날씬하다"]
    assert not fit["평범하다"] & {"할아버지", "왕", "이모"} and "회사원" in fit["평범하다"]
    assert not fit["게으르다"] & {"할머니", "선생님", "아이", "손님", "호랑이"}
    assert "룸메이트" in fit["게으르다"] and "고양이" in fit["게으르다"]
    assert not fit["커다랗다"] & {"햄스터", "개미", "반지"} and "코끼리" in fit["커다랗다"]
    assert not fit["조그맣다"] & {"코끼리", "고래"} and "햄스터" in fit["조그맣다"]
    assert "계곡" not in fit["맑다"] | fit["얕다"]  # 맑은 계곡 is its water, not the valley
    assert "풀잎" not in fit["아름답다"] and "하마" not in fit["예쁘다"]
    assert not fit["슬프다"] & {"사전", "요리책", "달력"} and "소설" in fit["슬프다"]
    assert not fit["무섭다"] & {"요리책", "사전"} and "계산기" not in fit["시끄럽다"]
    assert not fit["훌륭하다"] & {"공책", "달걀", "버터"}
    assert "시계탑" not in fit["넓다"] and "광장" in fit["넓다"]


def test_vehicles_are_used_where_people_use_them():
    """No submarine on show at a store, borrowed, fixed at home or waited for at a stop."""
    for ko in ("빌리다", "고치다", "닦다", "수리하다", "빌려주다", "구경하다", "기다리다"):
        assert not _objects(ko) & {"잠수함", "우주선"}, ko
    assert "자동차" in _objects("빌리다") and "버스" in _objects("기다리다")


def test_verb_senses_a_collocation_changes():
    # 키우다 a dog is "raise", a tree "grow" (not "raised an apple tree")
    grow = {n.ko: v.en for v in _verbs("키우다") for n in v.objects}
    assert grow["사과나무"] == "grow" and grow["강아지"] == "raise"
    # 걱정하다 is a state: "is worried", never "is worrying" (no progressive)
    assert all(v.stative for v in _verbs("걱정하다"))
    # 초대장을 전하다: "hands", "gives" -- not "passes"
    assert {v.en for v in _verbs("전하다")} == {"hand"}


def test_manner_adverbs_fit_the_sense():
    adv = {a.ko: a for a in ADVERBS}
    wear = [v for v in VERBS if v.en == "wear"]
    assert {v.ko for v in wear} == {"쓰다", "끼다", "입다", "신다"}
    for v in wear:  # "wore carefully": wearing is a state (조심스럽게 꼈다 is "put on")
        for ko in ("조심스럽게", "빨리", "천천히", "바로", "몰래", "혼자"):
            assert not adverb_fits(adv[ko], v), (ko, v.ko)
        assert adverb_fits(adv["자주"], v)
    write = _verbs("쓰다", "write")[0]  # a ko/en key: 쓰다 "write" keeps its adverbs
    assert adverb_fits(adv["조심스럽게"], write) and adverb_fits(adv["천천히"], write)
    arrive = _verbs("도착하다")[0]  # "arrive right away": a native says "soon"
    assert not adverb_fits(adv["바로"], arrive) and adverb_fits(adv["일찍"], arrive)
    for v in _verbs("자다"):  # 늦게 자다 is "go to bed late", not "sleep late"
        assert not adverb_fits(adv["늦게"], v) and not adverb_fits(adv["일찍"], v)
    lose = _verbs("잃어버리다")[0]
    assert not any(adverb_fits(adv[ko], lose) for ko in ("조심스럽게", "천천히", "빨리", "혼자"))


def test_ages_fit_the_person():
    from companion.data.kosynth.lexicon import age_range

    assert age_range("아이")[1] <= 12 and age_range("노인")[0] >= 60
    assert age_range("의사") == (20, 80) and age_range("김민준") == (1, 99)


@pytest.mark.parametrize("level", ["small", "full"])
def test_generated_pairs_keep_the_readers_word_choices(corpora, level):
    size = re.compile(r"(^| )(큰|작은|키 큰) (" + "|".join(n.ko for n in NOUNS["person"]) + r")(들)?[ 이가은는을를에의도]")
    for p in corpora[level]:
        assert not size.search(p.ko), p.ko
        assert not re.search(r"(^| )(기쁜|즐거운|심심한) ", p.ko), p.ko
        assert not re.search(r"에서 등산(하|했|해|할|한|합)", p.ko), p.ko
        assert not re.search(r"(^| )시 \S+ 개|손수건 \S+ 개", p.ko), p.ko
        # 찾다: "look for" in the present (찾는 티셔츠 "the T-shirt he is looking for"),
        # "found" in the past, never "looked for"
        assert "looked for" not in p.en or p.en.startswith("No "), p.en  # (찾지 않았다)
        assert "paper tile" not in p.en and "pavilion" not in p.en, p.en
        m = re.search(r"(아이|아기|어린이|초등학생)[은는이가] (\S+) 살(이|입)", p.ko)
        if m:
            assert m.group(2) in ("한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열",
                                  "열한", "열두", "몇"), p.ko


def test_kin_terms_follow_the_possessors_gender():
    """형/누나 are a male's older siblings, 오빠/언니 a female's: 김서연의 오빠, 소년의 누나."""
    assert {t: kin_gender(t) for t in ("형", "누나", "오빠", "언니", "이모")} == {
        "형": "male", "누나": "male", "오빠": "female", "언니": "female", "이모": None}
    assert kin_term("형", "김서연", name=True) == "오빠"
    assert kin_term("누나", "황서아", name=True) == "언니"
    assert kin_term("오빠", "김민준", name=True) == "형"
    assert kin_term("언니", "소년") == "누나"
    assert kin_term("형", "소년") == "형"
    assert kin_term("누나", "학생") == "누나"  # a possessor of unknown gender keeps the term
    assert kin_term("이모", "소녀") == "이모"


def test_animals_stay_where_such_animals_are():
    classroom, forest, home = NOUN_BY_KO["교실"], NOUN_BY_KO["숲"], NOUN_BY_KO["집"]
    assert places_for((classroom, forest, home), NOUN_BY_KO["올빼미"]) == (forest,)
    assert places_for((classroom, home), NOUN_BY_KO["독수리"]) == ()
    assert places_for((classroom, home), NOUN_BY_KO["강아지"]) == (home,)
    assert places_for((classroom,), NOUN_BY_KO["소년"]) == (classroom,)
    assert "서점" not in habitat("펭귄") and "수족관" in habitat("펭귄")
    assert all(habitat(n.ko) for n in NOUNS["animal"]), "every animal has a habitat"


def test_vehicles_fit_their_destination():
    fits = lambda v, g: vehicle_fits(NOUN_BY_KO[v], NOUN_BY_KO[g])  # noqa: E731
    assert not fits("비행기", "도서관") and fits("비행기", "공항")
    assert not fits("버스", "섬") and fits("보트", "섬") and fits("버스", "학교")
    assert not fits("자동차", "부엌") and not fits("지하철", "농장")


def test_pairings_a_reader_rejected():
    """엄격한 도둑, 훌륭한 거인, 강한 건축가, 약한 아이들, 하얀 그림을 복사, 물을 맛보다, 천천히
    노래하다, 의학을 설명하다, 피아노를 배우다, 도시에서 여행하다 (도시를 여행하다)."""
    adj = {a.ko: {n.ko for n in a.nouns} for a in ADJECTIVES}
    assert "도둑" not in adj["엄격하다"] and "선생님" in adj["엄격하다"]
    assert "거인" not in adj["훌륭하다"] and "건축가" not in adj["강하다"]
    assert "아이" not in adj["약하다"] and "아기" not in adj["게으르다"]
    assert "왕" not in adj["가난하다"] and "도둑" not in adj["정직하다"]
    assert not any(a.person for a in ADJECTIVES if a.ko in ("엄격하다", "강하다", "약하다"))
    assert "그림" not in _objects("복사하다") and "물" not in _objects("맛보다")
    assert not {"의학", "수학", "축구"} & _objects("설명하다")
    assert "피아노" not in _objects("배우다")
    (tour,) = _verbs("여행하다")
    assert tour.frame == "T" and "도시" in {n.ko for n in tour.objects}
    slowly = next(a for a in ADVERBS if a.ko == "천천히")
    assert not adverb_fits(slowly, _verbs("노래하다")[0])
    assert "비눗방울" not in _objects("숨기다") and "옷장" not in _objects("보내다")
    assert not {"고기", "생선"} & _objects("먹다", animal=True) - {
        n.ko for v in _verbs("먹다") if "animal" in v.subj and "고양이" in v.animals
        for n in v.objects}


def test_arrive_takes_e_and_asks_eodie():
    (arrive,) = _verbs("도착하다")
    assert (arrive.goal_particle, arrive.goal_wh) == ("에", "어디에")
    (move,) = _verbs("이사하다")
    assert move.goal_wh == "어디로"
    assert _verbs("가다")[0].goal_wh == "어디로"


def test_english_glosses_of_round_three():
    gloss = {n.ko: n.en for ns in NOUNS.values() for n in ns}
    assert (gloss["선배"], gloss["후배"], gloss["어린이"], gloss["올빼미"]) == (
        "senior colleague", "junior colleague", "child", "owl")  # (round 18: "junior" alone
    #                                                              reads as an adjective)
    en = {a.ko: a.en for a in ADJECTIVES}
    assert (en["즐겁다"], en["훌륭하다"]) == ("happy", "great")


def test_who_does_what_round_four():
    """A baby does only what babies do (no 아기가 꾸민 다락방), customers do not work (고객이
    일하다), pupils do not go to work; character adjectives are said of grown people (no
    겸손한 아기); tangerines are peeled, not sliced; one gets up where one sleeps."""
    from companion.data.kosynth.lexicon import can_possess, subject_fits
    from companion.data.kosynth.tables import INFANT_VERBS

    baby, customer, student = NOUN_BY_KO["아기"], NOUN_BY_KO["고객"], NOUN_BY_KO["학생"]
    infant_ok = set(INFANT_VERBS.split())
    for v in VERBS:
        if "person" in v.subj and not v.subj_only:
            assert subject_fits(v, baby) == (v.ko.replace(" ", "_") in infant_ok), v.ko
    for ko in ("일하다", "출근하다", "퇴근하다"):
        for v in _verbs(ko):
            assert not subject_fits(v, customer) and not subject_fits(v, baby), ko
            assert subject_fits(v, NOUN_BY_KO["직원"]), ko
    assert not subject_fits(_verbs("출근하다")[0], student)
    assert not any(subject_fits(v, baby) for v in _verbs("꾸미다"))
    for level in LEVELS.values():
        lex = lexicon_of(level)
        assert not {"꾸미다", "일하다"} & {v.ko for v in lex.subj_verbs.get("아기", ())}
    character = ("겸손하다", "상냥하다", "침착하다", "친절하다", "정직하다", "용감하다", "평범하다",
                 "게으르다", "부지런하다", "가난하다", "부유하다", "엄격하다")
    adj = {a.ko: {n.ko for n in a.nouns} for a in ADJECTIVES}
    for ko in character:
        assert "아기" not in adj[ko], ko
    for ko in ("겸손하다", "상냥하다", "침착하다"):
        assert not {"아이", "어린이", "초등학생"} & adj[ko], ko
    assert not next(a for a in ADJECTIVES if a.ko == "맛없다").attributive  # 맛없는 수프를 끓이다
    assert "귤" not in _objects("썰다") and "귤" in _objects("까다") and "사과" in _objects("썰다")
    assert "바나나" not in _objects("씻다")
    (getup,) = _verbs("일어나다")
    assert "도서실" not in {n.ko for n in getup.places} and "침실" in {n.ko for n in getup.places}
    assert not vehicle_fits(NOUN_BY_KO["자동차"], NOUN_BY_KO["옥상"])
    visited = _objects("방문하다")
    assert "어른" not in visited and "할머니" in visited and "박물관" in visited
    assert not can_possess(NOUN_BY_KO["체육관"]) and can_possess(NOUN_BY_KO["가방"])
    assert not can_possess(NOUN_BY_KO["호랑이"]) and can_possess(NOUN_BY_KO["강아지"])


def test_glosses_and_links_of_round_four():
    """기사 (driver / article before knight) and 신문지 ("newspaper sheet") are gone; 서다 is
    "stand" (서 있다), 기쁘다 "happy" (a judge read "glad" as stilted), 회사 "office"; no link restates its cause (졸려서 졸다)."""
    from companion.data.kosynth.coherence import PLACE, SAME

    assert "기사" not in NOUN_BY_KO and "신문지" not in NOUN_BY_KO
    assert {v.en for v in _verbs("서다")} == {"stand"}
    en = {a.ko: a.en for a in ADJECTIVES}
    assert en["기쁘다"] == "happy" and NOUN_BY_KO["회사"].en == "office"
    for cause, (_, effects) in {**SAME, **PLACE}.items():
        assert cause not in effects.split(), cause
    assert "졸다" not in SAME["졸리다"][1].split()


# ------------------------------------------------ the second native review (issue 27, full level)


def test_no_fairy_tale_people_and_pets_keep_to_their_family():
    """Kings, fairies, angels and heroes are gone from the person table (a hero going hiking, a
    rabbit looking for an angel); a pet waits for, looks for and likes its family, not a
    merchant; birds do not like kale; only builders build; stones are not received or lost."""
    for gone in "왕 여왕 공주 왕자 마법사 요정 거인 해적 천사 영웅 신부 신랑".split():
        assert gone not in NOUN_BY_KO, gone
    family = set(NOUN_SETS["pet_people"].split())
    for ko in ("기다리다", "찾다", "좋아하다"):
        for v in _verbs(ko):
            if "animal" in v.subj:
                people = {n.ko for n in v.objects if n.cls == "person"}
                assert people <= family, (ko, people - family)
    assert not any("bird" in NOUN_SETS and set(v.animals) & set(NOUN_SETS["bird"].split())
                   and {n.cls for n in v.objects} & {"vegetable"} for v in _verbs("좋아하다"))
    assert {n for v in _verbs("짓다", "build") for n in v.subj_only} == {"목수", "건축가"}
    assert "돌" not in _objects("받다") and "돌" not in _objects("잃어버리다")
    assert "콩" not in _objects("튀기다") and "우유" not in _objects("끓이다", "boil")


@pytest.mark.parametrize("level", ["small", "full"])
def test_going_back_is_to_where_people_live_and_swimming_is_in_the_water(level):
    """돌아가다 / 돌아오다 never go back to the sea, a river or a mountain (said of people that
    reads as animals going home); 수영하다 at a river is "in the river", never "by"; a spouse
    fits the sex of a named possessor (조민지의 아내 is a slip)."""
    from companion.data.kosynth.coherence import FEMALE_NAMES, MALE_NAMES
    wild = {n.ko for n in resolve("wild_place,water_place")}
    seen_back = seen_swim = 0
    for p in generate_pairs(6000, 3, level):
        toks = p.ko.split()
        for i, t in enumerate(toks[1:], 1):
            if t.startswith(("돌아가", "돌아오", "돌아갔", "돌아왔", "돌아갈", "돌아올")):
                seen_back += 1
                before = toks[i - 1]
                assert not any(before in (w + "에", w + "로", w + "으로") for w in wild), p.ko
            if t.endswith("의") and i + 1 <= len(toks) and len(t) >= 4:
                given = t[1:-1]
                spouse = toks[i + 1][:2] if i + 1 < len(toks) else ""
                if spouse == "아내":
                    assert given not in FEMALE_NAMES, p.ko
                if spouse == "남편":
                    assert given not in MALE_NAMES, p.ko
        if "swim" in p.en.split() or "swims" in p.en.split() or "swam" in p.en.split():
            seen_swim += 1
            assert not re.search(r"\bby (the|that|this) (river|sea|lake|pond)\b", p.en), p.en
    assert seen_back > 20 and (level == "small" or seen_swim > 5), (seen_back, seen_swim)
