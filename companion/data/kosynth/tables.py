"""Lexicon data tables (see :mod:`companion.data.kosynth.lexicon` for the format).

Noun items are ``ko:en`` (a compound a Korean writes apart joined by ``_``: 축구_선수 is
축구 선수, 곰_인형 is 곰 인형) with flags after ``/``: ``m`` mass, ``0`` zero article, ``p=X``
plural, ``c=X`` counter (``c=-``: not counted), ``@at``/``@on``/``@by`` place preposition,
``b`` building (can be built), ``r`` room (can be cleaned), ``h`` home, ``a`` abstract
(no body: an email), ``k`` kinship (이모 "aunt": English gives it a possessor). Counters: 분
for honorific nouns (선생님, 할머니, 스님), 명 for other people, 마리 for animals, 장 for flat
things (사진, 표, 엽서), 통 for letters, 권 books, 대 machines and vehicles, 개 other things.
"""

#: default counter per class ("" = not counted)
COUNTERS = {"person": "명", "animal": "마리", "fruit": "개", "vegetable": "개", "dish": "개",
            "drink": "", "furniture": "개", "container": "개", "device": "대", "toy": "개",
            "accessory": "개", "item": "개", "tool": "개", "instrument": "", "book": "권",
            "vehicle": "대", "place": "", "music": "곡", "plant": "그루", "clothes": "벌",
            "subject": "", "sport": "", "martial": "", "footwear": ""}

#: class groups usable in verb and adjective tables
GROUPS = {"food": ("fruit", "vegetable", "dish"),
          "thing": ("furniture", "container", "device", "toy", "accessory", "item", "tool",
                    "instrument")}

NOUN_TABLES = {
    "person": """
소년:boy 소녀:girl 남자:man 여자:woman 아이:child 학생:student 선생님:teacher/c=분 의사:doctor
간호사:nurse 경찰관:police_officer 요리사:cook 농부:farmer 가수:singer 화가:painter
작가:writer 기자:reporter 군인:soldier 운전사:driver 손님:guest/c=분 친구:friend 아기:baby
할머니:grandmother/k/c=분 할아버지:grandfather/k/c=분 어머니:mother/k 아버지:father/k
형:older_brother/k 누나:older_sister/k 동생:younger_sibling/k 이웃:neighbor 사람:person 노인:elderly_person
어부:fisherman 배우:actor 감독:director 교수:professor 과학자:scientist 변호사:lawyer
판사:judge 소방관:firefighter 우체부:mail_carrier 점원:clerk 사장:boss 직원:employee
선수:player 코치:coach 도둑:thief
관광객:tourist 승객:passenger 이발사:barber 제빵사:baker 건축가:architect
엔지니어:engineer 비서:secretary 통역사:interpreter 조종사:pilot 음악가:musician
삼촌:uncle/k 이모:aunt/k 사촌:cousin/k 손자:grandson/k 손녀:granddaughter/k 아들:son/k
딸:daughter/k 남편:husband/k 아내:wife/k 언니:older_sister/k 오빠:older_brother/k
부모님:parents/k/P/c=-
대학생:college_student 초등학생:schoolchild 교장:principal 사서:librarian 약사:pharmacist
치과의사:dentist 수의사:vet 정원사:gardener 목수:carpenter 어린이:child 청소년:teenager
회사원:office_worker 은행원:bank_clerk 미용사:hairdresser 사진작가:photographer
디자이너:designer 프로그래머:programmer 시인:poet 소설가:novelist 피아니스트:pianist
바이올리니스트:violinist 무용가:dancer 마술사:magician 광대:clown 탐정:detective
선장:captain 선원:sailor 장군:general 대통령:president 시장님:mayor/c=분
상인:merchant 웨이터:waiter 웨이트리스:waitress 승무원:flight_attendant
경비원:guard 청소부:cleaner 배달원:delivery_worker 우주비행사:astronaut 발명가:inventor
탐험가:explorer 등산객:hiker 낚시꾼:angler 사냥꾼:hunter 목동:shepherd 어른:adult
환자:patient 고객:customer 방문객:visitor 주민:resident 시민:citizen 동료:colleague/k
반장:class_president 후배:junior_colleague/k 선배:senior_colleague/k 룸메이트:roommate
농구_선수:basketball_player 축구_선수:soccer_player 야구_선수:baseball_player 수영_선수:swimmer
가이드:guide 번역가:translator 편집자:editor 연구원:researcher 회계사:accountant 택배_기사:courier
버스_기사:bus_driver 택시_기사:taxi_driver 기관사:train_driver 조카:nephew/k 고모:aunt/k
외삼촌:uncle/k 쌍둥이:twins/P/c=- 래퍼:rapper 작곡가:composer 지휘자:conductor 성악가:opera_singer
기타리스트:guitarist 드러머:drummer 모델:model 코미디언:comedian 아나운서:announcer 유튜버:YouTuber
과장:manager 부장:department_head 팀장:team_leader 인턴:intern
신부님:priest/c=분 스님:monk/c=분 수녀:nun 목사:pastor 학자:scholar
소방대원:firefighter 농구_코치:basketball_coach
공무원:civil_servant 경호원:bodyguard 집주인:landlord 세입자:tenant 운동선수:athlete
""",
    "animal": """
개:dog 고양이:cat 새:bird 말:horse 소:cow 돼지:pig 양:sheep 쥐:mouse 토끼:rabbit
호랑이:tiger 사자:lion 곰:bear 원숭이:monkey 코끼리:elephant 여우:fox 늑대:wolf 닭:chicken
오리:duck 거위:goose 염소:goat 사슴:deer 뱀:snake 거북이:turtle 개구리:frog 기린:giraffe
펭귄:penguin 하마:hippo 낙타:camel 다람쥐:squirrel 앵무새:parrot 부엉이:owl 판다:panda
얼룩말:zebra 강아지:puppy 고래:whale 상어:shark 독수리:eagle 비둘기:pigeon 나비:butterfly
고슴도치:hedgehog 너구리:raccoon 캥거루:kangaroo 코알라:koala 악어:crocodile 표범:leopard
치타:cheetah 고릴라:gorilla 침팬지:chimpanzee 수달:otter 물개:seal 돌고래:dolphin
문어:octopus 오징어:squid 게:crab 새우:shrimp 금붕어:goldfish 참새:sparrow 까치:magpie
까마귀:crow 갈매기:seagull 백조:swan 공작:peacock 타조:ostrich 두더지:mole 박쥐:bat
햄스터:hamster 송아지:calf 망아지:foal 병아리:chick 꿀벌:bee 개미:ant
거미:spider 달팽이:snail 무당벌레:ladybug 잠자리:dragonfly 메뚜기:grasshopper
사마귀:mantis 나방:moth 올빼미:owl 황소:bull 당나귀:donkey 노루:roe_deer 멧돼지:boar
코뿔소:rhino 하이에나:hyena 들소:bison 물소:water_buffalo 순록:reindeer/p=reindeer
족제비:weasel 스컹크:skunk 오소리:badger 비버:beaver 카멜레온:chameleon 도마뱀:lizard 이구아나:iguana
두꺼비:toad 올챙이:tadpole 해파리:jellyfish/p=jellyfish 불가사리:starfish/p=starfish
고등어:mackerel/p=mackerel 연어:salmon 참치:tuna/p=tuna 장어:eel 가재:crayfish/p=crayfish
애벌레:caterpillar 벌레:bug 모기:mosquito/p=mosquitoes 파리:fly 반딧불이:firefly 딱따구리:woodpecker
제비:swallow 학:crane 펠리컨:pelican 플라밍고:flamingo 칠면조:turkey 기니피그:guinea_pig
알파카:alpaca 라마:llama 북극곰:polar_bear 바다사자:sea_lion
오랑우탄:orangutan 미어캣:meerkat 나무늘보:sloth
""",
    "fruit": """
사과:apple 바나나:banana 오렌지:orange 배:pear 포도:grapes/m/P 딸기:strawberry 수박:watermelon/c=통
복숭아:peach 레몬:lemon 귤:tangerine 망고:mango 체리:cherry 키위:kiwi 파인애플:pineapple
자두:plum 감:persimmon 참외:melon 블루베리:blueberry 라임:lime 코코넛:coconut 석류:pomegranate
무화과:fig 살구:apricot 아보카도:avocado 대추:jujube 호두:walnut 땅콩:peanut
자몽:grapefruit 유자:citron 모과:quince 리치:lychee 파파야:papaya
크랜베리:cranberry 라즈베리:raspberry 한라봉:hallabong 용과:dragon_fruit 올리브:olive
건포도:raisin 매실:green_plum
""",
    "vegetable": """
감자:potato 토마토:tomato 당근:carrot 양파:onion 오이:cucumber 호박:pumpkin 고추:pepper
버섯:mushroom 배추:napa_cabbage/c=- 무:radish 가지:eggplant 옥수수:ear_of_corn/p=ears_of_corn 브로콜리:broccoli/m
시금치:spinach/m 상추:lettuce/m 마늘:garlic/m 생강:ginger/m 파:green_onion/c=- 콩:bean
고구마:sweet_potato 양배추:cabbage/c=통 피망:bell_pepper 셀러리:celery/m 아스파라거스:asparagus/m
콩나물:bean_sprouts/m/P 깻잎:perilla_leaf/c=장 연근:lotus_root 완두콩:pea
애호박:zucchini 우엉:burdock_root 토란:taro 도라지:bellflower_root 고사리:bracken/m
부추:chives/m 방울토마토:cherry_tomato 미나리:water_parsley/m 비트:beet 순무:turnip 케일:kale/m
""",
    "dish": """
달걀:egg 빵:bread/m 밥:rice/m 국수:noodles/0/m/P 김치:kimchi/m 치즈:cheese/m 고기:meat/m
생선:fish/m 케이크:cake 쿠키:cookie 샌드위치:sandwich 피자:pizza 햄버거:hamburger
떡:rice_cake 만두:dumpling 수프:soup/m 샐러드:salad/m 사탕:candy 초콜릿:chocolate/m
아이스크림:ice_cream/m 버터:butter/m 소시지:sausage 도넛:donut 파이:pie 비빔밥:bibimbap/m
불고기:bulgogi/m 김밥:gimbap/m 떡볶이:tteokbokki/m 라면:ramen/m 된장찌개:soybean_paste_stew/m
김치찌개:kimchi_stew/m 카레:curry/m 스파게티:spaghetti/m 스테이크:steak 치킨:fried_chicken/m
팬케이크:pancake/c=장 와플:waffle 머핀:muffin 크루아상:croissant 베이글:bagel 토스트:toast/m
주먹밥:rice_ball 만둣국:dumpling_soup/m 죽:porridge/m 두부:tofu/m 햄:ham/m 베이컨:bacon/m
요구르트:yogurt/m 꿀:honey/m 잼:jam/m 과자:snack 젤리:jelly/m 푸딩:pudding/m 타코:taco
도시락:packed_lunch 오믈렛:omelet 핫도그:hot_dog 감자튀김:french_fries/m/P 팝콘:popcorn/m
떡국:rice_cake_soup/m 냉면:cold_noodles/0/m/P 순두부:soft_tofu_stew/m
갈비:galbi/m 삼겹살:pork_belly/m 잡채:japchae/m 순대:blood_sausage/m 어묵:fish_cake
호떡:hotteok 붕어빵:fish-shaped_bun 빙수:bingsu/m 파전:green_onion_pancake/c=장 갈비탕:short_rib_soup/m
삼계탕:ginseng_chicken_soup/m 미역국:seaweed_soup/m 볶음밥:fried_rice/m 짜장면:black_bean_noodles/0/m/P
짬뽕:spicy_seafood_noodles/0/m/P 우동:udon/m 초밥:sushi/m 타르트:tart 마카롱:macaron 브라우니:brownie
치즈케이크:cheesecake 시리얼:cereal/m 오트밀:oatmeal/m 스튜:stew/m
떡꼬치:rice_cake_skewer 꼬치:skewer 만두국수:dumpling_noodles/0/m/P 샤브샤브:shabu-shabu/m
""",
    "drink": """
물:water/m 우유:milk/m 커피:coffee/m 차:tea/m 주스:juice/m 콜라:cola/m 맥주:beer/m
와인:wine/m 녹차:green_tea/m 코코아:cocoa/m 레모네이드:lemonade/m 사이다:soda/m
오렌지_주스:orange_juice/m 사과_주스:apple_juice/m 홍차:black_tea/m 두유:soy_milk/m
식혜:sikhye/m 막걸리:makgeolli/m 소주:soju/m 생수:bottled_water/m 라떼:latte/m
스무디:smoothie/m 밀크셰이크:milkshake/m 보리차:barley_tea/m 수정과:cinnamon_punch/m
에스프레소:espresso/m 아메리카노:americano/m 캐모마일_차:chamomile_tea/m 유자차:citron_tea/m
생강차:ginger_tea/m 탄산수:sparkling_water/m 이온_음료:sports_drink/m 딸기_우유:strawberry_milk/m
""",
    "furniture": """
책상:desk 의자:chair 침대:bed 소파:sofa 탁자:table 옷장:wardrobe 책장:bookcase
서랍장:dresser 선반:shelf 식탁:dining_table 벤치:bench 거울:mirror 커튼:curtain
사다리:ladder 카펫:carpet/c=장 방석:cushion 흔들의자:rocking_chair 화장대:vanity 문:door
창문:window 서랍:drawer 액자:frame 난로:stove 냉장고:fridge/c=대
책꽂이:bookshelf/p=bookshelves 옷걸이:hanger 테이블보:tablecloth/c=장 매트리스:mattress
이불:comforter 칸막이:partition 해먹:hammock 장롱:chest
침대보:bedspread/c=장 탁상시계:desk_clock 의자_커버:chair_cover
""",
    "container": """
컵:cup 접시:plate 가방:bag 상자:box 바구니:basket 병:bottle 냄비:pot 그릇:bowl
주전자:kettle 물병:water_bottle 도시락통:lunch_bag 쟁반:tray 필통:pencil_case 봉투:envelope/c=장
지갑:wallet 배낭:backpack 여행_가방:suitcase 항아리:jar 양동이:bucket 머그잔:mug
유리잔:glass 찻잔:teacup 통:tub 프라이팬:frying_pan 상자곽:carton 주머니:pouch
우편함:mailbox 쓰레기통:trash_can 화분:flowerpot 물통:water_jug 바가지:gourd_dipper 캔:tin
""",
    "device": """
전화기:phone 컴퓨터:computer 카메라:camera 텔레비전:television 라디오:radio
노트북:laptop 태블릿:tablet 프린터:printer 선풍기:fan 에어컨:air_conditioner
세탁기:washing_machine 청소기:vacuum_cleaner 전자레인지:microwave 토스터:toaster
믹서기:blender 다리미:iron 로봇:robot 시계:clock/c=개 램프:lamp/c=개 손전등:flashlight/c=개
스피커:speaker 키보드:keyboard 마우스:computer_mouse/c=개 헤드폰:headphones/P/c=-
전기밥솥:rice_cooker 드라이기:hair_dryer 게임기:game_console 전자사전:electronic_dictionary
계산기:calculator 망원경:telescope 현미경:microscope 녹음기:recorder
""",
    "toy": """
공:ball 인형:doll 장난감:toy 풍선:balloon 연:kite 퍼즐:puzzle 블록:block 팽이:top
구슬:marble 곰_인형:teddy_bear 요요:yo-yo 장난감_차:toy_car 로봇_장난감:toy_robot 축구공:soccer_ball
야구공:baseball 농구공:basketball 줄넘기:jump_rope 딱지:ddakji/p=ddakji/c=장 비눗방울:bubble/c=- 주사위:die/p=dice
썰매:sled 장난감_총:toy_gun 물총:water_gun 종이비행기:paper_airplane 인형집:dollhouse
보드_게임:board_game 카드_게임:card_game/c=- 스케이트보드:skateboard
""",
    "accessory": """
모자:hat 열쇠:key 우산:umbrella 반지:ring 목걸이:necklace 손목시계:watch 안경:glasses/P/c=-
귀걸이:earring 팔찌:bracelet 넥타이:tie 벨트:belt 선글라스:sunglasses/P/c=-
머리띠:headband 브로치:brooch 손수건:handkerchief/c=장 양산:parasol 리본:ribbon 핀:hairpin
가발:wig 마스크:mask/c=장 지팡이:cane 배지:badge 장갑:gloves/P/c=-
""",
    "item": """
편지:letter/c=통 사진:photo/c=장 그림:picture/c=장 지도:map/c=장 표:ticket/c=장 선물:present 꽃병:vase 베개:pillow
담요:blanket/c=장 수건:towel/c=장 비누:soap/m 칫솔:toothbrush 치약:toothpaste/m 휴지:tissue/m
종이:paper/m 카드:card/c=장 엽서:postcard/c=장 이메일:email/a/c=통 메모:note/c=장 초대장:invitation/c=장
영수증:receipt/c=장
돌:stone 양초:candle 깃발:flag 동전:coin 돈:money/m 여권:passport/c=권
시:poem/a/c=- 보고서:report/c=- 숙제:homework/m/a 그림책:picture_book 포스터:poster/c=장
책갈피:bookmark 스티커:sticker/c=장 상장:certificate/c=장 메달:medal 트로피:trophy 열쇠고리:keychain
쪽지:message/c=장 도장:stamp 우표:postage_stamp/c=장 성냥:match 꽃다발:bouquet 선물_상자:gift_box
소포:parcel 택배_상자:delivery_box 그림엽서:picture_postcard/c=장
""",
    "tool": """
칼:knife 가위:scissors/P/c=- 연필:pencil/c=자루 펜:pen/c=자루 붓:brush/c=자루
망치:hammer 숟가락:spoon 포크:fork 젓가락:chopsticks/P/c=- 크레파스:crayon
지우개:eraser 자:ruler 톱:saw 삽:shovel 빗자루:broom 드라이버:screwdriver 렌치:wrench
못:nail 바늘:needle 실:thread/m 테이프:tape/m 풀:glue/m 도끼:axe 낫:sickle 국자:ladle
줄자:tape_measure 손톱깎이:nail_clipper 빗:comb 갈퀴:rake 물뿌리개:watering_can
돋보기:magnifying_glass/p=magnifying_glasses
""",
    "instrument": """
피아노:piano 기타:guitar 바이올린:violin 드럼:drum 플루트:flute 첼로:cello 트럼펫:trumpet
하모니카:harmonica 가야금:gayageum 장구:janggu 우쿨렐레:ukulele 색소폰:saxophone
오르간:organ 하프:harp 클라리넷:clarinet 실로폰:xylophone
""",
    "book": """
책:book 잡지:magazine 신문:newspaper/c=- 소설:novel 동화책:storybook 사전:dictionary
교과서:textbook 공책:notebook 만화책:comic_book 시집:poetry_book 요리책:cookbook
일기:diary/c=- 앨범:album 달력:calendar/c=개 일기장:journal 동시집:children's_poetry_book
백과사전:encyclopedia 여행책:travel_guide 위인전:biography 수필집:essay_collection 악보:score/c=장
역사책:history_book 과학책:science_book 그림일기:picture_diary/c=- 연습장:exercise_book
안내서:guidebook 교재:course_book 문제집:workbook 사진첩:photo_album
""",
    "vehicle": """
자동차:car 버스:bus 기차:train 자전거:bicycle 비행기:airplane 택시:taxi 트럭:truck
오토바이:motorcycle 지하철:subway/c=- 트랙터:tractor 보트:boat/c=척 요트:yacht/c=척
헬리콥터:helicopter 구급차:ambulance 소방차:fire_truck 스쿠터:scooter 킥보드:kickboard
전차:tram 마차:carriage 유모차:stroller
캠핑카:camper_van 리무진:limousine 잠수함:submarine 우주선:spaceship 열기구:hot-air_balloon
""",
    "place": """
학교:school/@at/b 공원:park 집:home/h 도서관:library/@at/b 시장:market/@at 가게:store/@at/b
식당:restaurant/@at/b 병원:hospital/@at/b 은행:bank/@at/b 부엌:kitchen/r 정원:garden
교실:classroom/r 사무실:office/r 호텔:hotel/@at/b 카페:cafe/@at/b 공항:airport/@at/b
역:station/@at/b 박물관:museum/@at/b 극장:theater/@at/b 바다:sea/@by 강:river/@by
산:mountain/@on 숲:forest 마을:village 도시:city 해변:beach/@on 농장:farm/@on
동물원:zoo/@at 수영장:swimming_pool/@at/b 교회:church/@at/b 빵집:bakery/@at/b
서점:bookstore/@at/b 우체국:post_office/@at/b 거실:living_room/r 방:room/r 호수:lake/@by
다리:bridge/@on/b 탑:tower/@at/b 성:castle/@at/b 운동장:playground/@on 미술관:art_gallery/@at/b
놀이터:playground/@at 체육관:gym/@at/b 경기장:stadium/@at/b 대학교:university/@at/b
유치원:kindergarten/@at/b 약국:pharmacy/@at/b 슈퍼마켓:supermarket/@at/b 백화점:department_store/@at/b
영화관:movie_theater/@at/b 주차장:parking_lot/@in/b 정류장:bus_stop/@at 항구:port/@at
섬:island/@on 사막:desert 계곡:valley 동굴:cave 언덕:hill/@on 들판:field 광장:square/@in
궁전:palace/@at/b 절:temple/@at/b 공장:factory/@at/b 회사:office/@at
욕실:bathroom/r 침실:bedroom/r 지하실:basement/r 다락방:attic/r 복도:hallway/r 마당:yard
베란다:balcony/@on/r 온실:greenhouse/b 헛간:barn/b 오두막:cabin/b 텐트:tent 캠프장:campsite/@at
도로:road/@on 길:street/@on 골목:alley 터널:tunnel/b 시청:city_hall/@at/b 경찰서:police_station/@at/b
소방서:fire_station/@at/b 법원:court/@at/b 감옥:prison/@in/b 미용실:hair_salon/@at/b
세탁소:laundry/@at/b 꽃집:flower_shop/@at/b 주유소:gas_station/@at/b 호텔_방:hotel_room/r
놀이공원:amusement_park/@at 수족관:aquarium/@at/b 식물원:botanical_garden/@at 캠퍼스:campus/@on
기숙사:dormitory/b 아파트:apartment/b 편의점:convenience_store/@at/b 빨래방:laundromat/@at/b
노래방:karaoke_room/b 피시방:internet_cafe/@at/b 헬스장:fitness_center/@at/b 스키장:ski_resort/@at
온천:hot_spring/@at 폭포:waterfall/@by 연못:pond/@by 분수:fountain/@by 골프장:golf_course/@on
테니스장:tennis_court/@on 야구장:ballpark/@at/b 축구장:soccer_field/@on 기차역:train_station/@at/b
버스_터미널:bus_terminal/@at/b 대사관:embassy/@at/b 도서실:reading_room/r 음악실:music_room/r
과학실:science_lab/r 창고:storeroom/r 차고:garage/r 옥상:rooftop/@on 과수원:orchard 논:rice_paddy
목장:ranch/@on 등대:lighthouse/@at/b 시계탑:clock_tower/@at/b
박람회장:fairground/@at/b 전시관:exhibition_hall/@at/b 문구점:stationery_store/@at/b
안경점:optician's/@at/b 정육점:butcher_shop/@at/b 생선_가게:fish_market/@at 철물점:hardware_store/@at/b
약수터:mineral_spring/@at 놀이방:playroom/r 식당칸:dining_car
""",
    "music": """
노래:song 동요:children's_song 자장가:lullaby 민요:folk_song 가요:pop_song 찬송가:hymn
교향곡:symphony 행진곡:march 아리아:aria 피아노곡:piano_piece 왈츠:waltz 캐럴:carol
발라드:ballad 오페라:opera/c=- 협주곡:concerto 소나타:sonata 트로트:trot_song
""",
    "plant": """
나무:tree 꽃:flower/c=송이 장미:rose/c=송이 해바라기:sunflower/c=송이 소나무:pine_tree
선인장:cactus/p=cacti 튤립:tulip/c=송이 백합:lily/c=송이 국화:chrysanthemum/c=송이
무궁화:rose_of_Sharon/p=roses_of_Sharon/c=송이 벚나무:cherry_tree 사과나무:apple_tree 단풍나무:maple_tree
대나무:bamboo/c=- 잔디:grass/m 풀잎:blade_of_grass/c=- 덩굴:vine/c=- 이끼:moss/m 버드나무:willow
은행나무:ginkgo_tree 야자나무:palm_tree 진달래:azalea/c=송이 개나리:forsythia/c=송이
민들레:dandelion/c=송이 난초:orchid/c=송이 연꽃:lotus/c=송이
갈대:reed/c=- 감나무:persimmon_tree 배나무:pear_tree 포도나무:grapevine 참나무:oak_tree
벚꽃:cherry_blossom/c=송이 수국:hydrangea/c=송이 라벤더:lavender/m
해초:seaweed/m 클로버:clover/c=- 담쟁이:ivy/m 고무나무:rubber_tree 올리브나무:olive_tree
""",
    "clothes": """
셔츠:shirt 바지:pants/P/c=- 치마:skirt 코트:coat 재킷:jacket 원피스:dress 스웨터:sweater
외투:overcoat 조끼:vest 청바지:jeans/P/c=- 블라우스:blouse 티셔츠:T-shirt 정장:suit
잠옷:pajamas/P/c=- 한복:hanbok 교복:school_uniform 비옷:raincoat 수영복:swimsuit
후드티:hoodie 반바지:shorts/P/c=- 카디건:cardigan 유니폼:uniform 드레스:gown 목도리:scarf/c=개
턱시도:tuxedo 앞치마:apron 우비:rain_poncho 점퍼:windbreaker 기모노:kimono 망토:cloak
""",
    "footwear": """
신발:shoes/P 양말:socks/P 운동화:sneakers/P 구두:dress_shoes/P
부츠:boots/P 슬리퍼:slippers/P 샌들:sandals/P 장화:rain_boots/P
스타킹:stockings/P
하이힐:high_heels/P 실내화:indoor_shoes/P
""",
    "martial": """
태권도:taekwondo/0 유도:judo/0 씨름:ssireum/0 요가:yoga/0 검도:kendo/0 합기도:hapkido/0
태극권:tai_chi/0 필라테스:Pilates/0
""",
    "subject": """
수학:math/0 영어:English/0 한국어:Korean/0 역사:history/0 과학:science/0 음악:music/0
미술:art/0 지리:geography/0 화학:chemistry/0 물리학:physics/0 중국어:Chinese/0
일본어:Japanese/0 프랑스어:French/0 독일어:German/0 스페인어:Spanish/0 생물학:biology/0
경제학:economics/0 철학:philosophy/0 문학:literature/0 체육:physical_education/0
천문학:astronomy/0 심리학:psychology/0 법학:law/0 의학:medicine/0 컴퓨터_과학:computer_science/0
사회:social_studies/0 윤리:ethics/0 통계학:statistics/0 건축학:architecture/0 요리:cooking/0
정치학:political_science/0 러시아어:Russian/0 아랍어:Arabic/0 베트남어:Vietnamese/0
고고학:archaeology/0
""",
    "sport": """
축구:soccer/0 야구:baseball/0 농구:basketball/0 테니스:tennis/0 배구:volleyball/0
탁구:table_tennis/0 골프:golf/0 체스:chess/0 바둑:baduk/0 배드민턴:badminton/0 하키:hockey/0
럭비:rugby/0
피구:dodgeball/0 당구:pool/0 카드놀이:cards/0/P 윷놀이:yunnori/0 장기:janggi/0
핸드볼:handball/0 크리켓:cricket/0 소프트볼:softball/0 아이스하키:ice_hockey/0
""",
}

# ko en frame subject [object] [irr=..] [prep=..] [with=..] [stat] [res=..]
#   frame: T transitive, I intransitive, M motion (place + 에), D ditransitive (에게 + 을/를),
#          R 에게 object only ("calls the girl", "talks to the girl")
#   subject: p person, a animal, pa both, or =ko,ko,... explicit nouns; after a comma the
#            animals it takes, as a spec (pa,beast,bird: people, land mammals and birds)
#   object: classes/groups, or =ko,ko,... explicit nouns; with=: classes or =nouns
#   to=: the places a motion verb goes to (default any); goal=: its goal's particle (에 by
#        default; (으)로 for a destination one moves to: 도시로 이사하다)
#   at=: the places of its place adjunct, where not any will do (등산하다: a mountain)
#   loc=: the particle of a place adjunct (에서 by default; 에 for a position: 공원에 앉다)
#   a multi-word ko (미소_짓다) is a noun + verb written apart: 미소 짓다, 미소 지었다
#   stat: no progressive, no place, no manner adverb; 찾다 is "find" in every tense (찾은
#         학생 "the student ... found"), never "look for", which its past would contradict
#   res=: a posture verb whose progressive is the resultative state -아/어 있다 (서 있다 "is
#         standing", not 서고 있다 "is standing up"), with the English verb of the state
VERB_TABLE = """
먹다 eat T p food,-raw_inedible,-밥 with=숟가락,포크,젓가락 at=eatery
먹다 eat T a,=말,소,돼지,양,토끼,원숭이,코끼리,염소,사슴,기린,하마,낙타,다람쥐,판다,얼룩말,햄스터,송아지,망아지,당나귀,기니피그,알파카,라마,고릴라,침팬지,오랑우탄,노루,거북이 fruit,-small_fruit,-레몬,-라임,-자몽,-유자,-매실,-코코넛,-올리브,=당근,배추,옥수수,상추,고구마,호박,오이,양배추,무 at=animal_place
먹다 eat T a,=개,강아지,고양이,호랑이,사자,곰,여우,늑대,북극곰,표범,치타,하이에나,악어 =고기,생선 at=animal_place
먹다 eat T a,=닭,병아리,오리,거위,비둘기,참새,까치 =빵,옥수수,콩,완두콩 at=animal_place
마시다 drink T p drink at=eatery
맛보다 taste T p dish,-밥,-달걀,=와인,막걸리,커피,녹차,홍차,식혜,수정과,스무디,아메리카노 at=eatery
주문하다 order T p dish,-밥,-김치,drink,-물 at=식당,카페,빵집,집,사무실,호텔,편의점,피시방
요리하다 cook T p cooked_dish at=kitchen
굽다 bake T p at=kitchen,빵집,카페 =빵,케이크,쿠키,파이,피자,머핀,크루아상,베이글,와플,팬케이크
만들다 make T p dish,-밥,-꿀,-달걀,-생선,-고기,toy,furniture,container at=workshop,kitchen
씻다 wash T p fruit,vegetable,-unwashed,-건포도,container at=kitchen
자르다 cut T p fruit,vegetable,cuttable,-small_fruit,-unsliced,-콩,-완두콩,-콩나물 with=칼 at=kitchen,교실
썰다 slice T p,-young fruit,vegetable,-small_fruit,-unsliced,-콩,-완두콩,-콩나물,=빵,고기,김밥,떡,치즈,햄,두부 with=칼 at=kitchen
사다 buy T p food,-밥,drink,thing,-personal_paper,book,clothes,footwear,plant,=자동차,자전거,오토바이,스쿠터,킥보드,유모차 at=shop
팔다 sell T p,-young,-client food,-밥,drink,thing,-personal_paper,book,clothes,footwear,plant,=자동차,자전거,오토바이,스쿠터,킥보드,유모차 at=shop
고르다 choose T p food,thing,book,clothes,footwear,flower,music at=가게,시장,백화점,슈퍼마켓,집
나르다 carry T p furniture,-fixture,container,item,book,toy at=집,방,거실,사무실,교실,창고,가게,마당,부엌
들다 lift T p furniture,-fixture,container,item,book,toy,instrument at=집,방,거실,사무실,교실,창고,가게,마당,부엌
옮기다 move T p furniture,-fixture,container,-봉투,-지갑,-필통,-주머니,-컵,-찻잔,-유리잔,instrument at=집,방,거실,사무실,교실,창고,마당
보다 see T pa,beast,bird person,animal,thing,vehicle,plant stat
구경하다 look_at T p vehicle,-잠수함,-우주선,-지하철,-전차,plant,-풀잎,-잔디,-이끼,-해초,animal,-bug,=그림,사진,포스터,인형집,로봇 at=가게,시장,백화점,박물관,공원,동물원,식물원,미술관
찾다 find T p person,animal,thing,book,clothes,footwear stat
잃어버리다 lose T p accessory,toy,item,-돌,tool,book,container at=공원,학교,시장,공항,역,도서관,극장,해변,놀이공원,집,버스_터미널
빌리다 borrow T p book,tool,accessory,device,own_vehicle,instrument at=도서관,학교,교실,사무실,집
고치다 fix T p,-infant device,furniture,own_vehicle,toy,accessory,-리본,-머리띠,-핀,instrument at=workshop
닦다 clean T p furniture,-해먹,-커튼,-카펫,-이불,-테이블보,-침대보,-매트리스,-방석,-의자_커버,-칸막이,container,device,own_vehicle,=버스,택시,구두,운동화,신발,부츠,장화,하이힐 at=home_room,사무실,차고,마당,식당,교실
청소하다 clean T p room loc=-
열다 open T p =문,창문,상자,가방,병,냉장고,서랍,지갑,선물,봉투,배낭,여행_가방,항아리,옷장,선물_상자,우편함 at=home_room,사무실,교실
닫다 close T p =문,창문,상자,가방,냉장고,서랍,책,배낭,여행_가방,옷장,노트북,우편함 at=home_room,사무실,교실
던지다 throw T p =공,축구공,야구공,농구공,인형,곰_인형,주사위,종이비행기,딱지,구슬,블록,풍선,돌,동전,장난감 at=공원,운동장,놀이터,마당,해변,들판
잡다 catch T p prey,=공,축구공,야구공,농구공,풍선,도둑 at=공원,운동장,마당,들판,숲,강,놀이터
차다 kick T p =공,축구공,돌 at=운동장,축구장,공원,마당,놀이터
줍다 pick_up T p item,toy,tool,accessory,book at=공원,길,해변,운동장,마당,교실,방,거실,숲
숨기다 hide T p item,-돈,-mundane,accessory,toy,-비눗방울,-풍선,-연,-썰매,-스케이트보드,book,container,-우편함,-쓰레기통,-양동이,-화분,-항아리,=돈 at=home_room,마당,교실,사무실,정원
그리다 draw T p person,animal,plant,fruit,vehicle,building with=연필,붓,크레파스,펜 at=집,방,교실,공원,정원,해변
칠하다 paint T p furniture,container,toy,-카드_게임,-보드_게임,-퍼즐,-비눗방울,=집,헛간,오두막 with=붓 loc=-
쓰다 write T p =편지,일기,소설,시,카드,보고서,엽서,메모,초대장 with=연필,펜 at=study_place,사무실
쓰다 write T p =이메일 at=집,방,사무실,회사,카페,도서관
쓰다 wear T p =모자,안경,선글라스,마스크,가발 at=집,방,거실
끼다 wear T p =장갑,반지 at=집,방,거실
읽다 read T p book,=편지,시,이메일,카드,보고서,엽서,메모,초대장,신문 at=집,방,거실,침실,도서관,도서실,교실,카페,공원,사무실
받다 receive T p item,-돌,book,accessory,toy,flower,=이메일 at=집,학교,교실,사무실,회사,우체국
입다 wear T p clothes at=집,방,침실,호텔_방,기숙사
신다 wear T p footwear at=집,방
벗다 take_off T p clothes,footwear,=모자,안경,장갑 at=집,방,침실,거실,호텔_방,기숙사
빨다 wash T p clothes,footwear,=수건,담요,손수건 at=집,욕실,빨래방,마당
접다 fold T p =종이,편지,수건,담요,우산 at=집,방,거실,침실,교실
켜다 turn_on T p device,=양초 at=home_room,사무실,교실
끄다 turn_off T p device,=양초 at=home_room,사무실,교실
치다 play T p =피아노,기타,드럼,장구,가야금 at=music_place
연주하다 play T p instrument at=music_place
연습하다 practice T p sport,martial at=sport_place
연습하다 practice T p music,instrument at=music_place
하다 play T p sport at=sport_place
하다 do T p martial at=체육관,학교,공원,헬스장
좋아하다 like T p person,animal,food,drink,thing,book,music,sport,subject,place,plant stat
싫어하다 hate T p person,animal,food,drink,book,music,sport,subject stat
사랑하다 love T p person,pet,tame stat
알다 know T p person,music,scenic,=학교,식당,카페,가게,병원,시장,서점,빵집 stat
믿다 trust T p person stat
기억하다 remember T p person,music,scenic,=학교,식당,카페,가게,병원,시장,서점,빵집 stat
기다리다 wait_for T p person,=버스,택시,기차,지하철 at=wait_place
만나다 meet T p person at=카페,식당,공원,학교,도서관,역,광장,집,회사,사무실
돕다 help T p person at=social,병원,가게,마을
부르다 sing T p music at=music_place
부르다 call T p person,-infant at=집,학교,교실,공원,마당,운동장
초대하다 invite T p,-young person loc=-
방문하다 visit T p loc=- building,-다리,-터널,visited
떠나다 leave T p loc=- =마을,도시,학교,사무실,호텔,공항,섬
건너다 cross T p loc=- =다리,강,길,도로,광장
오르다 climb T p loc=- =산,언덕,탑,사다리
듣다 listen_to T p music at=집,방,거실,카페,교실,음악실,공원
배우다 learn T p subject,music,sport,martial at=학교,교실,집,대학교,음악실
공부하다 study T p subject at=study_place
가르치다 teach D p,-young subject,music,sport,instrument,martial prep=to at=학교,교실,대학교,집,유치원
짓다 build T =목수,건축가 building at=마을,도시,섬
짓다 cook T p,-young =밥 at=kitchen
키우다 raise T p tame at=집,농장,마당,정원,목장
키우다 grow T p plant,-벚꽃,-풀잎 at=집,마당,정원,온실,농장
심다 plant T p plant,-벚꽃,-풀잎 at=정원,마당,공원,숲,산,온실,과수원,언덕,들판
찍다 photograph T p person,animal,plant,building,vehicle at=공원,해변,동물원,식물원,정원,마을,도시,광장,산,학교
안다 hug T p person,pet,=곰_인형,인형 at=집,거실,방,공원,공항,역,마당
깨우다 wake_up T p person,tame at=집,방,침실,거실,호텔_방,기숙사,텐트
씻기다 bathe T p,-young,-client =아기,아이,동생,어린이,아들,딸,손자,손녀,개,강아지,고양이 at=집,욕실,마당
업다 carry T p,-young,-client =아기,아이,동생,어린이,강아지 at=집,공원,마을,길,시장
밀다 push T p furniture,-fixture,-커튼,-카펫,-액자,=유모차,자전거 at=집,방,거실,사무실,교실
당기다 pull T p =문,서랍,의자,커튼,유모차 at=집,방,거실,교실,사무실
쫓다 chase T p person,beast,bird at=공원,마당,들판,숲,농장,운동장,길,골목,마을
물다 bite T a,predator,개,강아지,고양이,쥐,원숭이,햄스터,모기 person,tame at=animal_place
쪼다 peck T a,닭,병아리,참새,비둘기,까치,까마귀,딱따구리,앵무새,오리,거위,칠면조 peckable at=농장,마당,들판,공원,헛간,숲
따다 pick T p fruit,-건포도,-땅콩,=꽃,장미,벚꽃 at=과수원,농장,정원,마당,산,들판,온실,숲,언덕
까다 peel T p =양파,마늘,달걀,귤 at=kitchen
볶다 stir-fry T p at=kitchen vegetable,=고기,밥
끓이다 boil T p at=kitchen =물,수프,라면,국수
끓이다 make T p at=kitchen =차,보리차,생강차,유자차
데우다 heat_up T p hot_dish,hot_drink at=kitchen,사무실,편의점
나누다 share T p =사탕,과자,초콜릿,떡 at=eatery
포장하다 wrap T p =선물,상자,꽃다발,책,선물_상자 at=집,방,거실,가게,백화점,꽃집,사무실
배달하다 deliver T p,-young,-client,-pupil dish,=편지,신문,꽃다발,선물 loc=-
정리하다 organize T p =책장,책상,옷장,서랍,책꽂이,선반 at=집,방,거실,침실,사무실,교실
버리다 throw_away T p item,container,toy,dish at=집,부엌,방,사무실,교실,마당
깨뜨리다 break T p =창문,거울,꽃병,유리잔,접시,컵,병,그릇,머그잔,찻잔,항아리,화분 at=집,부엌,식당,카페,거실,방
만지다 touch T p thing,animal,plant at=가게,집,방,동물원,공원,농장,정원
구하다 rescue T p,-young person,animal at=강,바다,산,숲,호수,도로,길,해변,동굴,계곡,마을
치료하다 treat T =의사,간호사,치과의사 person at=병원,동물원,농장,집,목장
가져오다 bring T p thing,-fixture,book,food,drink,clothes loc=-
가져가다 take T p thing,-fixture,book,food,drink,clothes loc=-
훔치다 steal T p,-young accessory,item,device,=돈 at=가게,백화점,은행,박물관,시장,집,슈퍼마켓
수리하다 repair T p,-young,-client device,own_vehicle,=버스,택시 at=집,차고,공장,사무실,마당
조립하다 assemble T p =책상,의자,침대,책장,서랍장,선반,식탁,책꽂이,옷장,탁자,로봇,컴퓨터,장난감_차,로봇_장난감,인형집,자전거 at=집,방,거실,공장,차고,교실
디자인하다 design T p,-young,-client clothes,=포스터,카드,가방 at=사무실,회사,집,방
번역하다 translate T p,-young =책,소설,시,편지,이메일,보고서 at=사무실,회사,집,도서관,방,카페
복사하다 copy T p,-young =보고서,편지,지도,악보,숙제 at=사무실,회사,도서관,학교,편의점,교실
녹음하다 record T p music at=집,방,음악실,교회
응원하다 cheer_for T p person at=경기장,운동장,체육관,학교
칭찬하다 praise T p person,tame at=학교,교실,집,사무실,회사,운동장
놀리다 tease T p person,beast at=학교,교실,운동장,놀이터,집,마당,공원
쓰다듬다 pet T p tame,-금붕어 at=집,거실,공원,농장,마당,동물원,목장
먹이다 feed T p,-young beast,bird,=금붕어,거북이,아기 at=농장,동물원,마당,공원,집,목장,헛간
산책시키다 walk T p =개,강아지 at=공원,마을,길,해변,캠퍼스,광장,들판
자다 sleep I pa,beast,bird,legged_herp at=sleep_place
웃다 laugh I p at=laugh_place
울다 cry I p at=body_place
걷다 walk I pa,beast,bird,legged_herp at=outdoor
달리다 run I pa,beast,-slow_animal,타조,닭 at=공원,운동장,해변,들판,길,숲,마당,캠퍼스
놀다 play I pa,+child,beast,bird,sea_mammal at=play_place
쉬다 rest I pa at=집,방,거실,공원,침실,마당,해변,숲
기침하다 cough I pa,beast loc=-
하품하다 yawn I pa,beast loc=-
재채기하다 sneeze I pa,beast loc=-
떨다 shiver I pa,beast,bird at=공원,길,마당,들판,산,숲,정류장,해변,동굴
넘어지다 fall_down I pa,beast at=길,운동장,공원,마당,복도,놀이터,스키장,골목
샤워하다 take_a_shower I p at=욕실,호텔_방,체육관,헬스장,수영장,기숙사
목욕하다 take_a_bath I pa,beast,bird at=욕실,호텔_방,온천,강,호수,연못
출근하다 go_to_work I p,-nonworker loc=에 at=workplace
퇴근하다 leave_work I p,-nonworker at=workplace
등산하다 go_hiking I p loc=-
낚시하다 go_fishing I p at=water_place,-분수,-약수터,-온천,-폭포,=항구,섬,계곡
캠핑하다 go_camping I p at=산,숲,해변,계곡,캠프장,섬,호수,강
감추다 conceal T p item,accessory,toy,-비눗방울,-풍선,-연,-썰매,-스케이트보드 at=home_room,마당,교실,사무실,정원
흔들다 shake T p toy,container,=우산,깃발,손수건 at=집,방,공원,운동장,경기장,광장
꾸미다 decorate T p room,furniture,=케이크,선물_상자,나무 loc=-
뽑다 pull_out T p =못,풀잎,당근,무 at=마당,정원,농장,들판
튀기다 fry T p,-young at=kitchen vegetable,-콩,-콩나물,=생선,치킨,만두,감자튀김
일하다 work I p,-nonworker at=workplace,농장
춤추다 dance I p at=dance_place
수영하다 swim I p at=수영장,바다,강,호수,해변,계곡,연못
헤엄치다 swim I =개,오리,거위,물개,돌고래,고래,상어,거북이,개구리,금붕어,수달,백조,펭귄 at=바다,강,호수,연못,계곡,수족관
노래하다 sing I p at=music_place
기다리다 wait I pa,beast,bird at=body_place,정류장,역
숨다 hide I pa res=hide loc=에 at=hide_place
싸우다 fight I pa,beast,bird,legged_herp at=마당,공원,운동장,길,골목,숲,들판,놀이터
눕다 lie_down I pa,beast res=lie_down loc=에 at=lie_place
앉다 sit_down I pa,beast res=sit loc=에 at=sit_place
서다 stand I pa,beast res=stand loc=에 at=stand_place
일어나다 get_up I pa,beast at=wake_place
운동하다 exercise I p at=체육관,헬스장,공원,운동장,학교,경기장,집,캠퍼스
요리하다 cook I p at=kitchen
공부하다 study I p at=study_place
졸다 doze I pa,beast,bird at=집,거실,방,마당,공원,교실,도서관,사무실
미소_짓다 smile I p at=laugh_place
기도하다 pray I p at=교회,절,집,방,침실,산
여행하다 tour T p =도시,섬,마을 loc=-
산책하다 take_a_walk I p at=outdoor
떠들다 make_noise I p at=교실,복도,식당,카페,거실,운동장,공원
날다 fly I =새,독수리,비둘기,나비,부엉이,앵무새,참새,까치,까마귀,갈매기,박쥐,꿀벌,잠자리,나방 at=outdoor
짖다 bark I =개,강아지,늑대,여우 at=마당,집,공원,농장,들판,숲,길
뛰다 jump I pa,beast,-slow_animal,개구리,메뚜기,두꺼비 at=마당,공원,운동장,놀이터,들판,해변,숲
걱정하다 worry I p stat
청소하다 clean_up I p at=room,집,가게,식당
쇼핑하다 go_shopping I p at=시장,백화점,도시
가다 go M p prep=to with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
오다 come M p prep=to with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
돌아가다 go_back M p prep=to not_to=wild_place,water_place with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
돌아오다 come_back M p prep=to not_to=wild_place,water_place with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
들어가다 go M p prep=into to=building,room,-다리,=동굴,숲,텐트
들어오다 come M p prep=into to=building,room,-다리,=동굴,숲,텐트
도착하다 arrive M p prep=at goal=에
이사하다 move M p,-young prep=to to=home_place goal=(으)로
달려가다 run M p prep=to
걸어가다 walk M p prep=to
주다 give D p thing,-fixture,-furniture,book,food,drink,flower,clothes prep=to at=social
보내다 send D p thing,-fixture,-furniture,book,flower,=과자,떡,김치,초콜릿,사탕,=이메일 prep=to at=집,사무실,회사,우체국,학교
보여주다 show D p thing,-fixture,-furniture,book,flower,clothes,=숙제 prep=to at=social
빌려주다 lend D p,-young thing,-fixture,-furniture,-mundane,-perishable,book,clothes,own_vehicle,-트랙터 prep=to at=social
팔다 sell D p,-young,-client thing,-fixture,book,flower,=자동차,자전거,오토바이,스쿠터 prep=to at=shop
설명하다 explain D p,-young =지도,그림,사진,보고서,숙제 prep=to at=학교,교실,사무실,회사,도서관,집
소개하다 introduce D p,-young person,book,music prep=to at=social
전하다 hand D p =편지,선물,카드,메모,초대장,엽서,꽃 prep=to at=social
던져주다 toss D p =공,축구공,야구공,농구공,인형,곰_인형,열쇠 prep=to at=공원,운동장,마당,놀이터,해변
읽어주다 read D p =동화책,그림책,편지,시,소설,신문,엽서 prep=to at=집,방,거실,침실,교실,도서관,유치원
전화하다 call R p person prep= at=집,방,사무실,회사,카페,거실,공항,역
인사하다 greet R p person prep= at=학교,길,공원,교실,복도,사무실,회사,마을,가게
이야기하다 talk R p person prep=to at=social
화내다 get_angry R p person,tame prep=at at=집,방,거실,교실,사무실,회사,마당
소리치다 shout R p person,tame prep=at at=집,마당,공원,운동장,교실,길
질문하다 ask R p person prep= at=교실,학교,사무실,회사,도서관,병원
대답하다 answer R p person prep= at=교실,학교,사무실,회사,도서관,병원
미소_짓다 smile R p person,tame prep=at at=laugh_place
# what animals do, after the people's verbs (a level's cut keeps the latter)
마시다 drink T a,beast,bird =물 at=animal_place,water_place
마시다 drink T a,=고양이,강아지,송아지,망아지,돼지,염소 =우유 at=animal_place
찾다 find T a,pet pet_people,=공,장난감,인형 stat
잡다 catch T a,predator,고양이 prey at=wild
좋아하다 like T a,beast fruit,vegetable,=공,장난감,물,우유 stat
좋아하다 like T a,pet pet_people,animal stat
싫어하다 hate T a,pet person,animal stat
사랑하다 love T a,pet person stat
기다리다 wait_for T a,pet pet_people at=집,마당,공원,거실
쫓다 chase T a,predator,개,강아지,고양이 chased at=wild,공원
"""

# ko en nouns [irr=..] [phys]
#   nouns: classes/groups or =ko,ko,... explicit nouns, chosen so that the pair makes sense in
#          both languages (height only for what English calls tall: trees, towers, tall
#          furniture; "long" not for dogs; crispy only for crisp food)
#   pred: a predicate only (이모가 기쁘다), never attributive (기쁜 이모: 기분 좋은)
#   phys: describes a body (size, weight, colour, wear ...): never an abstract noun (/a: 이메일)
#   count: a size, said of counted things only, never of a mass noun (작은 마늘 "small garlic")
#   a multi-word ko (호기심_많다) is a noun + adjective: 호기심 많은 소년, 소년은 호기심이 많다
ADJECTIVE_TABLE = """
크다 big animal,thing,-paper,place,-바다,-사막,-들판,-논,-복도,-해변,vehicle,-지하철,plant,-ground_plant,clothes,fruit,vegetable phys count
작다 small animal,thing,-paper,place,-바다,-사막,-들판,-논,-복도,-해변,vehicle,-지하철,plant,-ground_plant,clothes,fruit,vegetable phys count
길다 long clothes,tool,-지우개,-손톱깎이,-돋보기,-물뿌리개,-풀,-국자,music,=소설,뱀,장어,악어,애벌레,도로,길,다리,터널,강,골목,복도,계곡
짧다 short clothes,tool,-지우개,-손톱깎이,-돋보기,-물뿌리개,-풀,-국자,music,=소설,시
높다 tall =나무,소나무,해바라기,벚나무,사과나무,단풍나무,버드나무,은행나무,야자나무,감나무,배나무,참나무,고무나무,올리브나무,옷장,책장,서랍장,책꽂이,사다리,시계탑,탑,성,등대,아파트,호텔,궁전,백화점
낮다 low =책상,의자,침대,소파,탁자,식탁,벤치,선반,다리,언덕
넓다 spacious room,building,-다리,-터널,-탑,-등대,-시계탑,=공원,운동장,마당,정원,광장,캠퍼스
좁다 narrow =길,도로,골목,복도,다리,계곡,터널,강
깊다 deep =강,호수,바다,계곡,동굴
얕다 shallow =강,호수,바다,연못
맑다 clear =강,호수,바다,연못
무겁다 heavy thing,-weightless,book,vehicle phys
가볍다 light thing,-fixture,-trivial,-mundane,-메모,-편지,-카드,-엽서,-초대장,book,clothes phys
두껍다 thick book,clothes,=담요,종이 phys
얇다 thin book,clothes,=담요,종이 phys
덥다 hot room,building,-site,-다리,-탑,-시계탑,-등대,-터널,-주차장,=사막,해변,도시,마을
춥다 cold room,building,-site,-다리,-탑,-시계탑,-등대,-터널,-주차장,=도시,마을,동굴
뜨겁다 hot hot_dish,hot_drink,=냄비,주전자,컵,그릇,머그잔,찻잔,프라이팬,물병,유리잔
차갑다 cold fruit,-small_fruit,dish,-hot_dish,-사탕,-꿀,-잼,-과자,-팝콘,-시리얼,-초콜릿,-버터,-젤리,drink,-hot_drink,=오이,토마토,방울토마토,물,우유,컵,물병,유리잔,머그잔,병,캔,통
따뜻하다 warm room,hot_dish,hot_drink,clothes,-수영복,-반바지,footwear,-샌들,-슬리퍼
시원하다 cool drink,-hot_drink,juicy_fruit,room,=계곡,숲,바다,강,해변
달다 sweet fruit,-sour_fruit,-small_fruit,-아보카도,-모과,sweet_food,sweet_drink
짜다 salty salty_food
맵다 spicy =고추,마늘,양파,생강,김치,떡볶이,라면,카레,김치찌개,짬뽕,순두부,볶음밥,불고기,타코,핫도그,소시지
시다 sour sour_fruit,=레모네이드,오렌지_주스,주스,요구르트,김치
싱겁다 bland salty_food,-햄,-베이컨,-소시지,-치즈,-감자튀김,-팝콘,-생선,-고기
맛있다 delicious food,-condiment,drink,-물,-생수,-탄산수
맛없다 tasteless food,-condiment,drink,-물,-생수,-탄산수 pred
신선하다 fresh fruit,vegetable,-건포도,=생선,우유,달걀
비싸다 expensive thing,-personal_paper,-perishable,food,book,clothes,footwear,vehicle,-지하철,-기차,-전차,plant,-ground_plant phys
싸다 cheap thing,-personal_paper,-perishable,food,book,clothes,footwear,vehicle,-지하철,-기차,-전차,plant,-ground_plant phys
새롭다 new book,-blank_book,-사전,-백과사전,music
낡다 old thing,-perishable,book,clothes,footwear,vehicle,building phys
깨끗하다 clean place,-open_land,thing,-비눗방울,-양초,-돈,-돌,clothes,footwear,own_vehicle,=버스,택시,기차,지하철 phys
더럽다 dirty place,-open_land,thing,-비눗방울,-양초,-돈,-돌,clothes,footwear,beast,own_vehicle,=버스,택시,기차,지하철 phys
조용하다 quiet place,person,beast
시끄럽다 noisy person,beast,bird,noisy_device,crowded_place,=교실,복도,운동장,도로,노래방
예쁘다 pretty pretty_animal,plant,-ground_plant,clothes,furniture,container,toy,accessory,footwear,=여자,소녀,아기,아이,딸,손녀,모델,꽃병,사진,그림,엽서,카드,포스터 phys
귀엽다 cute cute_animal,toy,=아기,아이,어린이,소년,소녀,동생,조카,손자,손녀,초등학생
아름답다 beautiful scenic,plant,-ground_plant,-선인장,-고무나무,music,=여자,소녀,모델,배우,무용가
멋지다 wonderful scenic,clothes,-잠옷,-앞치마,-우비,-비옷,vehicle,-유모차,-트랙터,building,-감옥,-주차장,-주유소,-빨래방,-세탁소,-철물점,-정육점,-경찰서,-소방서,-법원,-공장,-터널,-헛간,-시청,-대사관,music
친절하다 kind person,-도둑,-아기
착하다 nice person,-도둑
정직하다 honest person,-도둑,-아기
행복하다 happy person,beast,bird
슬프다 sad person,music,story_book,=시,편지
기쁘다 happy person pred
외롭다 lonely person,-infant,beast
심심하다 bored person pred
즐겁다 happy person pred
바쁘다 busy person,-young
피곤하다 tired person,beast,bird
배고프다 hungry person,beast,bird
목마르다 thirsty person,beast,bird
졸리다 sleepy person,beast,bird
아프다 sick person,beast,bird
건강하다 healthy healthy_person,beast,bird
강하다 strong =군인,선수,운동선수,장군,경호원,소방관,소방대원,호랑이,사자,곰,코끼리,고릴라,황소,말,코뿔소,들소,물소,북극곰,늑대,멧돼지,하마
약하다 weak =환자,노인,병아리,송아지,망아지
빠르다 fast animal,-slow_animal,-bug,vehicle,-유모차,-마차,-트랙터
느리다 slow slow_animal,=버스,트랙터,마차,자전거,전차
어렵다 difficult book,-blank_book,-만화책,-동화책,-그림책,-사진첩,subject,music
쉽다 easy book,-blank_book,-만화책,-동화책,-그림책,-사진첩,subject,music
재미있다 interesting book,-blank_book,-사전,-백과사전,-문제집,-악보,music,subject,sport
재미없다 boring book,-blank_book,-사전,-백과사전,-문제집,-악보,music,subject,sport
중요하다 important book,-만화책,-동화책,-그림책,subject,item,-mundane,-trivial
유명하다 famous scenic,story_book,-책,-그림책,music,=가수,배우,화가,작가,감독,교수,과학자,요리사,선수,시인,소설가,피아니스트,마술사,탐정,래퍼,작곡가,지휘자,성악가,유튜버,코미디언,모델,축구_선수,야구_선수,농구_선수,운동선수,아나운서
똑똑하다 smart person,beast,=앵무새,까마귀,돌고래
용감하다 brave person,-아기,beast
게으르다 lazy person,-young,-client,-honored,=고양이,개,곰,판다,코알라,나무늘보,돼지
부지런하다 diligent person,-young,-client,=개미,꿀벌
가난하다 poor person,-대통령,-사장,-집주인,-아기
부유하다 rich person,-아기
무섭다 scary predator,wild_place,-길,-도로,=책,소설,동화책,만화책,그림책,도둑,선생님,교장,사장,코치,장군,=거미,하이에나,멧돼지
위험하다 dangerous predator,wild_place,=오토바이,트럭,스쿠터,킥보드,헬리콥터,열기구,자동차,=거미,모기,하이에나,멧돼지,칼,가위,톱,도끼,낫,망치,바늘
안전하다 safe vehicle,=놀이터,마을,도로,길,다리,수영장
편하다 comfortable clothes,footwear,=자동차,버스,기차,택시,비행기,리무진,캠핑카,자전거,유모차,=의자,침대,소파,벤치,흔들의자,방석,매트리스,이불,해먹
불편하다 uncomfortable clothes,footwear,=의자,침대,소파,벤치,흔들의자,방석,매트리스
날씬하다 slim slim_person,=치타,사슴,노루,기린,여우
뚱뚱하다 fat beast
밝다 bright place,-동굴,-터널,-지하실,-감옥,-사막,-바다,-강,-산,=램프,손전등,양초,텔레비전,컴퓨터,전화기,노트북,태블릿
어둡다 dark clothes,=동굴,지하실,골목,숲,방,복도,터널,창고,다락방,헛간
둥글다 round fruit,-바나나,-파인애플,-망고,-아보카도,-땅콩,-건포도,-대추,-용과,-파파야,=탁자,식탁,거울,접시,그릇,쟁반,공,축구공,농구공,야구공,풍선,구슬,동전,시계,방석 phys
부드럽다 soft =스웨터,셔츠,티셔츠,잠옷,카디건,목도리,블라우스,후드티,원피스,=인형,곰_인형,공,풍선,빵,케이크,두부,순두부,푸딩,팬케이크,머핀,떡,베개,담요,수건,이불,방석
딱딱하다 hard =빵,떡,과자,쿠키,사탕,베이글,토스트,의자,침대,벤치,돌,베개
빨갛다 red thing,clothes,footwear,vehicle,=사과,딸기,체리,자두,석류,방울토마토,라즈베리,크랜베리,토마토,고추,피망,장미,튤립,꽃,꽃다발 phys
파랗다 blue thing,clothes,footwear,vehicle phys
노랗다 yellow thing,clothes,footwear,vehicle,=바나나,레몬,참외,망고,파인애플,자몽,유자,해바라기,개나리,민들레,튤립,꽃,장미 phys
하얗다 white thing,clothes,footwear,vehicle,=토끼,양,고양이,개,강아지,백조,거위,북극곰,장미,백합,국화,튤립,꽃,벚꽃,수국 phys
까맣다 black thing,clothes,footwear,vehicle,=고양이,개,강아지,까마귀,염소 phys
가깝다 nearby near_far
멀다 distant near_far
이상하다 strange person,animal,book,music
특별하다 special item,-mundane,-trivial,dish,-달걀,-밥,-버터,-꿀,-잼,book
평범하다 ordinary plain_person
훌륭하다 great book,-blank_book,-만화책,-문제집,-연습장,music,=선생님,의사,과학자,작가,화가,가수,요리사,교수,감독,배우,음악가,지휘자,작곡가,피아니스트,선수,운동선수,대통령,소설가,시인
호기심_많다 curious person,-부모님
조그맣다 tiny thing,animal,-huge_animal,plant,-ground_plant phys count
커다랗다 huge thing,-tiny_thing,animal,-tiny_animal,plant,-ground_plant,building phys count
소중하다 precious item,-mundane,book,accessory,=친구,아기,아들,딸,손자,손녀
신기하다 amazing device,toy,-mundane,-trivial,animal,=거울,상자,돌,지도,그림,사진,열쇠,지팡이,모자,망원경,현미경
복잡하다 complicated subject,device,-선풍기,-램프,-손전등,-다리미,-토스터,-마우스,-헤드폰,-스피커,=교과서,안내서,문제집,요리책,교재,사전,백과사전,지도
간단하다 simple =교과서,안내서,문제집,요리책,교재,샌드위치,샐러드,토스트,김밥,주먹밥,라면,볶음밥
튼튼하다 sturdy furniture,-textile,-거울,container,vehicle,footwear,-양말,-스타킹,-슬리퍼 phys
날카롭다 sharp =칼,가위,도끼,톱,바늘,낫
무디다 dull =칼,가위,도끼,톱,낫
향기롭다 fragrant =꽃,장미,해바라기,튤립,백합,국화,무궁화,진달래,개나리,민들레,난초,연꽃,벚꽃,수국,라벤더,소나무
고소하다 savory savory_food
바삭하다 crispy =과자,쿠키,팝콘,감자튀김,치킨,와플,토스트,파전,크루아상,도넛,호떡,붕어빵
쫄깃하다 chewy =떡,떡볶이,냉면,우동,라면,국수,젤리,만두,베이글,어묵,떡꼬치
상냥하다 friendly person,-young,-도둑
겸손하다 humble person,-young,-client,-도둑
엄격하다 strict =선생님,교수,코치,교장,감독,판사,장군,사장,부장,과장,팀장,아버지,어머니,할아버지,선배,선장,농구_코치,경비원
침착하다 calm person,-young,beast
수줍다 shy person,-infant,-honored,beast
화려하다 colorful clothes,=꽃,장미,튤립,궁전,백화점,호텔
"""

#: adjectives of one scale never describe one noun together (큰 작은 남자 "big small man"),
#: nor a subject together with its predicate ("the tall desk was low"); the dimensions form one
#: scale, so that no noun is "big long" either. An adjective not listed is a scale of its own.
ADJECTIVE_SCALES = {
    "dimension": "크다 작다 조그맣다 커다랗다 높다 낮다 길다 짧다 넓다 좁다 깊다 얕다 두껍다 얇다",
    "temperature": "뜨겁다 차갑다 덥다 춥다 따뜻하다 시원하다",
    "weight": "무겁다 가볍다",
    "age": "새롭다 낡다",
    "price": "비싸다 싸다",
    "cleanliness": "깨끗하다 더럽다",
    "noise": "조용하다 시끄럽다",
    "speed": "빠르다 느리다",
    "difficulty": "어렵다 쉽다 복잡하다 간단하다",
    "interest": "재미있다 재미없다",
    "taste": "맛있다 맛없다 달다 짜다 맵다 시다 싱겁다 고소하다",
    "strength": "강하다 약하다",
    "diligence": "부지런하다 게으르다",
    "wealth": "가난하다 부유하다",
    "safety": "위험하다 안전하다",
    "comfort": "편하다 불편하다",
    "brightness": "밝다 어둡다 화려하다",  # no "colorful dark jeans"
    "hardness": "부드럽다 딱딱하다 바삭하다 쫄깃하다",
    "distance": "가깝다 멀다",
    "sharpness": "날카롭다 무디다",
    "build": "날씬하다 뚱뚱하다",
    # passing states of a body or a mind: one per noun (no "sick healthy", "bored happy")
    "state": "행복하다 슬프다 기쁘다 즐겁다 외롭다 심심하다 건강하다 아프다 피곤하다 배고프다 "
             "목마르다 졸리다 바쁘다",
    "ordinariness": "평범하다 특별하다 이상하다 신기하다 훌륭하다",
    "colour": "빨갛다 파랗다 노랗다 하얗다 까맣다",
    "manner": "친절하다 상냥하다 엄격하다",
}

#: adjectives of a passing state (hot, tired, clean ...): only these take a time adverbial as a
#: predicate ("the room is hot today"); a lasting property does not ("the chair was low
#: yesterday", 어제 의자가 낮았다)
STAGE_ADJECTIVES = """
덥다 춥다 뜨겁다 차갑다 따뜻하다 시원하다 깨끗하다 더럽다 조용하다 시끄럽다 바쁘다 피곤하다
배고프다 목마르다 졸리다 아프다 건강하다 행복하다 슬프다 기쁘다 외롭다 심심하다 즐겁다
침착하다 밝다 어둡다 맑다 신선하다 맛있다 맛없다 달다 짜다 맵다 시다 싱겁다 고소하다
부드럽다 딱딱하다
"""

#: named noun sets, usable in verb and adjective specs like classes (see lexicon.resolve): the
#: selectional classes a Korean reader checks a pairing against (a pig drinks water, not tea)
#: the ages (살) a person noun is said with, "lo-hi": 아이 "child" is never 22, 노인 "old man"
#: never 8; a person noun not listed is an adult (20-80), a name any age
AGE_RANGES = """
아기:1-2 아이:3-12 어린이:4-12 초등학생:7-12 소년:8-17 소녀:8-17 청소년:13-18 학생:8-24
대학생:19-27 손자:3-30 손녀:3-30 아들:3-50 딸:3-50 동생:3-50 조카:3-30 후배:20-35 선배:23-45 인턴:20-30
노인:65-99 할머니:60-99 할아버지:60-99 어른:20-80 반장:9-18
"""

NOUN_SETS = {
    # people by what they can do: a baby is the subject of INFANT_VERBS only; young children
    # do not work, build or translate; customers, guests and patients are served, they do not
    # work or sell (고객이 일하다); pupils do not go to work (학생이 출근하다)
    "infant": "아기",
    "young": "아기 아이 어린이 초등학생",
    # who 놀다 "plays" (grown-ups do not: 남자가 놀았다, 팀장들이 놀았다 read as "played" of a
    # child, or as idling)
    "child": "아기 아이 어린이 초등학생 소년 소녀 학생 청소년 손자 손녀 아들 딸 동생 조카",
    "pupil": "학생 초등학생 청소년 소년 소녀 반장",
    "client": "손님 고객 관광객 승객 환자 방문객",
    "nonworker": "아기 아이 어린이 초등학생 학생 청소년 소년 소녀 반장 손님 고객 관광객 승객 환자 "
                 "방문객 도둑",
    # character adjectives (humble, friendly, calm, shy ...) are said of grown people, not of
    # a baby (겸손한 아기) nor a small child (겸손한 어린이)
    # people one visits (방문하다): not 어른 "an adult", not 졸린 가수
    "visited": "할머니 할아버지 어머니 아버지 부모님 이모 삼촌 고모 외삼촌 사촌 조카 친구 이웃 "
               "선생님 교수 환자",
    # fruits and vegetables one peels, breaks or picks apart, not slices (귤을 까다, not 썰다)
    "unsliced": "귤 한라봉 석류 리치 코코넛 포도 블루베리 체리 옥수수 시금치 상추 고사리 "
                "방울토마토 브로콜리 아스파라거스 콩나물",
    # fruits nobody washes before eating: their peel comes off (바나나를 씻다)
    "unwashed": "바나나 파인애플 코코넛 아보카도 귤 한라봉 리치 용과 파파야 땅콩 호두",
    # plants that grow as a cover or a mass: no size, price or weight (큰 잔디, 비싼 이끼)
    "ground_plant": "잔디 이끼 해초 담쟁이 클로버 덩굴 갈대 라벤더 풀잎",
    # soft furnishings: not sturdy (튼튼한 커튼)
    "textile": "커튼 카펫 테이블보 침대보 의자_커버 방석 이불 매트리스",
    # what is used up or gone soon: not old (낡은 휴지, 낡은 비눗방울)
    "perishable": "휴지 치약 비누 성냥 돌 양초 비눗방울 풍선 영수증",
    # what nobody calls important (중요한 베개)
    "trivial": "베개 담요 수건 꽃병 양초 스티커 책갈피 열쇠고리 비눗방울 선물_상자 휴지 치약 비누 "
               "칫솔 성냥 종이 영수증 돌",
    # seasonings and sour fruit nobody calls delicious or tasteless on its own (맛있는 마늘)
    "condiment": "레몬 라임 유자 매실 마늘 생강 고추 파 버터 잼 모과 꿀",
    # land mammals
    "beast": "개 고양이 말 소 돼지 양 쥐 토끼 호랑이 사자 곰 원숭이 코끼리 여우 늑대 염소 사슴 "
             "기린 하마 낙타 다람쥐 판다 얼룩말 강아지 고슴도치 너구리 캥거루 코알라 표범 치타 "
             "고릴라 침팬지 두더지 햄스터 송아지 망아지 황소 당나귀 노루 멧돼지 코뿔소 "
             "하이에나 들소 물소 순록 족제비 스컹크 오소리 비버 기니피그 알파카 라마 북극곰 "
             "오랑우탄 미어캣 나무늘보 수달",
    "bird": "새 닭 오리 거위 펭귄 앵무새 부엉이 독수리 비둘기 참새 까치 까마귀 갈매기 백조 공작 "
            "타조 병아리 올빼미 딱따구리 제비 학 펠리컨 플라밍고 칠면조",
    # reptiles and amphibians with legs
    "legged_herp": "거북이 개구리 악어 카멜레온 도마뱀 이구아나 두꺼비",
    "sea_mammal": "고래 돌고래 물개 바다사자",
    "water_animal": "고래 돌고래 물개 바다사자 상어 문어 오징어 게 새우 금붕어 해파리 불가사리 "
                    "고등어 연어 참치 장어 가재 올챙이",
    "bug": "나비 꿀벌 개미 거미 달팽이 무당벌레 잠자리 메뚜기 사마귀 나방 애벌레 벌레 모기 파리 "
           "반딧불이",
    # animals people keep, pet and feed by hand
    "tame": "개 고양이 강아지 토끼 햄스터 기니피그 말 망아지 소 송아지 양 염소 돼지 "
            "당나귀 알파카 라마 닭 병아리 오리 거위 앵무새 금붕어 거북이",
    "predator": "호랑이 사자 곰 늑대 여우 표범 치타 하이에나 악어 상어 독수리 부엉이 올빼미 "
                "북극곰 뱀",
    # animals that wait for, look for, love and are hugged by people
    "pet": "개 강아지 고양이 토끼 햄스터 기니피그",
    # what a predator or a person catches
    "prey": "쥐 토끼 다람쥐 참새 비둘기 나비 잠자리 메뚜기 개구리 고등어 연어 새우 게 장어 가재 "
            "문어 오징어 벌레 모기 파리 반딧불이 무당벌레",
    "slow_animal": "달팽이 거북이 나무늘보 코알라 애벌레 올챙이 해파리 불가사리 두꺼비 판다 하마",
    "nasty_animal": "모기 파리 벌레 거미 뱀 악어 상어 하이에나 멧돼지 스컹크 해파리",
    "small_fruit": "포도 체리 블루베리 땅콩 호두 대추 건포도 크랜베리 라즈베리 올리브 리치 매실",
    "juicy_fruit": "수박 참외 배 사과 오렌지 귤 자몽 키위 파인애플 포도 딸기 복숭아 한라봉 망고 "
                   "자두",
    "sour_fruit": "레몬 라임 자몽 귤 오렌지 키위 자두 매실 살구 석류 크랜베리 라즈베리 유자 "
                  "파인애플 한라봉",
    "hot_dish": "밥 국수 만두 수프 라면 된장찌개 김치찌개 카레 스파게티 스테이크 치킨 토스트 "
                "만둣국 죽 떡국 순두부 갈비탕 삼계탕 미역국 볶음밥 짜장면 짬뽕 우동 스튜 샤브샤브 "
                "피자 호떡 붕어빵 떡볶이 감자튀김 불고기 갈비 삼겹살 파전 오믈렛 핫도그 어묵 "
                "팬케이크 와플",
    "hot_drink": "물 우유 커피 차 녹차 코코아 홍차 두유 라떼 보리차 에스프레소 아메리카노 "
                 "캐모마일_차 유자차 생강차",
    "sweet_food": "케이크 쿠키 사탕 초콜릿 아이스크림 도넛 파이 꿀 잼 과자 젤리 푸딩 마카롱 "
                  "브라우니 치즈케이크 타르트 호떡 붕어빵 빙수 팬케이크 와플 머핀 떡 요구르트",
    "sweet_drink": "주스 콜라 사이다 코코아 레모네이드 오렌지_주스 사과_주스 식혜 라떼 스무디 "
                   "밀크셰이크 딸기_우유 수정과 유자차",
    "salty_food": "김치 라면 된장찌개 김치찌개 짬뽕 수프 만둣국 떡국 미역국 갈비탕 햄 베이컨 "
                  "소시지 치즈 감자튀김 어묵 생선 고기 순대 불고기 떡볶이 볶음밥 팝콘 짜장면 "
                  "우동 스튜 삼계탕 순두부",
    "savory_food": "빵 팝콘 삼겹살 갈비 불고기 파전 김밥 호떡 두부 과자 쿠키 땅콩 호두 두유 "
                   "볶음밥 잡채 주먹밥",
    # dishes one cooks (요리하다): not rice (밥을 하다 / 짓다), not sweets or drinks
    "cooked_dish": "고기 생선 스테이크 불고기 카레 스파게티 볶음밥 잡채 갈비 삼겹살 오믈렛 달걀 "
                   "된장찌개 김치찌개 수프 스튜 만두 떡볶이 치킨",
    # what one cuts with a knife or scissors
    "cuttable": "빵 케이크 피자 고기 스테이크 김밥 떡 치즈 파이 샌드위치 햄 소시지 두부 파전 "
                "타르트 치즈케이크 순대 삼겹살 갈비 브라우니 와플 종이 사진 그림 지도 포스터 "
                "카드 엽서 리본",
    # places one admires (beautiful, wonderful, famous), and dangerous or scary ones
    "scenic": "공원 정원 바다 강 산 숲 마을 도시 해변 호수 섬 계곡 언덕 들판 폭포 연못 궁전 성 "
              "절 교회 미술관 박물관 식물원 과수원 탑 다리 광장 동물원 놀이공원 수족관 온천 "
              "등대 캠퍼스 대학교 호텔",
    "wild_place": "동굴 숲 바다 강 산 사막 계곡 호수 폭포 골목 도로 길 터널 감옥 지하실",
    "water_place": "바다 강 호수 연못 폭포 분수 약수터 온천",
    # places a crowd fills
    "crowded_place": "시장 가게 식당 병원 은행 카페 공항 역 박물관 극장 해변 공원 동물원 수영장 "
                     "도서관 백화점 슈퍼마켓 영화관 기차역 버스_터미널 놀이공원 정류장 광장 "
                     "경기장 편의점",
    # places one moves to (이사하다)
    "home_place": "도시 마을 섬 아파트 기숙사",
    "chased": "쥐 토끼 다람쥐 참새 비둘기 나비 닭 병아리 오리 사슴 노루 양 염소 얼룩말 고양이",
    "peelable": "바나나 오렌지 귤 사과 배 복숭아 키위 망고 파인애플 감 자몽 한라봉 아보카도 석류 "
                "리치 용과 파파야 참외 땅콩 호두",
    "fixture": "문 창문 서랍 칸막이",
    # vegetables nobody eats raw or whole as they are (양파 다섯 개를 먹었다)
    "raw_inedible": "감자 양파 호박 고추 마늘 생강 파 가지 무 배추 버섯 고구마 연근 우엉 토란 도라지 "
                    "고사리 양배추 애호박 아스파라거스 브로콜리 시금치 콩 콩나물 완두콩 옥수수 "
                    "순무 비트 케일 미나리 부추 셀러리 피망",
    # everyday consumables: nothing special, important or precious
    "mundane": "휴지 치약 비누 칫솔 성냥 종이 영수증 돌",
    "workplace": "회사 사무실 은행 병원 학교 공장 가게 식당 시청 경찰서 소방서 우체국 호텔",
    "outdoor": "공원 숲 해변 마을 정원 강 호수 들판 캠퍼스 광장 길 언덕 산 마당 과수원 농장 계곡",
    # where people eat and drink, cook, shop; where animals eat
    "eatery": "집 부엌 식당 카페 공원 학교 교실 사무실 회사 기숙사 캠프장 해변 빵집 편의점 거실 "
              "마당 정원 놀이공원 동물원 기차역 호텔 피시방 노래방",
    # where one cooks a meal (not a bakery: nobody boils noodles there)
    "kitchen": "집 부엌 식당 캠프장 기숙사",
    "shop": "시장 가게 백화점 슈퍼마켓 편의점 빵집 서점 꽃집 문구점 안경점 정육점 생선_가게 철물점 "
            "약국 카페 공항 기차역",
    "animal_place": "농장 동물원 들판 숲 마당 정원 공원 산 집 목장 헛간 강 언덕",
    # where people and animals sleep
    "sleep_place": "집 방 침실 거실 호텔_방 호텔 텐트 기숙사 오두막 캠프장 공원 교실 도서실 숲 동굴 "
                   "농장 헛간 동물원 마당 다락방 기차역",
    # written or printed sheets: not "big" or "small" (큰 편지 "a big letter" reads oddly)
    "paper": "편지 메모 쪽지 영수증 초대장 엽서 상장 우표 스티커 종이 표 카드 그림엽서",
    # what nobody buys or sells: one's own letters, notes, homework, a stone
    "personal_paper": "편지 메모 쪽지 영수증 초대장 상장 보고서 숙제 돌",
    # flowers: what one gives, sends, receives (not a pine tree)
    "flower": "꽃 장미 해바라기 튤립 백합 국화 무궁화 진달래 개나리 민들레 난초 연꽃 수국 라벤더",
    # everyday rooms of a home
    "home_room": "집 방 거실 침실 부엌",
    # where people do things together (meet, give, help, call)
    "social": "집 학교 교실 사무실 회사 공원 카페 식당 거실 마당 도서관",
    "study_place": "도서관 학교 교실 집 방 도서실 카페 대학교 기숙사",
    "music_place": "집 방 거실 음악실 교실 교회 극장 노래방 공원 학교",
    "sport_place": "운동장 체육관 공원 경기장 학교 캠퍼스",
    "workshop": "집 방 거실 차고 마당 공장 창고 사무실 교실",
    "play_place": "공원 놀이터 운동장 마당 해변 들판 놀이공원 집 방 거실",
    "wait_place": "정류장 역 공항 기차역 버스_터미널 카페 공원 학교 병원 식당 집",
    "hide_place": "방 침실 다락방 지하실 창고 동굴 숲 헛간 마당 차고 텐트",
    # where one gets up (일어나다): where one sleeps the night, not a classroom or a library
    "wake_place": "집 방 침실 호텔_방 호텔 텐트 기숙사 오두막 헛간 동굴 숲",
    "sit_place": "공원 거실 방 교실 카페 식당 도서관 해변 정류장 마당 언덕 들판",
    "stand_place": "정류장 역 길 교실 복도 광장 공원 마당 기차역",
    "lie_place": "방 침실 거실 호텔_방 텐트 해변 공원 들판 기숙사 마당",
    # where people and animals alike walk, rest, cough (a body anywhere outside a shop)
    "body_place": "마당 공원 들판 숲 길 마을 운동장",
    "wild": "숲 들판 강 마당 농장 산 호수",
    # places that take "in"/"on" in English: "laughs at the store" would read "mocks it"
    "laugh_place": "집 거실 방 교실 공원 정원 마을 해변 운동장 광장 마당 사무실 부엌",
    "dance_place": "공원 광장 집 거실 방 체육관 교실 극장 노래방 해변 마당",
    # what a bird pecks
    "peckable": "벌레 애벌레 콩 옥수수 빵 사과 과자 완두콩",
    # vehicles a person owns, rents, lends, cleans or fixes (not a submarine, a spaceship, a
    # subway train: nobody borrows a submarine or washes a spaceship in the yard)
    "own_vehicle": "자동차 자전거 트럭 오토바이 스쿠터 킥보드 유모차 캠핑카 트랙터 보트",
    # books with a story or a text one reads through: sad, scary, famous, interesting ones
    # (not 슬픈 사전 "a sad dictionary", 무서운 요리책)
    "story_book": "책 소설 동화책 시집 만화책 위인전 수필집 동시집 그림책",
    # books one writes or sticks things in: nothing to read yet (훌륭한 공책, 유명한 달력)
    "blank_book": "공책 연습장 일기장 앨범 달력 사진첩 그림일기",
    # open land and nature: not said to be clean or dirty (깨끗한 공원, 깨끗한 들판), nor hot
    # as a whole; water (깨끗한 강, 바다) and streets (깨끗한 도시) are
    "open_land": "공원 산 숲 들판 언덕 사막 섬 논 과수원 목장 농장 골프장 스키장 캠퍼스 식물원 "
                 "놀이공원 동물원 정원 폭포 동굴 약수터 온천 계곡 운동장 축구장 테니스장 캠프장",
    # large sites and institutions that are not one room: not hot or cold as a whole (더운
    # 대학교, 추운 공항)
    "site": "학교 대학교 공항 경기장 야구장 주차장 박람회장 궁전 성 공장 시청 법원 대사관 경찰서 "
            "소방서 주유소 기차역 버스_터미널 역 전시관 병원 은행 백화점 감옥 수족관 기숙사 아파트",
    # places one travels to, far or near (먼 도시, 가까운 공원); not a room of a house or a
    # part of a building (저 먼 지하실, 먼 옥상)
    "near_far": "학교 공원 도서관 시장 가게 식당 병원 은행 호텔 카페 공항 역 박물관 극장 바다 강 산 "
                "숲 마을 도시 해변 농장 동물원 수영장 교회 빵집 서점 우체국 호수 다리 탑 성 "
                "미술관 놀이터 체육관 경기장 대학교 유치원 약국 슈퍼마켓 백화점 영화관 정류장 항구 "
                "섬 사막 계곡 동굴 언덕 광장 궁전 절 공장 회사 캠프장 시청 경찰서 소방서 "
                "미용실 세탁소 꽃집 주유소 놀이공원 수족관 식물원 아파트 편의점 빨래방 헬스장 "
                "스키장 온천 폭포 골프장 야구장 축구장 기차역 버스_터미널 대사관 과수원 목장 등대 "
                "박람회장 전시관 문구점 안경점 정육점 철물점 약수터",
    # animals too small to be "huge" (커다란 햄스터), and too big to be "tiny" (조그만 코끼리)
    "tiny_animal": "쥐 햄스터 기니피그 병아리 참새 금붕어 올챙이 달팽이 미어캣 다람쥐 "
                   "나비 꿀벌 개미 거미 무당벌레 잠자리 메뚜기 사마귀 나방 애벌레 벌레 모기 파리 반딧불이",
    "huge_animal": "코끼리 고래 기린 하마 코뿔소 북극곰 들소 물소 낙타 황소",
    # things too small to be "huge" (커다란 반지)
    "tiny_thing": "반지 귀걸이 핀 구슬 동전 못 바늘 주사위 배지 우표 성냥 책갈피 브로치 지우개",
    # what weighs next to nothing: not heavy (무거운 풍선)
    "weightless": "비눗방울 풍선 종이비행기 휴지 종이 깃발 스티커 우표 리본 손수건 마스크 연 "
                  "쪽지 메모 영수증 엽서 카드 초대장 책갈피",
    # animals people call pretty (예쁜 나비, 예쁜 고양이; not 예쁜 하마, 예쁜 고등어)
    "pretty_animal": "개 고양이 새 토끼 강아지 사슴 노루 다람쥐 앵무새 나비 금붕어 백조 공작 "
                     "플라밍고 무당벌레 반딧불이 말 망아지 잠자리 돌고래 얼룩말 여우 참새 제비 학 "
                     "햄스터 기니피그 알파카 병아리 오리",
    # animals people call cute (귀여운 판다; not 귀여운 독수리, 귀여운 코뿔소)
    "cute_animal": "개 고양이 토끼 햄스터 강아지 다람쥐 판다 코알라 펭귄 병아리 송아지 망아지 오리 "
                   "기니피그 알파카 라마 수달 미어캣 고슴도치 너구리 양 돼지 원숭이 나무늘보 "
                   "부엉이 올빼미 참새 앵무새 물개 돌고래 곰 캥거루 쥐 거북이 새",
    # devices that make a noise (시끄러운 청소기; not 시끄러운 계산기)
    "noisy_device": "선풍기 에어컨 세탁기 청소기 믹서기 드라이기 텔레비전 라디오 스피커 프린터 로봇 "
                    "게임기 냉장고 전자레인지 전화기 시계",
    # people held in respect, and people of rank: not lazy, not shy (게으른 할머니, 수줍은 장군)
    "honored": "선생님 손님 할머니 할아버지 신부님 스님 시장님 교장 교수 목사 수녀 대통령 "
               "장군 판사 사장 부장 과장 팀장 선장 경찰관 경호원 도둑",
    # people one would call healthy to pick them out (건강한 아기, 건강한 노인; not 건강한
    # 룸메이트, 건강한 편집자)
    "healthy_person": "아기 아이 어린이 노인 할머니 할아버지 아들 딸 손자 손녀 사람 남자 여자 선수 "
                      "운동선수 소년 소녀 쌍둥이",
    # people one calls slim (날씬한 모델; not 날씬한 어른, 날씬한 할아버지)
    "slim_person": "여자 소녀 모델 무용가 배우 아내 언니 누나 이모 고모 딸 손녀 가수 승무원 "
                   "남자 선수 운동선수",
    # people one calls ordinary (평범한 회사원; not 평범한 할아버지, 평범한 이모)
    # the people a pet waits for, looks for or likes: its family, not 상인 "a merchant"
    "pet_people": "아이 어린이 소년 소녀 할머니 할아버지 어머니 아버지 형 누나 오빠 언니 동생 "
                  "아들 딸 손자 손녀",
    "plain_person": "사람 남자 여자 학생 회사원 소년 소녀 대학생 시민 주민 공무원 은행원 직원 "
                    "청소년 아이",
}

#: the verbs a baby (NOUN_SETS "infant": 아기) is the subject of; any other verb takes every
#: person but babies (no 아기가 꾸민 다락방 "the attic the baby decorated")
INFANT_VERBS = """
먹다 마시다 보다 찾다 좋아하다 싫어하다 사랑하다 알다 안다 만지다 밀다 당기다 흔들다 깨뜨리다
벗다 듣다 자다 웃다 울다 걷다 놀다 기침하다 하품하다 재채기하다 떨다 넘어지다 목욕하다 눕다 앉다
서다 일어나다 졸다 미소_짓다
"""

#: what a person is said to possess (김민준의 가방, 소년의 강아지, 손님의 방): things, pets
#: and farm animals, clothes, one's own rooms, shop or farm, a private vehicle; not a public
#: place (손님의 체육관), a wild animal (소녀의 호랑이), public transport (김민준의 지하철),
#: nor what is used up (김민준의 휴지) or eaten (최서연의 딸기 reads as a random owner).
#: Kinship nouns take a possessor anyway.
POSSESSED = """tame,thing,-fixture,-trivial,book,clothes,footwear,flower,=방,침실,사무실,
차고,정원,마당,농장,가게,식당,카페,빵집,꽃집,오두막,텐트,아파트,과수원,목장,호텔_방,집,자동차,자전거,
오토바이,스쿠터,킥보드,보트,요트,트럭,캠핑카,유모차""".replace("\n", "")

#: the speaker-relative kin terms, by the gender of the one whose kin they are: a male
#: possessor's older brother is 형 and older sister 누나, a female possessor's 오빠 and 언니
#: (민준의 형, 서연의 오빠); each term maps to (its possessor's gender, the other gender's term)
KIN_GENDER = {
    "형": ("male", "오빠"),
    "누나": ("male", "언니"),
    "오빠": ("female", "형"),
    "언니": ("female", "누나"),
}

#: where an animal is found, by kind (the first set of ANIMAL_HABITAT_ORDER that holds the
#: animal): a place adjunct of a clause with an animal subject is one of these -- no owl in a
#: classroom, no penguin in a bookstore, no eagle dozing at home
ANIMAL_HABITATS = {
    "펭귄": "동물원 수족관 바다 해변",
    "박쥐": "동굴 숲 산",
    "pet": "집 방 거실 마당 공원 정원 길 들판 해변 마을",
    "water_animal": "바다 강 호수 연못 수족관 계곡 항구",
    "sea_mammal": "바다 수족관 해변 동물원",
    "bug": "정원 마당 공원 숲 들판 언덕 과수원 농장 산",
    "tame": "농장 목장 헛간 마당 들판 동물원 언덕 강 호수 연못",
    "bird": "숲 산 공원 들판 강 호수 정원 마당 언덕 동물원 해변 섬 농장",
    "legged_herp": "숲 강 호수 연못 동물원 들판 정원 마당 계곡",
    "animal": "숲 산 들판 강 호수 동물원 계곡 언덕 동굴",
}

#: the places a vehicle takes one to (a vehicle not listed: any place but a room or an
#: island): no plane to the library, no bus to an island
VEHICLE_GOALS = {
    "비행기": "공항 섬 도시",
    "헬리콥터": "공항 섬 병원 산",
    "보트": "섬 항구 바다 강 호수 해변",
    "요트": "섬 항구 바다 해변",
    "기차": "역 기차역 도시 마을 바다 산 해변 공항",
    # a road vehicle (bus, car, bicycle ...): none of these
    "*": "섬 사막 동굴 계곡 폭포 연못 분수 약수터 들판 논 과수원 바다 호수 강 옥상",
    "지하철": "역 기차역 공항 학교 도서관 시장 병원 은행 박물관 극장 백화점 영화관 회사 시청 "
              "대학교 공원 미술관 경기장 광장 동물원 놀이공원",
}

_BODY = "기침하다 하품하다 재채기하다 떨다 넘어지다 졸다 자다 울다 웃다 미소_짓다 걱정하다"
#: manner adverbs that fit only some verbs: "+verbs" (only these) or "-verbs" (all but these);
#: an adverb not listed fits every verb that takes a manner adverb. A verb is its Korean form
#: (every sense) or ko/en (쓰다/wear: that sense only, not 쓰다/write). _WEAR: "wear" is a state
#: in English -- 조심스럽게 꼈다 is "carefully put on", never "wore carefully" -- so the wear
#: verbs take only 다시, 자주, 가끔; 잃어버리다 "lose" is no act one does slowly or carefully
_WEAR = "입다 신다 끼다 쓰다/wear"
ADVERB_FIT = {
    "크게": "+웃다 울다 노래하다 부르다 소리치다 떠들다 짖다 기침하다 재채기하다 대답하다 "
            "인사하다 말하다 응원하다",
    "열심히": "+일하다 공부하다 연습하다 운동하다 배우다 청소하다 요리하다 춤추다 달리다 수영하다 "
              "헤엄치다 돕다 가르치다 정리하다 응원하다 심다 만들다 찾다 노래하다 고치다 닦다",
    "부지런히": "+일하다 공부하다 연습하다 청소하다 운동하다 배우다 정리하다 요리하다 나르다 심다 "
                "닦다 씻다 빨다 고치다",
    "힘차게": "+달리다 걷다 뛰다 헤엄치다 수영하다 노래하다 춤추다 던지다 차다 흔들다 밀다 당기다 "
              "응원하다 오르다 달려가다 걸어가다 날다",
    "편하게": "+자다 쉬다 앉다 눕다 기다리다 여행하다",
    "용감하게": "+싸우다 구하다 돕다 오르다 건너다 대답하다 들어가다",
    "친절하게": "+돕다 가르치다 설명하다 대답하다 인사하다 소개하다 주다 보여주다 빌려주다 "
                "초대하다 이야기하다 질문하다 읽어주다 치료하다",
    "행복하게": "+웃다 노래하다 춤추다 놀다 미소_짓다 부르다 여행하다 산책하다",
    "기쁘게": "+받다 돕다 초대하다 웃다 노래하다 춤추다 미소_짓다 인사하다 대답하다",
    "슬프게": "+울다 노래하다 부르다 미소_짓다 떠나다",
    "느긋하게": "+걷다 산책하다 쉬다 먹다 마시다 여행하다 수영하다 헤엄치다 기다리다 맛보다 읽다 "
                "듣다 구경하다",
    "살짝": "+물다 만지다 안다 밀다 당기다 쓰다듬다 미소_짓다 열다 닫다 깨우다 흔들다 맛보다 "
            "접다 누르다 차다 던지다",
    "조심스럽게": "-" + _BODY + " 놀다 떠들다 소리치다 화내다 짖다 울다 싸우다 쉬다 기다리다 "
                  "오다 가다 돌아오다 돌아가다 도착하다 이사하다 먹다 마시다 주문하다 사다 "
                  "달려가다 걸어가다 "
                  "춤추다 노래하다 기도하다 일하다 출근하다 퇴근하다 인사하다 응원하다 칭찬하다 "
                  "놀리다 좋아하다 잃어버리다 깨뜨리다 만나다 물다 하다 듣다 나누다 쇼핑하다 "
                  "캠핑하다 등산하다 여행하다 산책하다 전화하다 부르다 빌리다 샤워하다 씻다 " + _WEAR,
    "빨리": "-" + _BODY + " 사다 기다리다 쉬다 기도하다 떠들다 놀다 사랑하다 응원하다 칭찬하다 맛보다 "
            "노래하다 부르다 공부하다 연습하다 배우다 여행하다 산책하다 춤추다 일하다 "
            "낚시하다 캠핑하다 쇼핑하다 초대하다 방문하다 구경하다 잃어버리다 만나다 하다 듣다 "
            "키우다 나누다 등산하다 싸우다 짖다 소리치다 " + _WEAR,
    "재빨리": "-" + _BODY + " 기다리다 쉬다 기도하다 떠들다 놀다 노래하다 춤추다 공부하다 일하다 "
              "여행하다 산책하다 응원하다 칭찬하다 운동하다 연습하다 배우다 잃어버리다 만나다 "
              "키우다 짓다 치다 연주하다 하다 듣다 구경하다 나누다 디자인하다 번역하다 초대하다 "
              "방문하다 등산하다 낚시하다 캠핑하다 쇼핑하다 출근하다 퇴근하다 싸우다 짖다 도착하다 "
              "이사하다 전화하다 화내다 소리치다 부르다 빌리다 " + _WEAR,
    "천천히": "-" + _BODY + " 떠들다 소리치다 짖다 싸우다 기도하다 응원하다 칭찬하다 화내다 "
              "놀리다 노래하다 부르다 공부하다 일하다 기다리다 쉬다 놀다 연습하다 운동하다 "
              "가르치다 배우다 사랑하다 좋아하다 싫어하다 기억하다 믿다 알다 전화하다 "
              "초대하다 방문하다 여행하다 쇼핑하다 낚시하다 캠핑하다 출근하다 퇴근하다 "
              "보내다 주다 빌려주다 팔다 사다 주문하다 끓이다 소개하다 전하다 만나다 잃어버리다 "
              "깨뜨리다 받다 잡다 차다 물다 하다 듣다 키우다 쫓다 나누다 배달하다 구하다 숨다 뛰다 "
              "도착하다 이사하다 빌리다 " + _WEAR,
    "조용히": "-미소_짓다 떠들다 소리치다 짖다 화내다 응원하다 싸우다 기침하다 재채기하다 넘어지다 달리다 "
            "뛰다 달려가다 잃어버리다 도착하다 키우다 " + _WEAR,
    "혼자": "-" + _BODY + " 싸우다 떠들다 이야기하다 인사하다 전화하다 화내다 소리치다 질문하다 "
            "대답하다 주다 보내다 보여주다 빌려주다 팔다 설명하다 소개하다 전하다 던져주다 "
            "읽어주다 가르치다 돕다 응원하다 칭찬하다 맛보다 잃어버리다 받다 물다 " + _WEAR,
    "몰래": "-기침하다 하품하다 재채기하다 떨다 넘어지다 졸다 자다 떠들다 소리치다 짖다 화내다 "
            "응원하다 인사하다 출근하다 퇴근하다 잃어버리다 등산하다 도착하다 " + _WEAR,
    # (not 자다: 늦게 자다 is "go to bed late", not "sleep late" -- that is sleeping in)
    "일찍": "+출근하다 퇴근하다 일어나다 오다 가다 도착하다 돌아오다 돌아가다 떠나다 일하다 "
            "먹다 등산하다 산책하다 운동하다",
    "늦게": "+출근하다 퇴근하다 일어나다 오다 가다 도착하다 돌아오다 돌아가다 떠나다 일하다 "
            "먹다 등산하다 공부하다",
    "바로": "-" + _BODY + " 기다리다 쉬다 놀다 떠들다 기도하다 도착하다 잃어버리다 키우다 "
            "등산하다 여행하다 " + _WEAR,
    "갑자기": "-기다리다 쉬다 기도하다 공부하다 일하다 여행하다 산책하다 연습하다 키우다 자다 짓다 "
              "디자인하다 번역하다 " + _WEAR,
    "자주": "-넘어지다",
    "가끔": "-넘어지다",
}

ADVERB_TABLE = """
빨리:quickly 천천히:slowly 조용히:quietly 다시:again 혼자:alone 조심스럽게:carefully
행복하게:happily 일찍:early 늦게:late 몰래:secretly 자주:often 가끔:sometimes
슬프게:sadly 기쁘게:gladly 부지런히:diligently 용감하게:bravely 친절하게:kindly
갑자기:suddenly 크게:loudly 편하게:comfortably 열심히:hard 바로:right_away
살짝:gently 재빨리:swiftly 힘차게:vigorously 느긋하게:leisurely
"""

SURNAMES = """
김:Kim 이:Lee 박:Park 최:Choi 정:Jung 강:Kang 조:Cho 윤:Yoon 장:Jang 임:Lim 한:Han 오:Oh
서:Seo 신:Shin 권:Kwon 황:Hwang 안:Ahn 송:Song 류:Ryu 홍:Hong 전:Jeon 고:Ko 문:Moon
양:Yang 손:Son 배:Bae 백:Baek 허:Heo 남:Nam 노:Noh 유:Yoo 구:Koo 우:Woo 진:Jin
차:Cha 주:Joo
"""

GIVEN_NAMES = """
민준:Minjun 서연:Seoyeon 지우:Jiwoo 하은:Haeun 도윤:Doyun 서준:Seojun 지호:Jiho 수빈:Subin
예린:Yerin 현우:Hyunwoo 지민:Jimin 유진:Yujin 은지:Eunji 준호:Junho 민서:Minseo 하늘:Haneul
소연:Soyeon 동현:Donghyun 영희:Younghee 철수:Cheolsu 수아:Sua 시우:Siwoo 지아:Jia 예준:Yejun
주원:Juwon 하준:Hajun 건우:Gunwoo 우진:Woojin 선우:Sunwoo 연우:Yeonwoo 유준:Yujun 정우:Jungwoo
승우:Seungwoo 승현:Seunghyun 시윤:Siyun 준서:Junseo 지훈:Jihun 민재:Minjae 현준:Hyunjun
도현:Dohyun 채원:Chaewon 다은:Daeun 윤서:Yunseo 서윤:Seoyun 지유:Jiyu 서아:Seoa 하윤:Hayun
지안:Jian 소율:Soyul 예은:Yeeun 수민:Sumin 지원:Jiwon 민지:Minji 혜진:Hyejin 미영:Miyoung
성민:Sungmin 재현:Jaehyun 태민:Taemin 상우:Sangwoo 경수:Kyungsoo 나연:Nayeon 보라:Bora
태윤:Taeyun 은서:Eunseo 하린:Harin 가은:Gaeun 지윤:Jiyun 수호:Suho 민규:Mingyu 동훈:Donghun
영수:Youngsu 상민:Sangmin 혜원:Hyewon 진영:Jinyoung 은비:Eunbi 소희:Sohee 민호:Minho 재민:Jaemin
윤아:Yoona 태희:Taehee 경민:Kyungmin 재원:Jaewon 세진:Sejin 다현:Dahyun 유나:Yuna 하람:Haram
누리:Nuri 온유:Onyu 서진:Seojin 도영:Doyoung 은우:Eunwoo
"""
