"""Lexicon data tables (see :mod:`companion.data.kosynth.lexicon` for the format).

Noun items are ``ko:en`` with flags after ``/``: ``m`` mass, ``0`` zero article, ``p=X``
plural, ``c=X`` counter (``c=-``: not counted), ``@at``/``@on``/``@by`` place preposition,
``b`` building (can be built), ``r`` room (can be cleaned), ``h`` home.
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
소년:boy 소녀:girl 남자:man 여자:woman 아이:child 학생:student 선생님:teacher 의사:doctor
간호사:nurse 경찰관:police_officer 요리사:cook 농부:farmer 가수:singer 화가:painter
작가:writer 기자:reporter 군인:soldier 운전사:driver 손님:guest 친구:friend 아기:baby
할머니:grandmother 할아버지:grandfather 어머니:mother 아버지:father 형:older_brother
누나:older_sister 동생:younger_sibling 이웃:neighbor 사람:person 노인:old_man
어부:fisherman 배우:actor 감독:director 교수:professor 과학자:scientist 변호사:lawyer
판사:judge 소방관:firefighter 우체부:mail_carrier 점원:clerk 사장:boss 직원:employee
선수:player 코치:coach 왕:king 여왕:queen 공주:princess 왕자:prince 도둑:thief
관광객:tourist 승객:passenger 주인:owner 이발사:barber 제빵사:baker 건축가:architect
엔지니어:engineer 비서:secretary 통역사:interpreter 조종사:pilot 음악가:musician
삼촌:uncle 이모:aunt 사촌:cousin 손자:grandson 손녀:granddaughter 아들:son 딸:daughter
남편:husband 아내:wife 언니:sister 오빠:brother 부모:parent 신부:bride 신랑:groom
대학생:college_student 초등학생:schoolchild 교장:principal 사서:librarian 약사:pharmacist
치과의사:dentist 수의사:vet 정원사:gardener 목수:carpenter 어린이:kid 청소년:teenager
회사원:office_worker 은행원:bank_clerk 미용사:hairdresser 사진작가:photographer
디자이너:designer 프로그래머:programmer 시인:poet 소설가:novelist 피아니스트:pianist
바이올리니스트:violinist 무용가:dancer 마술사:magician 광대:clown 탐정:detective
선장:captain 선원:sailor 기사:knight 장군:general 대통령:president 시장님:mayor
상인:merchant 웨이터:waiter 웨이트리스:waitress 승무원:flight_attendant
경비원:guard 청소부:cleaner 배달원:delivery_worker 우주비행사:astronaut 발명가:inventor
탐험가:explorer 등산객:hiker 낚시꾼:angler 사냥꾼:hunter 목동:shepherd 어른:adult
환자:patient 고객:customer 방문객:visitor 주민:resident 시민:citizen 동료:colleague
반장:class_president 후배:junior 선배:senior 룸메이트:roommate
농구선수:basketball_player 축구선수:soccer_player 야구선수:baseball_player 수영선수:swimmer
가이드:guide 번역가:translator 편집자:editor 연구원:researcher 회계사:accountant 택배기사:courier
버스기사:bus_driver 택시기사:taxi_driver 기관사:train_driver 조카:nephew 고모:aunt_on_the_father's_side
외삼촌:maternal_uncle 쌍둥이:twin 래퍼:rapper 작곡가:composer 지휘자:conductor 성악가:opera_singer
기타리스트:guitarist 드러머:drummer 모델:model 코미디언:comedian 아나운서:announcer 유튜버:YouTuber
과장:manager 부장:department_head 팀장:team_leader 인턴:intern 마법사:wizard 요정:fairy 거인:giant
해적:pirate 신부님:priest 스님:monk 수녀:nun 목사:pastor 학자:scholar
소방대원:rescue_worker 농구코치:basketball_coach 천사:angel 영웅:hero
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
햄스터:hamster 새끼고양이:kitten 송아지:calf 망아지:foal 병아리:chick 꿀벌:bee 개미:ant
거미:spider 달팽이:snail 무당벌레:ladybug 잠자리:dragonfly 메뚜기:grasshopper
사마귀:mantis 나방:moth 올빼미:barn_owl 황소:bull 당나귀:donkey 노루:roe_deer 멧돼지:boar
코뿔소:rhino 하이에나:hyena 들소:bison 물소:water_buffalo 순록:reindeer/p=reindeer
족제비:weasel 스컹크:skunk 오소리:badger 비버:beaver 카멜레온:chameleon 도마뱀:lizard 이구아나:iguana
두꺼비:toad 올챙이:tadpole 해파리:jellyfish/p=jellyfish 불가사리:starfish/p=starfish
고등어:mackerel/p=mackerel 연어:salmon 참치:tuna/p=tuna 장어:eel 가재:crayfish/p=crayfish
애벌레:caterpillar 벌레:bug 모기:mosquito/p=mosquitoes 파리:fly 반딧불이:firefly 딱따구리:woodpecker
제비:swallow 학:crane 펠리컨:pelican 플라밍고:flamingo 칠면조:turkey 기니피그:guinea_pig
알파카:alpaca 라마:llama 북극곰:polar_bear 바다사자:sea_lion
사마귀새끼:young_mantis 참새새끼:baby_sparrow 오랑우탄:orangutan 미어캣:meerkat 나무늘보:sloth
""",
    "fruit": """
사과:apple 바나나:banana 오렌지:orange 배:pear 포도:grape 딸기:strawberry 수박:watermelon
복숭아:peach 레몬:lemon 귤:tangerine 망고:mango 체리:cherry 키위:kiwi 파인애플:pineapple
자두:plum 감:persimmon 참외:melon 블루베리:blueberry 라임:lime 코코넛:coconut 석류:pomegranate
무화과:fig 살구:apricot 아보카도:avocado 대추:jujube 호두:walnut 땅콩:peanut
자몽:grapefruit 유자:citron 모과:quince 리치:lychee 파파야:papaya 앵두:cherry_tomato
크랜베리:cranberry 라즈베리:raspberry 한라봉:hallabong 용과:dragon_fruit 올리브:olive
건포도:raisin 매실:green_plum
""",
    "vegetable": """
감자:potato 토마토:tomato 당근:carrot 양파:onion 오이:cucumber 호박:pumpkin 고추:pepper
버섯:mushroom 배추:napa_cabbage 무:radish 가지:eggplant 옥수수:ear_of_corn/p=ears_of_corn 브로콜리:broccoli/m
시금치:spinach/m 상추:lettuce/m 마늘:garlic/m 생강:ginger/m 파:green_onion 콩:bean
고구마:sweet_potato 양배추:cabbage 피망:bell_pepper 셀러리:celery/m 아스파라거스:asparagus/m
콩나물:bean_sprouts/m/P 깻잎:perilla_leaf 연근:lotus_root 도토리:acorn 완두콩:pea
애호박:zucchini 우엉:burdock_root 토란:taro 도라지:bellflower_root 고사리:bracken/m
부추:chive 미나리:water_parsley/m 비트:beet 순무:turnip 케일:kale/m
""",
    "dish": """
달걀:egg 빵:bread/m 밥:rice/m 국수:noodles/0/m/P 김치:kimchi/m 치즈:cheese/m 고기:meat/m
생선:fish/m 케이크:cake 쿠키:cookie 샌드위치:sandwich 피자:pizza 햄버거:hamburger
떡:rice_cake 만두:dumpling 수프:soup/m 샐러드:salad/m 사탕:candy 초콜릿:chocolate/m
아이스크림:ice_cream/m 버터:butter/m 소시지:sausage 도넛:donut 파이:pie 비빔밥:bibimbap/m
불고기:bulgogi/m 김밥:gimbap/m 떡볶이:tteokbokki/m 라면:ramen/m 된장찌개:soybean_paste_stew/m
김치찌개:kimchi_stew/m 카레:curry/m 스파게티:spaghetti/m 스테이크:steak 치킨:fried_chicken/m
팬케이크:pancake 와플:waffle 머핀:muffin 크루아상:croissant 베이글:bagel 토스트:toast/m
주먹밥:rice_ball 만둣국:dumpling_soup/m 죽:porridge/m 두부:tofu/m 햄:ham/m 베이컨:bacon/m
요구르트:yogurt/m 꿀:honey/m 잼:jam/m 과자:snack 젤리:jelly/m 푸딩:pudding/m 타코:taco
도시락:lunch_box 오믈렛:omelet 핫도그:hot_dog 감자튀김:french_fries/m/P 팝콘:popcorn/m
떡국:rice_cake_soup/m 냉면:cold_noodles/0/m/P 순두부:soft_tofu_stew/m
갈비:galbi/m 삼겹살:pork_belly/m 잡채:japchae/m 순대:blood_sausage/m 어묵:fish_cake
호떡:hotteok 붕어빵:fish-shaped_bun 빙수:bingsu/m 파전:green_onion_pancake 갈비탕:short_rib_soup/m
삼계탕:ginseng_chicken_soup/m 미역국:seaweed_soup/m 볶음밥:fried_rice/m 짜장면:black_bean_noodles/0/m/P
짬뽕:spicy_seafood_noodles/0/m/P 우동:udon/m 초밥:sushi/m 타르트:tart 마카롱:macaron 브라우니:brownie
치즈케이크:cheesecake 시리얼:cereal/m 오트밀:oatmeal/m 스튜:stew/m
떡꼬치:rice_cake_skewer 꼬치:skewer 만두국수:dumpling_noodles/0/m/P 샤브샤브:shabu-shabu/m
""",
    "drink": """
물:water/m 우유:milk/m 커피:coffee/m 차:tea/m 주스:juice/m 콜라:cola/m 맥주:beer/m
와인:wine/m 녹차:green_tea/m 코코아:cocoa/m 레모네이드:lemonade/m 사이다:soda/m
오렌지주스:orange_juice/m 사과주스:apple_juice/m 홍차:black_tea/m 두유:soy_milk/m
식혜:sikhye/m 막걸리:makgeolli/m 소주:soju/m 생수:bottled_water/m 라떼:latte/m
스무디:smoothie/m 밀크셰이크:milkshake/m 보리차:barley_tea/m 수정과:cinnamon_punch/m
에스프레소:espresso/m 아메리카노:americano/m 캐모마일차:chamomile_tea/m 유자차:citron_tea/m
생강차:ginger_tea/m 탄산수:sparkling_water/m 이온음료:sports_drink/m 딸기우유:strawberry_milk/m
""",
    "furniture": """
책상:desk 의자:chair 침대:bed 소파:sofa 탁자:table 옷장:wardrobe 책장:bookcase
서랍장:dresser 선반:shelf 식탁:dining_table 벤치:bench 거울:mirror 커튼:curtain
사다리:ladder 카펫:carpet 방석:cushion 흔들의자:rocking_chair 화장대:vanity 문:door
창문:window 서랍:drawer 액자:frame 시계탑:clock_tower/c=- 난로:stove 냉장고:fridge/c=대
책꽂이:bookshelf/p=bookshelves 옷걸이:hanger 테이블보:tablecloth 매트리스:mattress
이불:comforter 칸막이:partition 해먹:hammock 장롱:chest
침대보:bedspread 탁상시계:desk_clock 의자커버:chair_cover
""",
    "container": """
컵:cup 접시:plate 가방:bag 상자:box 바구니:basket 병:bottle 냄비:pot 그릇:bowl
주전자:kettle 물병:water_bottle 도시락통:lunch_bag 쟁반:tray 필통:pencil_case 봉투:envelope
지갑:wallet 배낭:backpack 여행가방:suitcase 항아리:jar 양동이:bucket 머그잔:mug
유리잔:glass 찻잔:teacup 통:can 프라이팬:frying_pan 상자곽:carton 주머니:pouch
우편함:mailbox 쓰레기통:trash_can 화분:flowerpot 물통:water_jug 바가지:gourd_dipper 캔:tin
""",
    "device": """
전화기:phone 컴퓨터:computer 카메라:camera 텔레비전:television 라디오:radio
노트북:laptop 태블릿:tablet 프린터:printer 선풍기:fan 에어컨:air_conditioner
세탁기:washing_machine 청소기:vacuum_cleaner 전자레인지:microwave 토스터:toaster
믹서기:blender 다리미:iron 로봇:robot 시계:clock/c=개 램프:lamp/c=개 손전등:flashlight/c=개
스피커:speaker 키보드:keyboard 마우스:computer_mouse 헤드폰:headphones/P/c=-
전기밥솥:rice_cooker 드라이기:hair_dryer 게임기:game_console 전자사전:electronic_dictionary
계산기:calculator 망원경:telescope 현미경:microscope 녹음기:recorder
""",
    "toy": """
공:ball 인형:doll 장난감:toy 풍선:balloon 연:kite 퍼즐:puzzle 블록:block 팽이:top
구슬:marble 곰인형:teddy_bear 요요:yo-yo 장난감차:toy_car 로봇장난감:toy_robot 축구공:soccer_ball
야구공:baseball 농구공:basketball 줄넘기:jump_rope 딱지:paper_tile 비눗방울:bubble 주사위:die/p=dice
썰매:sled 장난감총:toy_gun 물총:water_gun 종이비행기:paper_airplane 인형집:dollhouse
인형극:puppet_show/c=- 보드게임:board_game 카드게임:card_game 스케이트보드:skateboard
""",
    "accessory": """
모자:hat 열쇠:key 우산:umbrella 반지:ring 목걸이:necklace 손목시계:watch 안경:glasses/P/c=-
귀걸이:earring 팔찌:bracelet 넥타이:tie 벨트:belt 선글라스:sunglasses/P/c=-
머리띠:headband 브로치:brooch 손수건:handkerchief 양산:parasol 리본:ribbon 핀:hairpin
가발:wig 마스크:mask 지팡이:cane 배지:badge
""",
    "item": """
편지:letter 사진:photo 그림:picture 지도:map 표:ticket 선물:present 꽃병:vase 베개:pillow
담요:blanket 수건:towel 비누:soap/m 칫솔:toothbrush 치약:toothpaste/m 휴지:tissue/m
종이:paper/m 카드:card 엽서:postcard 이메일:email/a 메모:note 초대장:invitation 영수증:receipt
돌:stone 촛불:candle 깃발:flag 동전:coin 돈:money/m 여권:passport
시:poem/a 보고서:report 숙제:homework/m/a 그림책:picture_book 포스터:poster
책갈피:bookmark 스티커:sticker 상장:certificate 메달:medal 트로피:trophy 열쇠고리:keychain
쪽지:message 도장:stamp 우표:postage_stamp 성냥:match 꽃다발:bouquet 선물상자:gift_box
소포:parcel 택배상자:delivery_box 그림엽서:picture_postcard 일기예보:weather_forecast/a 신문지:newspaper_sheet
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
일기:diary/c=- 앨범:album 달력:calendar 일기장:journal 동시집:children's_poetry_book
백과사전:encyclopedia 여행책:travel_guide 위인전:biography 수필집:essay_collection 악보:score
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
놀이터:play_area/@at 체육관:gym/@at/b 경기장:stadium/@at/b 대학교:university/@at/b
유치원:kindergarten/@at/b 약국:pharmacy/@at/b 슈퍼마켓:supermarket/@at/b 백화점:department_store/@at/b
영화관:movie_theater/@at/b 주차장:parking_lot/@in/b 정류장:bus_stop/@at 항구:port/@at
섬:island/@on 사막:desert 계곡:valley 동굴:cave 언덕:hill/@on 들판:field 광장:square/@in
궁전:palace/@at/b 절:temple/@at/b 공장:factory/@at/b 회사:company/@at
욕실:bathroom/r 침실:bedroom/r 지하실:basement/r 다락방:attic/r 복도:hallway/r 마당:yard
베란다:balcony/@on/r 온실:greenhouse/b 헛간:barn/b 오두막:cabin/b 텐트:tent 캠프장:campsite/@at
도로:road/@on 길:street/@on 골목:alley 터널:tunnel/b 시청:city_hall/@at/b 경찰서:police_station/@at/b
소방서:fire_station/@at/b 법원:court/@at/b 감옥:prison/@in/b 미용실:hair_salon/@at/b
세탁소:laundry/@at/b 꽃집:flower_shop/@at/b 주유소:gas_station/@at/b 호텔방:hotel_room/r
놀이공원:amusement_park/@at 수족관:aquarium/@at/b 식물원:botanical_garden/@at 캠퍼스:campus/@on
기숙사:dormitory/b 아파트:apartment/b 편의점:convenience_store/@at/b 빨래방:laundromat/@at/b
노래방:karaoke_room/b 피시방:internet_cafe/@at/b 헬스장:fitness_center/@at/b 스키장:ski_resort/@at
온천:hot_spring/@at 폭포:waterfall/@by 연못:pond/@by 분수:fountain/@by 골프장:golf_course/@on
테니스장:tennis_court/@on 야구장:ballpark/@at/b 축구장:soccer_field/@on 기차역:train_station/@at/b
버스터미널:bus_terminal/@at/b 대사관:embassy/@at/b 도서실:reading_room/r 음악실:music_room/r
과학실:science_lab/r 창고:storeroom/r 차고:garage/r 옥상:rooftop/@on 과수원:orchard 논:rice_paddy
목장:ranch/@on 등대:lighthouse/@at/b
박람회장:exhibition_hall/@at/b 전시관:pavilion/@at/b 문구점:stationery_store/@at/b
안경점:optician's/@at/b 정육점:butcher_shop/@at/b 생선가게:fish_market/@at 철물점:hardware_store/@at/b
약수터:mineral_spring/@at 놀이방:playroom/r 식당칸:dining_car
""",
    "music": """
노래:song 동요:children's_song 자장가:lullaby 민요:folk_song 가요:pop_song 찬송가:hymn
교향곡:symphony 행진곡:march 아리아:aria 피아노곡:piano_piece 왈츠:waltz 캐럴:carol
발라드:ballad 오페라:opera 협주곡:concerto 소나타:sonata 트로트:trot_song
""",
    "plant": """
나무:tree 꽃:flower/c=송이 장미:rose/c=송이 해바라기:sunflower/c=송이 소나무:pine_tree
선인장:cactus/p=cacti 튤립:tulip/c=송이 백합:lily/c=송이 국화:chrysanthemum/c=송이
무궁화:rose_of_Sharon/p=roses_of_Sharon/c=송이 벚나무:cherry_tree 사과나무:apple_tree 단풍나무:maple_tree
대나무:bamboo/c=- 잔디:grass/m 풀잎:blade_of_grass/c=- 덩굴:vine 이끼:moss/m 버드나무:willow
은행나무:ginkgo_tree 야자나무:palm_tree 진달래:azalea/c=송이 개나리:forsythia/c=송이
민들레:dandelion/c=송이 난초:orchid/c=송이 연꽃:lotus/c=송이
갈대:reed 감나무:persimmon_tree 배나무:pear_tree 포도나무:grapevine 참나무:oak_tree
벚꽃:cherry_blossom/c=송이 수국:hydrangea/c=송이 라벤더:lavender/m
해초:seaweed/m 클로버:clover 담쟁이:ivy/m 고무나무:rubber_tree 올리브나무:olive_tree
""",
    "clothes": """
셔츠:shirt 바지:pants/P/c=- 치마:skirt 코트:coat 재킷:jacket 원피스:dress 스웨터:sweater
외투:overcoat 조끼:vest 청바지:jeans/P/c=- 블라우스:blouse 티셔츠:T-shirt 정장:suit
잠옷:pajamas/P/c=- 한복:hanbok 교복:school_uniform 비옷:raincoat 수영복:swimsuit
후드티:hoodie 반바지:shorts/P/c=- 가디건:cardigan 유니폼:uniform 드레스:gown 목도리:scarf
턱시도:tuxedo 앞치마:apron 우비:rain_poncho 점퍼:windbreaker 기모노:kimono 망토:cloak
""",
    "footwear": """
신발:shoes/P 양말:socks/P 운동화:sneakers/P 구두:dress_shoes/P
부츠:boots/P 슬리퍼:slippers/P 샌들:sandals/P 장화:rain_boots/P
장갑:gloves/P 스타킹:stockings/P
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
천문학:astronomy/0 심리학:psychology/0 법학:law/0 의학:medicine/0 컴퓨터과학:computer_science/0
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
#   subject: p person, a animal, pa both, or =ko,ko,... explicit nouns
#   object: classes/groups, or =ko,ko,... explicit nouns; with=: classes or =nouns
#   res=: a posture verb whose progressive is the resultative state -아/어 있다 (서 있다 "is
#         standing", not 서고 있다 "is standing up"), with the English verb of the state
VERB_TABLE = """
먹다 eat T pa food with=숟가락,포크,젓가락
마시다 drink T pa drink
맛보다 taste T p dish,drink
주문하다 order T p dish,drink
요리하다 cook T p vegetable,dish
굽다 bake T p =빵,케이크,쿠키,파이,피자,머핀,크루아상,베이글,와플,팬케이크
만들다 make T p dish,toy,furniture,container
씻다 wash T p fruit,vegetable,container
자르다 cut T p fruit,vegetable,dish,item with=칼,가위
썰다 slice T p fruit,vegetable with=칼
사다 buy T p food,drink,thing,book,clothes,footwear,vehicle,plant
팔다 sell T p food,drink,thing,book,clothes,footwear,vehicle,plant
고르다 choose T p food,thing,book,clothes,footwear,plant,music
나르다 carry T p furniture,container,item,book,toy
들다 lift T p furniture,container,item,book,toy,instrument
옮기다 move T p furniture,container,instrument
보다 see T pa person,animal,thing,vehicle,plant stat
구경하다 look_at T p thing,vehicle,plant,animal
찾다 look_for T pa person,animal,thing,book,clothes,footwear
잃어버리다 lose T p accessory,toy,item,tool,book,container
빌리다 borrow T p book,tool,accessory,device,vehicle,instrument
고치다 fix T p device,furniture,vehicle,toy,accessory,instrument
닦다 clean T p furniture,container,device,vehicle,footwear
청소하다 clean T p room
열다 open T p =문,창문,상자,가방,병,우산,냉장고,서랍,지갑,냄비,선물,편지,봉투,배낭,여행가방,항아리,옷장
닫다 close T p =문,창문,상자,가방,냉장고,서랍,우산,책,배낭,여행가방,옷장,노트북
던지다 throw T p toy,=돌,동전,종이
잡다 catch T pa animal,=공,축구공,야구공,농구공,풍선
차다 kick T p =공,축구공,돌
줍다 pick_up T p item,toy,tool,accessory,book
숨기다 hide T p item,accessory,toy,book,container
그리다 draw T p person,animal,plant,fruit,vehicle,building with=연필,붓,크레파스,펜
칠하다 paint T p furniture,building,container,toy with=붓
쓰다 write T p =편지,일기,소설,시,이메일,카드,보고서,엽서,메모,초대장 with=연필,펜
읽다 read T p book,=편지,시,이메일,카드,보고서,엽서,메모,초대장,신문
받다 receive T p item,book,accessory,toy,plant
입다 wear T p clothes
신다 wear T p footwear
벗다 take_off T p clothes,footwear
빨다 wash T p clothes,footwear,=수건,담요,손수건
접다 fold T p clothes,=종이,편지,수건,담요,우산
켜다 turn_on T p device,=촛불
끄다 turn_off T p device,=촛불
치다 play T p =피아노,기타,드럼,장구,가야금 
연주하다 play T p instrument
연습하다 practice T p sport,music,instrument,martial
하다 play T p sport
하다 do T p martial
좋아하다 like T pa person,animal,food,drink,thing,book,music,sport,subject,place,plant stat
싫어하다 hate T pa person,animal,food,drink,book,music,sport,subject stat
사랑하다 love T pa person,animal stat
알다 know T p person,place,music stat
믿다 trust T p person stat
기억하다 remember T p person,place,music stat
기다리다 wait_for T pa person,vehicle
만나다 meet T p person
돕다 help T p person
부르다 sing T p music
부르다 call T p person
초대하다 invite T p person
방문하다 visit T p building,person
떠나다 leave T p =마을,도시,학교,사무실,호텔,공항,섬
건너다 cross T p =다리,강,길,도로,광장
오르다 climb T p =산,언덕,탑,사다리
듣다 listen_to T p music
배우다 learn T p subject,music,sport,instrument,martial
공부하다 study T p subject
가르치다 teach D p subject,music,sport,instrument,martial prep=to
짓다 build T p building
키우다 raise T p animal,plant
심다 plant T p plant
찍다 photograph T p person,animal,plant,building,vehicle
안다 hug T pa person,animal,toy
깨우다 wake_up T p person,animal
씻기다 bathe T p person,animal
업다 carry T p =아기,아이,동생,어린이,강아지
밀다 push T p furniture,=유모차,자전거
당기다 pull T p =문,서랍,의자,커튼,유모차
쫓다 chase T pa person,animal
물다 bite T a person,animal,toy
따다 pick T p fruit,=꽃,장미,벚꽃
까다 peel T p fruit,vegetable,=달걀
볶다 stir-fry T p vegetable,=고기,밥
끓이다 boil T p =물,우유,차,수프,라면,국수,보리차
데우다 heat_up T p dish,drink
나누다 share T p dish,=사탕,과자,초콜릿
포장하다 wrap T p =선물,상자,꽃다발,책,선물상자
배달하다 deliver T p dish,=편지,신문,꽃다발,선물
정리하다 organize T p =책장,책상,옷장,서랍,책꽂이,선반
버리다 throw_away T p item,container,toy,dish
깨뜨리다 break T p container,=창문,거울,꽃병,유리잔,접시
만지다 touch T pa thing,animal,plant
구하다 rescue T p person,animal
치료하다 treat T p person,animal
가져오다 bring T p thing,book,food,drink,clothes
가져가다 take T p thing,book,food,drink,clothes
훔치다 steal T p accessory,item,device,=돈
수리하다 repair T p device,vehicle
조립하다 assemble T p furniture,toy,=로봇,컴퓨터
디자인하다 design T p clothes,building,=포스터,카드,가방
번역하다 translate T p =책,소설,시,편지,이메일,보고서
복사하다 copy T p =보고서,편지,지도,그림,사진
녹음하다 record T p music
응원하다 cheer_for T p person
칭찬하다 praise T p person,animal
놀리다 tease T p person,animal
쓰다듬다 pet T p animal
먹이다 feed T p animal,=아기
산책시키다 walk T p =개,강아지
기침하다 cough I pa
하품하다 yawn I pa
재채기하다 sneeze I pa
떨다 shiver I pa
넘어지다 fall_down I pa
샤워하다 take_a_shower I p
목욕하다 take_a_bath I pa
출근하다 go_to_work I p
퇴근하다 leave_work I p
등산하다 go_hiking I p
낚시하다 go_fishing I p
캠핑하다 go_camping I p
감추다 conceal T p item,accessory,toy
흔들다 shake T p toy,container,=우산,깃발,손수건
꾸미다 decorate T p room,furniture,=케이크,선물상자,나무
뽑다 pull_out T p =못,풀잎,당근,무
튀기다 fry T p vegetable,=생선,치킨,만두,감자튀김
자다 sleep I pa
웃다 laugh I p
울다 cry I pa
걷다 walk I pa
달리다 run I pa
놀다 play I pa
쉬다 rest I pa
일하다 work I p
춤추다 dance I p
수영하다 swim I p
헤엄치다 swim I =개,오리,거위,물개,돌고래,고래,상어,거북이,개구리,금붕어,수달,백조,펭귄
노래하다 sing I p
기다리다 wait I pa
숨다 hide I pa res=hide
싸우다 fight I pa
눕다 lie_down I pa res=lie_down
앉다 sit_down I pa res=sit
서다 stand_up I pa res=stand
일어나다 get_up I pa
운동하다 exercise I p
요리하다 cook I p
공부하다 study I p
졸다 doze I pa
미소짓다 smile I p
기도하다 pray I p
여행하다 travel I p
산책하다 take_a_walk I p
떠들다 make_noise I p
날다 fly I =새,독수리,비둘기,나비,부엉이,앵무새,참새,까치,까마귀,갈매기,박쥐,꿀벌,잠자리,나방
짖다 bark I =개,강아지,늑대,여우
뛰다 jump I pa
걱정하다 worry I p
청소하다 clean_up I p
쇼핑하다 go_shopping I p
가다 go M p prep=to with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
오다 come M p prep=to with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
돌아가다 go_back M p prep=to with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
돌아오다 come_back M p prep=to with=버스,자동차,기차,자전거,비행기,택시,지하철,오토바이,보트,스쿠터
들어가다 go M p prep=into
들어오다 come M p prep=into
도착하다 arrive M p prep=at
이사하다 move M p prep=to
달려가다 run M pa prep=to
걸어가다 walk M pa prep=to
주다 give D p thing,book,food,drink,plant,clothes prep=to
보내다 send D p thing,book,food,plant prep=to
보여주다 show D p thing,book,plant,clothes prep=to
빌려주다 lend D p thing,book,clothes,vehicle prep=to
팔다 sell D p thing,book,vehicle,plant prep=to
설명하다 explain D p subject,sport,=지도,그림,사진,보고서 prep=to
소개하다 introduce D p person,book,music prep=to
전하다 pass D p =편지,선물,카드,메모,초대장,엽서,꽃 prep=to
던져주다 toss D p toy prep=to
읽어주다 read D p =동화책,그림책,편지,시,소설,신문,엽서 prep=to
전화하다 call R p person prep=
인사하다 greet R p person prep=
이야기하다 talk R p person prep=to
화내다 get_angry R p person,animal prep=at
소리치다 shout R p person,animal prep=at
질문하다 ask R p person prep=
대답하다 answer R p person prep=
미소짓다 smile R p person,animal prep=at
"""

# ko en nouns [irr=..] [phys]
#   nouns: classes/groups or =ko,ko,... explicit nouns, chosen so that the pair makes sense in
#          both languages (height only for what English calls tall: trees, towers, tall
#          furniture; "long" not for dogs; crispy only for crisp food)
#   phys: describes a body (size, weight, colour, wear ...): never an abstract noun (/a: 이메일)
#   a multi-word ko (호기심_많다) is a noun + adjective: 호기심 많은 소년, 소년은 호기심이 많다
ADJECTIVE_TABLE = """
크다 big person,animal,thing,place,vehicle,plant,clothes,fruit,vegetable,book phys
작다 small person,animal,thing,place,vehicle,plant,clothes,fruit,vegetable,book phys
길다 long clothes,tool,music,book,=뱀,장어,악어,애벌레,도로,길,다리,터널,강,골목,복도,계곡
짧다 short clothes,tool,music,book
높다 tall =나무,소나무,해바라기,벚나무,사과나무,단풍나무,대나무,버드나무,은행나무,야자나무,감나무,배나무,참나무,고무나무,올리브나무,옷장,책장,서랍장,책꽂이,사다리,시계탑,탑,성,등대,아파트,호텔,궁전,백화점
낮다 low =책상,의자,침대,소파,탁자,식탁,벤치,선반,다리,언덕
넓다 spacious room,building
좁다 narrow room,=길,도로,골목,복도,다리,계곡,터널,강
깊다 deep =강,호수,바다,계곡,동굴
얕다 shallow =강,호수,바다,계곡
맑다 clear =강,호수,바다,계곡
무겁다 heavy thing,book,vehicle phys
가볍다 light thing,book,clothes phys
두껍다 thick book,clothes,=담요,종이 phys
얇다 thin book,clothes,=담요,종이 phys
덥다 hot place
춥다 cold place
뜨겁다 hot dish,drink,=냄비,주전자,컵,그릇,머그잔,찻잔,프라이팬,물병,유리잔
차갑다 cold food,drink,=컵,물병,유리잔,머그잔,병,캔,통
따뜻하다 warm room,dish,drink,clothes,footwear
시원하다 cool place,drink,fruit
달다 sweet fruit,dish,drink
짜다 salty dish
맵다 spicy vegetable,=김치,떡볶이,라면,카레,김치찌개,짬뽕,순두부,볶음밥,불고기,타코,핫도그,소시지
시다 sour fruit,drink
싱겁다 bland dish
맛있다 delicious food,drink
맛없다 tasteless food,drink
신선하다 fresh fruit,vegetable
비싸다 expensive thing,food,book,clothes,footwear,vehicle,plant phys
싸다 cheap thing,food,book,clothes,footwear,vehicle,plant phys
새롭다 new book,music,subject
낡다 old thing,book,clothes,footwear,vehicle,building phys
깨끗하다 clean place,thing,clothes,footwear,vehicle phys
더럽다 dirty place,thing,clothes,footwear,animal,vehicle phys
조용하다 quiet place,person,animal
시끄럽다 noisy place,person,animal,device
예쁘다 pretty person,animal,plant,clothes,thing,footwear phys
귀엽다 cute animal,person,toy
아름답다 beautiful place,plant,music,person
멋지다 wonderful place,clothes,vehicle,building,music
친절하다 kind person
착하다 nice person
정직하다 honest person
행복하다 happy person,animal
슬프다 sad person,music,book
기쁘다 joyful person
외롭다 lonely person,animal
심심하다 bored person
즐겁다 cheerful person
바쁘다 busy person,place
피곤하다 tired person,animal
배고프다 hungry person,animal
목마르다 thirsty person,animal
졸리다 sleepy person,animal
아프다 sick person,animal
건강하다 healthy person,animal
강하다 strong person,animal
약하다 weak person,animal
빠르다 fast animal,vehicle
느리다 slow animal,vehicle
어렵다 difficult book,subject,music
쉽다 easy book,subject,music
재미있다 interesting book,music,subject,sport,person
재미없다 boring book,music,subject,sport
중요하다 important book,subject,item
유명하다 famous person,place,book,music,dish
똑똑하다 smart person,animal
용감하다 brave person,animal
게으르다 lazy person,animal
부지런하다 diligent person
가난하다 poor person
부유하다 rich person
무섭다 scary animal,book,person,place
위험하다 dangerous animal,place,vehicle,=칼,가위,톱,도끼,낫,망치,바늘
안전하다 safe place,vehicle
편하다 comfortable clothes,footwear,vehicle,=의자,침대,소파,벤치,흔들의자,방석,매트리스,이불,해먹
불편하다 uncomfortable clothes,footwear,=의자,침대,소파,벤치,흔들의자,방석,매트리스
날씬하다 slim person,animal
뚱뚱하다 fat animal
밝다 bright place,=램프,손전등,촛불,텔레비전,컴퓨터,전화기,노트북,태블릿
어둡다 dark place,clothes
둥글다 round fruit,=탁자,식탁,거울,접시,그릇,쟁반,공,축구공,농구공,야구공,풍선,구슬,동전,시계,방석 phys
부드럽다 soft clothes,toy,=빵,케이크,두부,순두부,푸딩,팬케이크,머핀,떡,베개,담요,수건,이불,방석
딱딱하다 hard =빵,떡,과자,쿠키,사탕,베이글,토스트,의자,침대,벤치,돌,베개
빨갛다 red thing,clothes,footwear,vehicle,=사과,딸기,체리,자두,석류,앵두,라즈베리,크랜베리,토마토,고추,피망,장미,튤립,꽃,꽃다발 phys
파랗다 blue thing,clothes,footwear,vehicle phys
노랗다 yellow thing,clothes,footwear,vehicle,=바나나,레몬,참외,망고,파인애플,자몽,유자,해바라기,개나리,민들레,튤립,꽃,장미 phys
하얗다 white thing,clothes,footwear,animal,vehicle,=장미,백합,국화,튤립,꽃,벚꽃,수국 phys
까맣다 black thing,clothes,footwear,animal,vehicle phys
가깝다 nearby place
멀다 distant place
이상하다 strange person,animal,thing,book,music,place
특별하다 special item,dish,music,book,place
평범하다 ordinary person,thing,place
훌륭하다 excellent person,book,music,dish
호기심_많다 curious person
조그맣다 tiny thing,animal,plant phys
커다랗다 huge thing,animal,plant,building phys
소중하다 precious item,person,book,accessory
신기하다 amazing thing,animal,place
복잡하다 complicated book,subject,device
간단하다 simple book,subject,dish
튼튼하다 sturdy furniture,container,vehicle,footwear phys
날카롭다 sharp =칼,가위,도끼,톱,바늘,낫
무디다 dull =칼,가위,도끼,톱,낫
향기롭다 fragrant =꽃,장미,해바라기,튤립,백합,국화,무궁화,진달래,개나리,민들레,난초,연꽃,벚꽃,수국,라벤더,소나무
고소하다 savory dish
바삭하다 crispy =과자,쿠키,팝콘,감자튀김,치킨,와플,토스트,파전,크루아상,도넛,호떡,붕어빵
쫄깃하다 chewy =떡,떡볶이,냉면,우동,라면,국수,젤리,만두,베이글,어묵,떡꼬치,오징어
상냥하다 friendly person
겸손하다 humble person
엄격하다 strict person
침착하다 calm person,animal
수줍다 shy person,animal
화려하다 colorful clothes,place,=꽃,장미,튤립
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
    "brightness": "밝다 어둡다",
    "hardness": "부드럽다 딱딱하다 바삭하다 쫄깃하다",
    "distance": "가깝다 멀다",
    "sharpness": "날카롭다 무디다",
    "build": "날씬하다 뚱뚱하다",
    "health": "건강하다 아프다",
    "mood": "행복하다 슬프다 기쁘다 즐겁다 외롭다 심심하다",
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
침착하다 밝다 어둡다 맑다 신선하다 맛있다 맛없다 달다 짜다 맵다 시다 싱겁다 고소하다 바삭하다
쫄깃하다 부드럽다 딱딱하다
"""

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
