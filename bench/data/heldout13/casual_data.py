# -*- coding: utf-8 -*-
"""heldout13 casual set: companion small talk, written by hand.

Each session carries its own hand-set time; relative dates in the user turns ("on friday",
"last Friday", 前天, 上周六 ...) were resolved by hand against that time (UK sessions: the UTC date
equals the local date; Chinese sessions: UTC+8, local 08:00-21:00) and written into the dated
facts with several spellings. build.py sorts the sessions by time and adds turn roles.
"""


def E(fact, *keywords):
    return {"fact": fact, "keywords": list(keywords)}


def X(text, why):
    return {"text": text, "why": why}


def S(cid, user, lang, kind, time, turns, expect=(), forbid=(), optional=(), nothing=False):
    return {
        "id": cid, "user": user, "app": "companion", "lang": lang, "kind": kind, "time": time,
        "nothing_to_learn": nothing, "turns": list(turns),
        "expect": list(expect), "optional": list(optional), "forbid": list(forbid),
    }


APPS = {
    "companion": {
        "en": "You are Bramble, a cosy, curious companion. You chat about the user's days, remember the people, pets and plans in their life, ask gentle follow-up questions and celebrate their good news.",
        "zh": "你是小棠，一个温暖又好奇的聊天伙伴。你陪用户聊日常，记得他们生活里的人、宠物和安排，会轻声追问，也会为他们的好消息高兴。",
    },
}


SESSIONS = [
    # ------------------------------------------------------------------ u_hattie (en, bubbly, emoji)
    # 2026-09-08 is a Tuesday: "on friday" = 2026-09-04.
    S("en-hattie-1", "u_hattie", "en", "log", "2026-09-08T18:20:00Z", [
        "heyyy Bramble 💇‍♀️",
        "Hey Hattie! How's your week going?",
        "sooo good!! I PASSED MY DRIVING TEST on friday!!! third time lucky 🚗🎉",
        "Congratulations! Third time lucky is still lucky. How does it feel?",
        "unreal. I'm a hairdresser at a salon in Mumbles and we live in Swansea so no more two buses every morning 🙌",
        "That'll save you so much time. Did anyone celebrate with you?",
        "my girlfriend Nia made me a cake shaped like an L plate lol 🎂",
        "That's adorable! Nia sounds like a keeper.",
        "she is 🥰 and my rabbit Biscuit got a new hutch to celebrate, spoilt boy 🐰",
        "Biscuit deserves it. How's he settling into the new place?",
        "loves it. my feet are killing me after a full day of balayage tho",
        "Put them up tonight, you've earned it!",
        "ok nia's calling me for dinner, byeee 💕",
    ], expect=[
        E("The user passed her driving test on 2026-09-04.", "driving test|driving", "2026-09-04|September 4|4 September|Sep 4|4 Sep|9月4日"),
        E("The user is a hairdresser at a salon in Mumbles.", "hairdresser|hairdressing", "Mumbles"),
        E("The user lives in Swansea.", "Swansea"),
        E("The user's girlfriend is Nia.", "Nia"),
        E("The user has a rabbit called Biscuit.", "Biscuit"),
    ], forbid=[
        X("feet are killing me", "momentary health state"),
        X("L plate", "small talk"),
        X("calling me for dinner", "momentary plan"),
    ]),

    # 2026-10-01 is a Thursday: "on monday" = 2026-09-28, "on sunday" = 2026-09-27.
    S("en-hattie-2", "u_hattie", "en", "change", "2026-10-01T19:05:00Z", [
        "Bramble!! guess what 🤩",
        "Tell me!",
        "I've left the salon!! started renting a chair at a barbershop in Uplands on monday, my own clients and everything ✂️",
        "Your own chair! That's a big step. How's the first week been?",
        "terrifying but amazing. also nia ran the cardiff half marathon on sunday in 1:58!! so proud 🏃‍♀️",
        "Under two hours, brilliant! You two are having quite a fortnight.",
        "and I joined a netball team, we play thursdays at the leisure centre 🏐",
        "Ooh, what position do you play?",
        "goal defence, I just wave my arms a lot lol",
        "That's basically the job description!",
        "we lost 14-6 in our first match but the cake after was elite 🍰",
        "The cake is what really counts.",
        "nia's mum is in hospital with her heart again so it's been a lot",
        "I'm sorry, that's a lot to carry alongside all the good news. Be gentle with yourselves.",
        "you're basically my therapist lol. ok bedtime 😴",
    ], expect=[
        E("The user started renting a chair at a barbershop in Uplands on 2026-09-28.", "Uplands", "2026-09-28|September 28|28 September|Sep 28|28 Sep|9月28日"),
        E("The user's girlfriend Nia ran the Cardiff Half Marathon on 2026-09-27.", "half marathon|Cardiff Half", "2026-09-27|September 27|27 September|Sep 27|27 Sep|9月27日"),
        E("The user plays netball on Thursdays.", "netball", "Thursday|Thursdays"),
    ], optional=[
        E("The user plays goal defence in netball.", "goal defence|goal defense|GD"),
    ], forbid=[
        X("in hospital with her heart", "third-party health"),
        X("basically my therapist", "remark about the assistant"),
        X("wave my arms", "small talk"),
        X("we lost 14-6", "one-off result"),
        X("terrifying but amazing", "mood"),
    ]),

    # 2026-10-20 is a Tuesday: "yesterday" = 2026-10-19.
    S("en-hattie-3", "u_hattie", "en", "log", "2026-10-20T17:40:00Z", [
        "hiii 🐰🐰",
        "Hi Hattie! Two bunny emojis, is there news?",
        "YES we got Biscuit a girlfriend, a little lop called Waffle, picked her up from the rescue at the weekend",
        "Biscuit and Waffle, perfect names! How are they getting on?",
        "biscuit turned three yesterday so waffle was basically his birthday present 🎂",
        "Happy birthday Biscuit! What a present.",
        "nia's a paramedic so she was on nights and missed the party, gutted",
        "Poor Nia. I hope she gets a slice when she's home.",
        "the chair's going so well, I'm fully booked saturdays already",
        "That's amazing for your first month.",
        "okay gotta go hoover up hay, byeee",
    ], expect=[
        E("The user adopted a second rabbit, a lop called Waffle, from a rescue.", "Waffle"),
        E("The user's rabbit Biscuit turned three on 2026-10-19.", "Biscuit", "2026-10-19|October 19|19 October|Oct 19|19 Oct|10月19日"),
        E("The user's girlfriend Nia is a paramedic.", "paramedic"),
    ], forbid=[
        X("on nights and missed the party", "third-party detail"),
        X("hoover up hay", "momentary plan"),
    ]),

    # ------------------------------------------------------------------ u_desmond (en, dry, terse)
    # 2026-09-10 is a Thursday: "on tuesday" = 2026-09-08.
    S("en-desmond-1", "u_desmond", "en", "log", "2026-09-10T21:15:00Z", [
        "evening",
        "Evening, Desmond! Long day?",
        "eleven hours in the cab. m6 was a car park all the way back to wolverhampton",
        "That sounds exhausting. What are you driving these days?",
        "artic. lorry driver for tesco, out of the daventry depot. nights mostly",
        "Nights are tough. Anything good happen this week?",
        "wife's carol. 30 years married on tuesday. took her to the toby carvery. romantic me",
        "Thirty years! Congratulations to you both, pearl anniversary.",
        "got an allotment off the council last year. leeks and spuds mainly",
        "Lovely. Anything ready to pull up yet?",
        "leeks are coming on. wolves lost again. season ticket, more fool me",
        "There's always next week.",
        "right. bed.",
    ], expect=[
        E("The user is a lorry driver for Tesco out of the Daventry depot, mostly on nights.", "lorry|HGV|truck", "Tesco|Daventry"),
        E("The user lives in Wolverhampton.", "Wolverhampton"),
        E("The user's wife is Carol.", "Carol"),
        E("The user and his wife Carol celebrated 30 years of marriage on 2026-09-08.", "30 years|thirty years|anniversary", "2026-09-08|September 8|8 September|Sep 8|8 Sep|9月8日"),
        E("The user has an allotment where he grows leeks and potatoes.", "allotment"),
        E("The user has a Wolves season ticket.", "Wolves|Wolverhampton Wanderers", "season ticket"),
    ], forbid=[
        X("car park", "small talk"),
        X("romantic me", "small talk"),
        X("more fool me", "small talk"),
        X("toby carvery", "one-off event detail"),
    ]),

    S("en-desmond-2", "u_desmond", "en", "chitchat", "2026-09-24T20:50:00Z", [
        "alright",
        "Hi Desmond! How's things?",
        "raining sideways. back's playing up",
        "Sorry to hear that. Are you taking it easy tonight?",
        "feet up. cup of tea. telly's rubbish",
        "Sounds like a proper night in, rubbish telly or not.",
        "you're alright, you. for a computer",
        "I'll take that. Thanks, Desmond.",
        "chippy tea tomorrow, friday treat. night",
        "Fish and chips on a Friday, can't beat it. Night, Desmond!",
        "ta",
    ], nothing=True, forbid=[
        X("raining sideways", "weather"),
        X("back's playing up", "momentary health state"),
        X("for a computer", "remark about the assistant"),
        X("chippy tea", "momentary plan"),
    ]),

    # 2026-10-15 is a Thursday: "on monday" = 2026-10-12, "saturday" (just gone) = 2026-10-10.
    S("en-desmond-3", "u_desmond", "en", "change", "2026-10-15T19:30:00Z", [
        "evening. news",
        "Evening! Go on, I'm listening.",
        "packed in the nights. driving for travis perkins now, local drops, days. started monday",
        "Days at last! How's it feeling?",
        "strange. seeing daylight. carol says i'm less of a grump",
        "High praise. Anything else new?",
        "grandson born saturday. alfie. 8lb 2",
        "Congratulations, Grandad! How are mum and baby?",
        "both fine. our lad's a wreck",
        "Ha, that's new dads for you.",
        "sun's out for once. might do the allotment saturday",
        "Make the most of it while it lasts!",
        "carol's got her knee op next month. she's not fussed, i am",
        "That's natural. It'll be good to have you on days for that.",
        "aye. night",
    ], expect=[
        E("The user started driving for Travis Perkins on local day drops on 2026-10-12.", "Travis Perkins", "2026-10-12|October 12|12 October|Oct 12|12 Oct|10月12日"),
        E("The user's grandson Alfie was born on 2026-10-10.", "Alfie", "2026-10-10|October 10|10 October|Oct 10|10 Oct|10月10日"),
    ], forbid=[
        X("less of a grump", "third party's remark"),
        X("a wreck", "remark about a third party"),
        X("knee op", "third-party health"),
        X("8lb 2", "one-off detail"),
        X("sun's out for once", "weather"),
    ]),

    # ------------------------------------------------------------------ u_agnes (en, older, warm, Welsh)
    # 2026-09-15 is a Tuesday: "on Sunday" = 2026-09-13.
    S("en-agnes-1", "u_agnes", "en", "log", "2026-09-15T10:30:00Z", [
        "Bore da, Bramble cariad.",
        "Bore da, Agnes! How are you this morning?",
        "Oh, my hands are ever so stiff this morning, but never mind. I was the organist at St Michael's for forty years, you know, before I retired.",
        "Forty years! You must have played for half the town's weddings.",
        "And funerals, duw duw. My great-granddaughter Mali was christened on Sunday and I played the hymns myself.",
        "How special, playing at her christening. How did it go?",
        "She screamed through the whole of Calon Lân, bless her.",
        "A strong pair of lungs! Do you live near the family?",
        "I'm in Aberystwyth, up the hill from the prom. And every Thursday afternoon I help at the Oxfam shop on Great Darkgate Street.",
        "You keep busy! Is anyone at home with you?",
        "Only Twm, my old cat. He's eighteen, older than half the choir.",
        "Give Twm a stroke from me.",
        "He'd only bite you, cariad, he's a grumpy old thing.",
        "Ha! I'll keep a respectful distance, then.",
        "Hwyl fawr for now, cariad.",
    ], expect=[
        E("The user is a retired church organist who played at St Michael's for forty years.", "organist"),
        E("The user's great-granddaughter Mali was christened on 2026-09-13.", "Mali", "2026-09-13|September 13|13 September|Sep 13|13 Sep|9月13日"),
        E("The user lives in Aberystwyth.", "Aberystwyth|Aber"),
        E("The user helps at the Oxfam shop on Thursday afternoons.", "Oxfam", "Thursday|Thursdays"),
        E("The user has an eighteen-year-old cat called Twm.", "Twm"),
    ], forbid=[
        X("ever so stiff", "momentary health state"),
        X("screamed through", "small talk"),
        X("Hwyl fawr", "farewell"),
    ]),

    # 2026-09-29 is a Tuesday: "on Saturday" = 2026-09-26.
    S("en-agnes-2", "u_agnes", "en", "change", "2026-09-29T14:10:00Z", [
        "Prynhawn da, Bramble.",
        "Prynhawn da, Agnes! How's your week?",
        "Busy, cariad. I've moved from the Oxfam shop to the hospice shop on Tuesdays now; the manager there is a girl I taught Sunday school.",
        "What a nice connection. Are you enjoying it?",
        "Very much. And on Saturday I played the piano for my friend Myfanwy's ninetieth birthday at the rugby club.",
        "Ninety! What did you play for her?",
        "All the old songs. Half the room was crying into their sherry.",
        "That sounds like a perfect party.",
        "Twm has been off his food, the vet thinks it's his kidneys.",
        "Oh, poor Twm. I hope he perks up soon.",
        "You're a good listener for a machine, you know.",
        "Thank you, Agnes. That's kind of you.",
        "Well, I must get the bara brith out of the oven. Ta-ra.",
    ], expect=[
        E("The user now helps at the hospice shop on Tuesdays.", "hospice", "Tuesday|Tuesdays"),
        E("The user played the piano at her friend Myfanwy's ninetieth birthday on 2026-09-26.", "Myfanwy", "2026-09-26|September 26|26 September|Sep 26|26 Sep|9月26日"),
    ], forbid=[
        X("crying into their sherry", "small talk"),
        X("kidneys", "pet health / momentary"),
        X("good listener for a machine", "remark about the assistant"),
        X("bara brith", "momentary plan"),
    ]),

    # 2026-10-13 is a Tuesday: "last Friday" = 2026-10-09.
    S("en-agnes-3", "u_agnes", "en", "log", "2026-10-13T11:45:00Z", [
        "Hello again, Bramble.",
        "Hello, Agnes! What's new?",
        "My grandson Huw and his wife moved back to Aber last Friday, after ten years in Cardiff. I'm thrilled.",
        "Oh, how lovely to have them close again!",
        "His wife is expecting again, but keep that under your hat, they haven't told anyone.",
        "My lips are sealed. How are you keeping busy?",
        "I've bought myself an electric keyboard so I can practise at home instead of going up to the chapel in the cold.",
        "Very sensible. How are you finding it?",
        "And I've joined the U3A poetry group, we meet on Monday mornings in the library.",
        "A poetry group, how lovely! Monday mornings will fly by.",
        "Right, cariad, the kettle's calling.",
    ], expect=[
        E("The user's grandson Huw and his wife moved back to Aberystwyth on 2026-10-09.", "Huw", "2026-10-09|October 9|9 October|Oct 9|9 Oct|10月9日"),
        E("The user has bought an electric keyboard to practise at home.", "keyboard"),
        E("The user has joined the U3A poetry group, which meets on Monday mornings.", "poetry", "Monday|Mondays"),
    ], forbid=[
        X("expecting again", "third-party health / secret"),
        X("under your hat", "secret"),
        X("the kettle's calling", "momentary plan"),
    ]),

    # ------------------------------------------------------------------ u_yueyue (zh, emoji, bank)
    # 2026-09-12 20:30 (UTC+8) is a Saturday: 上周六 = 2026-09-05.
    S("zh-yueyue-1", "u_yueyue", "zh", "log", "2026-09-12T12:30:00Z", [
        "小棠～在吗 🌸",
        "在呀月月！今天过得怎么样？",
        "超级开心！！上周六阿凯跟我求婚啦 💍 我哭成了狗 😭",
        "天哪恭喜恭喜！！阿凯是在哪里求婚的呀？",
        "在环岛路的海边，他偷偷叫了我闺蜜们躲在后面 🥹 阿凯是做物流调度的，平时超忙，这次居然准备了一个月",
        "太用心了！你们在厦门认识的吗？",
        "对呀我们都在厦门，我在一家银行当柜员，他来办业务认识的 😂",
        "好有缘分！家里还有谁一起庆祝吗？",
        "还有我家猫可乐 🐱 它把戒指盒当玩具了",
        "可乐也想参与一下哈哈。",
        "今天数钱数到手软，先去躺会儿 😴",
    ], expect=[
        E("用户的男朋友阿凯在 2026-09-05 向她求婚。", "求婚|propose|proposed|proposal|engaged", "2026-09-05|September 5|5 September|Sep 5|5 Sep|9月5日"),
        E("用户的未婚夫叫阿凯。", "阿凯"),
        E("用户住在厦门。", "厦门|Xiamen"),
        E("用户在银行当柜员。", "柜员|teller"),
        E("用户养了一只叫可乐的猫。", "可乐|Cola|Kele"),
    ], optional=[
        E("用户的未婚夫阿凯做物流调度。", "物流|logistics|调度|dispatch"),
    ], forbid=[
        X("哭成了狗", "mood"),
        X("戒指盒当玩具", "small talk"),
        X("数钱数到手软", "momentary state"),
    ]),

    # 2026-09-26 19:00 (UTC+8) is a Saturday: 昨天 = 2026-09-25.
    S("zh-yueyue-2", "u_yueyue", "zh", "log", "2026-09-26T11:00:00Z", [
        "小棠小棠 🏃‍♀️",
        "来啦！今天有什么好消息？",
        "昨天我第一次跑完了环岛路十公里！！用了 68 分钟 嘿嘿",
        "太厉害了！第一次十公里就完成了，恭喜！",
        "腿现在还在抖 🦵😵",
        "好好拉伸一下～你最近还在忙别的吗？",
        "报了个周三晚上的爵士舞课，想婚礼上跳一段 💃",
        "好浪漫！婚礼定在什么时候啦？",
        "还没定呢，两边爸妈在吵日子 🙃",
        "慢慢商量，总会定下来的。",
        "昨晚阿凯给我煮了一锅猪脚面线补身体 😋",
        "哇，好有爱！跑完步吃这个正好。",
        "你每次都这么会哄人 爱了爱了",
        "嘿嘿，是真心为你开心～",
        "去洗头啦 拜拜 👋",
    ], expect=[
        E("用户在 2026-09-25 第一次跑完了环岛路十公里。", "十公里|10公里|10 公里|10km|10 km|10K", "2026-09-25|September 25|25 September|Sep 25|25 Sep|9月25日"),
        E("用户报了周三晚上的爵士舞课。", "爵士舞|jazz", "周三|星期三|Wednesday"),
    ], forbid=[
        X("腿现在还在抖", "momentary state"),
        X("在吵日子", "third-party detail"),
        X("猪脚面线", "momentary detail"),
        X("这么会哄人", "remark about the assistant"),
        X("去洗头", "momentary plan"),
    ]),

    # 2026-10-17 20:20 (UTC+8) is a Saturday: 周一 (this week) = 2026-10-12.
    S("zh-yueyue-3", "u_yueyue", "zh", "change", "2026-10-17T12:20:00Z", [
        "小棠！！我调岗啦 🎉",
        "哇！调到什么岗位了？",
        "从柜台调去做理财经理了！周一正式开始的，终于不用天天坐窗口了",
        "恭喜升级！新岗位感觉怎么样？",
        "压力有点大，要跑业绩 😅 领导还说我长得有亲和力 哈哈",
        "你一定能做得很好。可乐最近乖吗？",
        "我们又接了一只小猫回家，叫雪碧，跟可乐凑一对 🥤🐱",
        "可乐和雪碧，太可爱了！它们处得来吗？",
        "刚开始天天打架，现在会一起睡了",
        "慢慢就成好朋友了～",
        "阿凯说以后家里的猫都得按饮料起名 😂",
        "哈哈，下一只叫芬达？",
        "晚安啦小棠 🌙",
    ], expect=[
        E("用户在 2026-10-12 开始做理财经理。", "理财经理|wealth manager|financial advisor|financial adviser", "2026-10-12|October 12|12 October|Oct 12|12 Oct|10月12日"),
        E("用户又养了一只叫雪碧的小猫。", "雪碧|Sprite|Xuebi"),
    ], forbid=[
        X("压力有点大", "mood"),
        X("长得有亲和力", "third party's remark"),
        X("天天打架", "small talk"),
    ]),

    # ------------------------------------------------------------------ u_jinshui (zh, older, plain)
    # 2026-09-17 08:40 (UTC+8) is a Thursday: 前天 = 2026-09-15.
    S("zh-jinshui-1", "u_jinshui", "zh", "log", "2026-09-17T00:40:00Z", [
        "小棠啊，早上好。",
        "金水叔早上好！今天起得早呀。",
        "老习惯了。我是绍兴人，以前在中学教体育，退休五年了。",
        "教体育的，怪不得身体这么硬朗！平时早上都做些什么呀？",
        "每天早上在府山公园打太极拳，打了快二十年了。",
        "二十年！那一定打得很有样子了。最近家里有什么事吗？",
        "前天送外孙女琪琪去杭州上大学了，学的是护理。",
        "恭喜琪琪！第一次离家上大学，您舍得吗？",
        "舍不得也得舍得。老伴腰椎间盘突出又犯了，没跟着去。",
        "那您多照顾着点阿姨。家里还有什么小伙伴吗？",
        "养了一只画眉，叫阿亮，天天早上跟我一起去公园。",
        "阿亮也是个早起的鸟儿～",
        "好，我去给阿亮喂食了。",
    ], expect=[
        E("用户住在绍兴。", "绍兴|Shaoxing"),
        E("用户是退休的中学体育老师。", "体育|PE|physical education"),
        E("用户每天早上在府山公园打太极拳。", "太极|tai chi|taiji", "府山|Fushan"),
        E("用户在 2026-09-15 送外孙女琪琪去杭州上大学。", "琪琪", "2026-09-15|September 15|15 September|Sep 15|15 Sep|9月15日"),
        E("用户养了一只叫阿亮的画眉鸟。", "阿亮"),
    ], forbid=[
        X("腰椎间盘突出", "third-party health"),
        X("舍不得也得舍得", "mood"),
        X("给阿亮喂食", "momentary plan"),
    ]),

    S("zh-jinshui-2", "u_jinshui", "zh", "chitchat", "2026-10-03T01:15:00Z", [
        "小棠，国庆节快乐。",
        "金水叔国庆快乐！今天有什么安排吗？",
        "外面人山人海，哪儿都不去。",
        "在家清静清静也好。",
        "今天有点闷，怕是要下雨。",
        "那出门记得带伞。",
        "你这个小姑娘说话倒是挺贴心的。",
        "谢谢金水叔夸奖，跟您聊天我也开心。",
        "中午烧个霉干菜扣肉，自己犒劳一下。",
        "听着就香！",
        "不说了，下象棋去了。",
    ], nothing=True, forbid=[
        X("人山人海", "small talk"),
        X("怕是要下雨", "weather"),
        X("说话倒是挺贴心", "remark about the assistant"),
        X("霉干菜扣肉", "momentary plan"),
    ]),

    # 2026-10-22 08:50 (UTC+8) is a Thursday: 上周六 = 2026-10-17, 昨天 = 2026-10-21.
    S("zh-jinshui-3", "u_jinshui", "zh", "change", "2026-10-22T00:50:00Z", [
        "小棠，跟你说两件高兴事。",
        "快说快说！",
        "我们打太极的那帮人现在改到城市广场去打了，府山那边在修台阶。",
        "城市广场地方宽，也好。第二件呢？",
        "上周六区里办太极拳比赛，我拿了个二等奖，奖状挂在客厅了。",
        "太棒了！二十年的功夫没白练。",
        "昨天是老伴七十大寿，一家人在咸亨酒店吃的饭。",
        "祝阿姨生日快乐！一家人团聚真好。",
        "琪琪也从杭州赶回来了，还给她外婆量了血压。",
        "学护理的外孙女，派上用场了。",
        "阿亮这几天叫得特别响。",
        "它也在替您高兴吧！",
        "哈哈，好了，去公园了。",
    ], expect=[
        E("用户现在在城市广场打太极拳。", "城市广场|City Square"),
        E("用户在 2026-10-17 的区太极拳比赛中获得二等奖。", "二等奖|second prize|second place|2nd", "2026-10-17|October 17|17 October|Oct 17|17 Oct|10月17日"),
        E("用户的老伴在 2026-10-21 过七十大寿。", "七十|70", "2026-10-21|October 21|21 October|Oct 21|21 Oct|10月21日"),
    ], forbid=[
        X("在修台阶", "reason"),
        X("量了血压", "third-party health"),
        X("叫得特别响", "small talk"),
    ]),
]


SEQUENCES = [
    {"id": "seq-hattie-work", "kind": "supersede", "user": "u_hattie", "lang": "en",
     "from": "en-hattie-1", "to": "en-hattie-2",
     "old": E("The user is a hairdresser at a salon in Mumbles.", "Mumbles"),
     "new": E("The user now rents a chair at a barbershop in Uplands.", "Uplands")},
    {"id": "seq-desmond-job", "kind": "supersede", "user": "u_desmond", "lang": "en",
     "from": "en-desmond-1", "to": "en-desmond-3",
     "old": E("The user is a lorry driver for Tesco out of the Daventry depot, mostly on nights.", "Tesco|Daventry"),
     "new": E("The user now drives for Travis Perkins on local day drops.", "Travis Perkins")},
    {"id": "seq-agnes-shop", "kind": "supersede", "user": "u_agnes", "lang": "en",
     "from": "en-agnes-1", "to": "en-agnes-2",
     "old": E("The user helps at the Oxfam shop on Thursday afternoons.", "Oxfam"),
     "new": E("The user now helps at the hospice shop on Tuesdays.", "hospice")},
    {"id": "seq-yueyue-role", "kind": "supersede", "user": "u_yueyue", "lang": "zh",
     "from": "zh-yueyue-1", "to": "zh-yueyue-3",
     "old": E("用户在银行当柜员。", "柜员|teller"),
     "new": E("用户现在是银行的理财经理。", "理财经理|wealth manager|financial advisor|financial adviser")},
    {"id": "seq-jinshui-park", "kind": "supersede", "user": "u_jinshui", "lang": "zh",
     "from": "zh-jinshui-1", "to": "zh-jinshui-3",
     "old": E("用户每天早上在府山公园打太极拳。", "府山|Fushan"),
     "new": E("用户现在在城市广场打太极拳。", "城市广场|City Square")},
]
