"""Which events a reader accepts as linked by -아서/-어서 "because", -(으)면 "if" and
-(으)ㄹ 때 "when", and the English pronoun that takes up a shared subject.

A causal, conditional or temporal clause is built only from a :data:`LINKS` entry: a cause
(a passing state or an action) and the events that naturally follow it. Two kinds:

* ``same`` -- one participant in both clauses, named once in Korean at the head of the
  sentence and taken up in English by a pronoun: 소년은 배가 고파서 빵을 먹었다 "The boy ate
  bread because he was hungry"; 소년은 운동해서 피곤했다 "The boy was tired because he
  exercised";
* ``place`` -- the state of a place and what a person (never an animal) does under it:
  방이 추워서 소녀가 떨었다 "The girl shivered because the room was cold".

Everything else is joined with the neutral -고 "and" or, where there is a contrast, -지만
"but". Lasting properties (tall, low, new: the adjectives without the ``stage`` flag) never
appear in a link, so they are never tied to a moment.

>>> pronoun_for("소년", "person", plural=False)
'he'
>>> pronoun_for("김서연", "person", plural=False, name=True)
'she'
>>> pronoun_for("학생", "person", plural=False) is None
True
"""

from __future__ import annotations

#: cause (Korean lemma) -> (kinds it may link with, effects: Korean lemmas), one participant
SAME: dict[str, tuple[str, str]] = {
    # feeling / need -> action (a feeling and its own expression -- 즐거울 때 웃는다 -- says
    # nothing as a rule: feelings link only by "because")
    "배고프다": ("because when if", "먹다 주문하다 요리하다 굽다 끓이다"),
    "목마르다": ("because when if", "마시다 주문하다"),  # (not 끓이다: one boils water to cook)
    "피곤하다": ("because when if", "자다 쉬다 졸다 하품하다 눕다 앉다"),
    "졸리다": ("because when if", "자다 눕다"),  # (not 졸려서 졸다, 졸릴 때 하품한다: the same)
    "아프다": ("because when if", "쉬다 자다 눕다 기침하다"),  # (아파서 운다: of a child only)
    "슬프다": ("because", "울다"),
    "외롭다": ("because", "울다 전화하다"),  # (외로워서 X에게 이야기했다: "told X", not "talked")
    "행복하다": ("because", "웃다 노래하다 춤추다 미소짓다"),
    "기쁘다": ("because", "웃다 노래하다 춤추다 미소짓다"),
    "즐겁다": ("because", "웃다 노래하다 춤추다"),
    "심심하다": ("because when if", "놀다 산책하다 쇼핑하다 노래하다 춤추다 여행하다"),
    # action -> its natural consequence (an action or a passing state)
    "넘어지다": ("because", "울다 아프다"),
    "운동하다": ("because if", "피곤하다 배고프다 목마르다 샤워하다"),
    "달리다": ("because if", "피곤하다 목마르다 배고프다"),
    "일하다": ("because if", "피곤하다 배고프다 졸리다"),
    "등산하다": ("because if", "피곤하다 배고프다 목마르다"),
    "수영하다": ("because if", "피곤하다 배고프다 졸리다"),
    "춤추다": ("because if", "피곤하다 목마르다"),
    "청소하다": ("because", "피곤하다"),
}

#: a place's state (Korean lemma) -> (kinds, what a person does under it)
PLACE: dict[str, tuple[str, str]] = {
    "춥다": ("because when if", "떨다 재채기하다 기침하다"),
    "덥다": ("because when if", "마시다"),  # (no shower or swim in a hot bakery; no rest)
}

#: person nouns with a grammatical gender in English ("he" / "she"); others are avoided
#: as the shared subject (no singular "they" for one named participant)
MALE_NOUNS = frozenset("""소년 남자 할아버지 아버지 형 오빠 삼촌 외삼촌 손자 아들 남편
노인 어부""".split())
FEMALE_NOUNS = frozenset("""소녀 여자 할머니 어머니 누나 언니 이모 고모 손녀 딸 아내
웨이트리스""".split())
#: given names by the gender Korean readers most often give them (unisex names left out)
MALE_NAMES = frozenset("""민준 도윤 서준 지호 현우 준호 동현 철수 시우 예준 하준 건우 우진 선우 유준
정우 승우 승현 준서 지훈 민재 현준 도현 성민 재현 태민 상우 경수 수호 민규 동훈 영수 상민 민호
재민 재원 도영 은우""".split())
FEMALE_NAMES = frozenset("""서연 하은 예린 은지 민서 소연 영희 수아 지아 채원 다은 윤서 서윤 지유 서아
하윤 소율 예은 민지 혜진 미영 나연 보라 은서 하린 가은 지윤 혜원 은비 소희 윤아 태희 다현 유나""".split())


def pronoun_for(head: str, cls: str, *, plural: bool, name: bool = False) -> str | None:
    """The English subject pronoun for a noun phrase (``head``: its Korean head noun, or the
    full name): they (plural), it (an animal), he / she (a gendered noun or name); None
    where English would need a gender it does not know (학생 "student", 지우 "Jiwoo")."""
    if plural:
        return "they"
    if cls != "person":
        return "it"
    if name:
        given = head[1:]
        return "he" if given in MALE_NAMES else "she" if given in FEMALE_NAMES else None
    return "he" if head in MALE_NOUNS else "she" if head in FEMALE_NOUNS else None


def links_in(adjectives, verbs) -> list[tuple[str, object, object, tuple[str, ...]]]:
    """The links a lexicon can draw: ``(mode, cause, effect, kinds)`` with ``cause`` and
    ``effect`` an Adjective or a Verb of the lexicon (only intransitive, transitive and
    recipient verbs: an effect verb's object is drawn from its own list)."""
    adj = {a.ko.replace(" ", ""): a for a in adjectives}
    verb: dict[str, list] = {}
    for v in verbs:  # 미소 짓다 is listed as 미소짓다
        if v.frame in ("I", "T", "R"):
            verb.setdefault(v.ko.replace(" ", ""), []).append(v)

    def preds(ko: str) -> list:
        if ko in adj:
            return [adj[ko]]
        return [v for v in verb.get(ko, ()) if v.frame != "T" or not v.stative]

    out = []
    for mode, table in (("same", SAME), ("place", PLACE)):
        for cause_ko, (kinds, effects) in table.items():
            for cause in preds(cause_ko):
                if mode == "same" and getattr(cause, "frame", "I") not in ("I",):
                    continue
                for eff_ko in effects.split():
                    for eff in preds(eff_ko):
                        if mode == "place" and "person" not in getattr(eff, "subj", ()):
                            continue  # people are in a room, not a cat drinking milk
                        out.append((mode, cause, eff, tuple(kinds.split())))
    return out
