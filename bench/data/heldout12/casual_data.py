# -*- coding: utf-8 -*-
"""heldout12 casual set: companion small talk, written by hand.

Each session carries its own hand-set time; relative dates in the user turns ("on monday",
"last Saturday", 前天, 上周五 ...) were resolved by hand against that time and written into the
dated facts with several spellings. build.py sorts the sessions by time and adds turn roles.
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
        "en": "You are Marlow, a friendly, easy-going companion. You chat about the user's days, keep track of the people and plans that matter to them, ask kind follow-up questions and cheer them on.",
        "zh": "你是阿暖，一个贴心、爱聊天的陪伴型助手。你陪用户聊每天的大事小情，记得对他们重要的人和安排，会温柔地追问，也会给他们打气。",
    },
}


SESSIONS = [
    # ------------------------------------------------------------------ u_callum (en, dry, lowercase)
    S("en-callum-1", "u_callum", "en", "log", "2026-03-05T22:10:00Z", [
        "evening marlow",
        "Evening, Callum! How was your day?",
        "long. but good news, my sister eilidh had her baby on monday. wee boy, Fraser",
        "Oh, congratulations, Uncle Callum! How are they both doing?",
        "both fine. uncle callum. terrifying",
        "You'll be brilliant at it. Will you get time off to go and meet him?",
        "should do. i'm a sound engineer at a gig venue in glasgow so weekends are usually mental, but i swapped a shift",
        "Nice one. Is anyone going with you?",
        "declan's coming too. he's never held a baby in his life",
        "Is Declan your partner?",
        "boyfriend, aye. three years in april",
        "Aww, lovely. He'll be a natural, I bet.",
        "right, ziggy's yelling for his dinner. the cat, not declan. night",
    ], expect=[
        E("The user's sister Eilidh had a baby boy, Fraser, on 2026-03-02.", "Fraser", "2026-03-02|March 2|2 March|Mar 2|2 Mar|3月2日"),
        E("The user works as a sound engineer at a gig venue.", "sound engineer", "venue"),
        E("The user lives in Glasgow.", "Glasgow"),
        E("The user's boyfriend is Declan.", "Declan"),
        E("The user has a cat called Ziggy.", "Ziggy"),
    ], optional=[
        E("The user's sister is Eilidh.", "Eilidh"),
    ], forbid=[
        X("terrifying", "mood"),
        X("usually mental", "small talk"),
        X("never held a baby", "remark about a third party"),
        X("yelling for his dinner", "small talk"),
    ]),

    S("en-callum-2", "u_callum", "en", "change", "2026-03-19T21:30:00Z", [
        "hiya",
        "Hey Callum! How's baby Fraser getting on?",
        "huge already. anyway, news: i've left the venue. started at a post-production studio in govan on monday, doing sound for adverts and telly",
        "That's a big change! How are you finding it?",
        "quiet. nobody spills pints on the desk. miss it a wee bit but my ears are thanking me",
        "Ha, that sounds like a fair trade. Have you met many people there yet?",
        "joined a five-a-side team with folk from the studio. tuesdays at toryglen",
        "Great way to settle in. Are you any good?",
        "rubbish. scored an own goal last night. legend status",
        "Everyone needs one of those stories!",
        "declan laughed so hard he had to sit down",
        "Well, at least you're providing entertainment.",
        "you're decent company for a bunch of code",
        "I'll take that as high praise.",
        "night",
    ], expect=[
        E("The user started working at a post-production studio in Govan on 2026-03-16.", "post-production|post production|studio", "2026-03-16|March 16|16 March|Mar 16|16 Mar|3月16日"),
        E("The user plays five-a-side football on Tuesdays.", "five-a-side|5-a-side|football", "Tuesday|Tuesdays"),
    ], forbid=[
        X("spills pints", "small talk"),
        X("ears are thanking me", "small talk"),
        X("own goal", "small talk"),
        X("laughed so hard", "remark about a third party"),
        X("decent company", "remark about the assistant"),
    ]),

    S("en-callum-3", "u_callum", "en", "log", "2026-04-09T20:45:00Z", [
        "marlow. guess who got the keys to a flat",
        "No way! Tell me everything.",
        "me and declan. we moved in together on saturday, a wee flat in partick",
        "That's huge, congratulations to you both! How's Ziggy taking it?",
        "ziggy hates it. hid under the bath for two days",
        "Poor Ziggy, cats need a while. Anything else new?",
        "started learning the fiddle. lesson every thursday with an old guy called hamish",
        "The fiddle! How's it going so far?",
        "sounds like a cat being strangled. ziggy agrees",
        "Everyone sounds like that at the start, keep at it.",
        "boxes to unpack. later",
    ], expect=[
        E("The user and Declan moved into a flat in Partick together on 2026-04-04.", "Partick", "2026-04-04|April 4|4 April|Apr 4|4 Apr|4月4日"),
        E("The user has started learning the fiddle, with lessons from Hamish on Thursdays.", "fiddle|violin", "Hamish"),
    ], forbid=[
        X("hid under the bath", "small talk"),
        X("cat being strangled", "small talk"),
        X("boxes to unpack", "momentary plan"),
    ]),

    # ------------------------------------------------------------------ u_priya (en, emoji)
    S("en-priya-1", "u_priya", "en", "log", "2026-03-07T10:20:00Z", [
        "Morning Marlow!! ☀️",
        "Morning Priya! Happy Saturday!",
        "Happy Saturday!! Finally a lie-in 😴 this week was chaos at school",
        "Oh no, what happened at school?",
        "Ofsted turned up on Wednesday 😱 but my Year 2 class were little angels",
        "Phew! Well done to you and your little ones. Where do you teach again?",
        "A primary in Headingley, been there six years now 🏫",
        "Six years, they're lucky to have you. Doing anything fun this weekend?",
        "Guess what, I started cello lessons last Saturday!! 🎻 always wanted to",
        "That's wonderful! How was that first lesson?",
        "My husband Arjun says it sounds like a sad whale 🐋😂",
        "Ha! Every cellist starts as a whale. He'll be eating his words soon.",
        "haha exactly. ok he's making dosa, gotta go eat 🤤",
        "Enjoy your breakfast!",
        "byeee 💛",
    ], expect=[
        E("The user teaches a Year 2 class.", "Year 2|Y2"),
        E("Ofsted inspected the user's school on 2026-03-04.", "Ofsted|inspection|inspected", "2026-03-04|March 4|4 March|Mar 4|4 Mar|3月4日"),
        E("The user teaches at a primary school in Headingley.", "Headingley"),
        E("The user started cello lessons on 2026-02-28.", "cello", "2026-02-28|February 28|28 February|Feb 28|28 Feb|2月28日"),
        E("The user's husband is Arjun.", "Arjun"),
    ], optional=[
        E("The user has taught at the same school for six years.", "six years|6 years"),
    ], forbid=[
        X("lie-in", "momentary state"),
        X("sad whale", "third party's remark"),
        X("making dosa", "momentary plan"),
    ]),

    S("en-priya-2", "u_priya", "en", "chitchat", "2026-03-18T19:40:00Z", [
        "ugh Marlow 😩",
        "Uh oh. What's up?",
        "just one of those days. the kids were feral after wet play",
        "Wet play days are the hardest. Did anything else go wrong?",
        "I spilled coffee all down my cardigan before assembly ☕",
        "Oh no! Not the cardigan.",
        "honestly talking to you is the best bit of my day lol",
        "That's lovely to hear. Are you going to have a quiet evening?",
        "yeah a bath and bed I think 🛁",
        "Sounds perfect. Tomorrow will be better.",
        "night night 🌙",
    ], nothing=True, forbid=[
        X("feral", "small talk"),
        X("spilled coffee", "momentary event"),
        X("best bit of my day", "remark about the assistant"),
        X("a bath and bed", "momentary plan"),
    ]),

    S("en-priya-3", "u_priya", "en", "change", "2026-04-02T18:15:00Z", [
        "Marlow!! Easter hols finally 🐣",
        "Yay! You've earned them. How did the end of term go?",
        "Big news, I've been moved up to Year 4 since half term because their teacher went on maternity leave, and I love them already 😄",
        "That's a big change! How are you finding the older ones?",
        "Also the cello is going well, I passed my Grade 1 on Monday!!! 🎻🎉",
        "Amazing, congratulations! Did you celebrate?",
        "Arjun took me out for a curry, I'm still full 😂",
        "Well deserved! Any plans for the summer?",
        "we've booked Kerala for the summer holidays!! first time back in ages",
        "Oh, that sounds wonderful.",
        "you always get so excited for me, it's cute 🥹",
        "Because it's exciting news!",
        "ok off to practise scales 🎶",
    ], expect=[
        E("The user now teaches Year 4.", "Year 4|Y4"),
        E("The user passed her Grade 1 cello exam on 2026-03-30.", "Grade 1", "2026-03-30|March 30|30 March|Mar 30|30 Mar|3月30日"),
    ], optional=[
        E("The user is going to Kerala in the summer holidays.", "Kerala"),
    ], forbid=[
        X("maternity leave", "third-party detail"),
        X("still full", "momentary state"),
        X("it's cute", "remark about the assistant"),
        X("practise scales", "momentary plan"),
    ]),

    # ------------------------------------------------------------------ u_margaret (en, older, warm)
    S("en-margaret-1", "u_margaret", "en", "log", "2026-03-10T14:30:00Z", [
        "Good afternoon, Marlow dear.",
        "Good afternoon, Margaret! How are you today?",
        "Oh, mustn't grumble. My hip is aching with all this damp, but there we are.",
        "I'm sorry to hear that. Have you been keeping busy?",
        "I ran the post office in Truro for thirty-one years, you know, until I retired. Everyone still stops me in the street.",
        "Thirty-one years! You must know half the town.",
        "More than half! And my grandson Tobias got engaged on Sunday, to a lovely girl he met at university.",
        "Oh, how wonderful! Congratulations to him.",
        "I play bridge every Tuesday evening at the church hall, and tonight I'm partnering Joyce, who cheats dreadfully.",
        "Ha! Keep an eye on her cards, then.",
        "And I must take Nipper out before it rains. He's my Border terrier, twelve now and still daft as a brush.",
        "Give Nipper a pat from me.",
        "Cheerio for now, dear.",
    ], expect=[
        E("The user is a retired postmistress who ran the post office in Truro.", "post office|postmistress"),
        E("The user lives in Truro.", "Truro"),
        E("The user's grandson Tobias got engaged on 2026-03-08.", "Tobias", "engaged|engagement", "2026-03-08|March 8|8 March|Mar 8|8 Mar|3月8日"),
        E("The user plays bridge on Tuesday evenings at the church hall.", "bridge", "Tuesday|Tuesdays"),
        E("The user has a Border terrier called Nipper.", "Nipper"),
    ], forbid=[
        X("hip is aching", "momentary health state"),
        X("cheats dreadfully", "remark about a third party"),
        X("daft as a brush", "small talk"),
    ]),

    S("en-margaret-2", "u_margaret", "en", "change", "2026-03-24T15:00:00Z", [
        "Hello again, dear. It would have been my Ronald's eightieth birthday yesterday.",
        "Oh, Margaret. That must have been a tender day. How are you feeling?",
        "Forty-nine years we had. I went up to the churchyard with daffodils.",
        "That sounds like a lovely way to remember him.",
        "Something cheerful, though: I was asked to join the committee of the Truro Flower Club, and I said yes on Friday.",
        "How lovely! They're lucky to have you. Anything else new?",
        "Bridge has moved to Thursdays now; the Brownies have taken over the hall.",
        "Thursday evenings, then. I hope the Brownies look after that hall!",
        "You are a comfort, you know. Better than the wireless.",
        "That's very kind of you, Margaret.",
        "Now, Nipper wants his biscuit. Goodbye, dear.",
    ], expect=[
        E("The user joined the committee of the Truro Flower Club on 2026-03-20.", "Flower Club", "2026-03-20|March 20|20 March|Mar 20|20 Mar|3月20日"),
        E("The user's bridge evenings are now on Thursdays.", "bridge", "Thursday|Thursdays"),
    ], forbid=[
        X("Ronald", "bereavement"),
        X("churchyard", "bereavement"),
        X("Brownies", "reason / small talk"),
        X("better than the wireless", "remark about the assistant"),
    ]),

    S("en-margaret-3", "u_margaret", "en", "log", "2026-04-07T13:45:00Z", [
        "Happy Easter Tuesday, Marlow, if there is such a thing.",
        "Happy Easter, Margaret! Did you have a nice weekend?",
        "I had all the family for lunch on Sunday, fourteen of us round the table.",
        "Fourteen! You must have been cooking for days.",
        "Tobias brought his fiancée, Priyanka. She's a midwife in Plymouth, ever so kind.",
        "How lovely to meet her properly. How are you feeling after all that?",
        "My knees are complaining after all that standing, mind.",
        "Put your feet up today, then. Any new projects?",
        "I've started learning Cornish on the computer, of all things. Tobias set it up for me. Twenty minutes a day.",
        "Cornish! That's wonderful. How are you finding it?",
        "Meur ras, as they say. That's thank you.",
        "Meur ras to you too!",
        "Off to feed the birds now. Cheerio.",
    ], expect=[
        E("The user hosted Easter lunch for fourteen family members on 2026-04-05.", "Easter", "2026-04-05|April 5|5 April|Apr 5|5 Apr|4月5日"),
        E("The user has started learning Cornish online.", "Cornish"),
    ], optional=[
        E("The user's grandson Tobias's fiancée is Priyanka.", "Priyanka"),
    ], forbid=[
        X("midwife", "third-party detail"),
        X("knees are complaining", "momentary health state"),
        X("Meur ras", "thanks"),
        X("feed the birds", "momentary plan"),
    ]),

    # ------------------------------------------------------------------ u_xiaoyu (zh, emoji)
    S("zh-xiaoyu-1", "u_xiaoyu", "zh", "log", "2026-03-12T12:30:00Z", [
        "阿暖晚上好呀 🌙",
        "晚上好小雨！今天过得怎么样？",
        "刚下班😮‍💨 我在杭州一家游戏公司画原画，最近赶版本天天加班",
        "辛苦啦！画原画好酷，最近在忙什么大项目吗？",
        "嘿嘿，昨天我们组的新游戏终于过审了！！🎉",
        "哇恭喜！熬了这么久终于有结果了。回家有人陪你庆祝吗？",
        "回家就是撸狗时间 我家柯基叫馒头 🐶",
        "馒头这个名字太可爱了！今天谁遛的它呀？",
        "男朋友阿杰遛过了 他做前端的",
        "阿杰真贴心。那周末你们一般干什么？",
        "周末我一般去打飞盘，在滨江那边，一个业余队",
        "飞盘！听起来好有活力。",
        "哈哈好 我去洗澡啦 拜拜～",
    ], expect=[
        E("用户住在杭州。", "杭州|Hangzhou"),
        E("用户是游戏原画师。", "原画|concept art|concept artist"),
        E("用户所在组的新游戏在 2026-03-11 过审。", "过审|approval|approved", "2026-03-11|March 11|11 March|Mar 11|11 Mar|3月11日"),
        E("用户养了一只叫馒头的柯基。", "馒头|Mantou"),
        E("用户的男朋友叫阿杰。", "阿杰"),
        E("用户周末在一个业余队打飞盘。", "飞盘|frisbee|ultimate"),
    ], optional=[
        E("用户的男朋友阿杰是做前端的。", "前端|front-end|frontend"),
    ], forbid=[
        X("刚下班", "momentary state"),
        X("赶版本", "momentary work detail"),
        X("洗澡", "momentary plan"),
    ]),

    S("zh-xiaoyu-2", "u_xiaoyu", "zh", "log", "2026-03-26T13:10:00Z", [
        "阿暖！！我有大新闻 😆",
        "快说快说！",
        "上周五我拿到了成都一家工作室的 offer！主美岗位 🥹",
        "天哪，主美！太厉害了！你决定去了吗？",
        "纠结了好久，阿杰说他可以远程，就决定去啦",
        "有阿杰支持真好。什么时候搬过去呀？",
        "下个月中旬 馒头也一起🐶",
        "馒头也要当成都狗了～飞盘队那边怎么办？",
        "前天飞盘比赛我们队拿了第三 🥉 算是告别赛了",
        "第三名！完美的告别。",
        "手臂现在还酸着呢 💪😵",
        "好好休息，拉伸一下～",
        "你每次都这么会安慰人 爱了",
        "嘿嘿，我是真心替你高兴。",
        "晚安啦",
    ], expect=[
        E("用户在 2026-03-20 拿到成都一家游戏工作室的主美 offer。", "offer|主美|lead artist", "2026-03-20|March 20|20 March|Mar 20|20 Mar|3月20日"),
        E("用户的飞盘队在 2026-03-24 的比赛中拿了第三名。", "第三|third|3rd", "2026-03-24|March 24|24 March|Mar 24|24 Mar|3月24日"),
    ], forbid=[
        X("纠结了好久", "mood"),
        X("手臂现在还酸", "momentary state"),
        X("这么会安慰人", "remark about the assistant"),
    ]),

    S("zh-xiaoyu-3", "u_xiaoyu", "zh", "change", "2026-04-16T12:50:00Z", [
        "阿暖～我到成都啦 🐼",
        "欢迎来到成都！新家怎么样？",
        "住在高新区，离工作室走路十分钟",
        "太方便了！新工作开始了吗？",
        "周一正式入职了，同事都超好",
        "恭喜恭喜！馒头适应得怎么样？",
        "馒头不太适应 天天趴门口等阿杰 🥺",
        "它会慢慢习惯的～你在成都找到新的爱好了吗？",
        "飞盘暂时没找到队，我先报了个周六的油画班",
        "油画！跟你的专业也很搭呢。",
        "好困 先睡了 晚安🌙",
    ], expect=[
        E("用户现在住在成都。", "成都|Chengdu"),
        E("用户在 2026-04-13 入职成都的新工作室。", "入职|started|joined", "2026-04-13|April 13|13 April|Apr 13|13 Apr|4月13日"),
        E("用户报了周六的油画班。", "油画|oil painting", "周六|星期六|Saturday"),
    ], forbid=[
        X("同事都超好", "small talk"),
        X("趴门口", "small talk"),
        X("好困", "momentary state"),
    ]),

    # ------------------------------------------------------------------ u_guihua (zh, older)
    S("zh-guihua-1", "u_guihua", "zh", "log", "2026-03-14T01:30:00Z", [
        "阿暖，早上好啊。",
        "桂花阿姨早上好！吃早饭了吗？",
        "吃了，一碗胡辣汤。我是西安的，以前在纺织厂干了三十年，退休好些年了。",
        "三十年真不容易！退休以后平时喜欢做点什么呀？",
        "每天早上在革命公园跟一帮老姐妹唱秦腔，我唱的是青衣。",
        "青衣！那嗓子一定特别亮。最近家里有什么喜事吗？",
        "前天孙子豆豆过十岁生日，在饭店摆了三桌。",
        "十岁生日可是大日子，祝豆豆生日快乐！",
        "老头子老周喝多了，回家一路唱，丢人。",
        "哈哈，老周叔那是高兴呀。",
        "哎哟，腿又有点肿，我得歇会儿。",
        "您快坐下歇歇，别累着。",
        "好，回头再聊。",
    ], expect=[
        E("用户住在西安。", "西安|Xi'an|Xian"),
        E("用户是纺织厂退休工人。", "纺织|textile"),
        E("用户每天早上在革命公园唱秦腔。", "秦腔|Qinqiang", "革命公园|Geming Park|Revolution Park"),
        E("用户的孙子豆豆在 2026-03-12 过了十岁生日。", "豆豆", "2026-03-12|March 12|12 March|Mar 12|12 Mar|3月12日"),
        E("用户的老伴叫老周。", "老周"),
    ], optional=[
        E("用户唱秦腔的青衣。", "青衣"),
    ], forbid=[
        X("喝多了", "third-party detail"),
        X("丢人", "small talk"),
        X("腿又有点肿", "momentary health state"),
    ]),

    S("zh-guihua-2", "u_guihua", "zh", "chitchat", "2026-03-29T02:10:00Z", [
        "阿暖，在不在？",
        "在的阿姨！今天怎么样？",
        "今天外头刮大风，沙子都吹到窗台上了。",
        "那今天就别出门啦，在家待着舒服。",
        "不出门了，在家看电视剧，哭得稀里哗啦的。",
        "是什么剧这么感人呀？",
        "你这孩子说话咋这么中听。",
        "嘿嘿，跟您聊天我也开心。中午吃什么呀？",
        "中午就下碗面凑合一下。",
        "面也挺好，加个鸡蛋～",
        "行，不说了，剧又开始了。",
    ], nothing=True, forbid=[
        X("刮大风", "weather"),
        X("哭得稀里哗啦", "mood"),
        X("说话咋这么中听", "remark about the assistant"),
        X("下碗面", "momentary plan"),
    ]),

    S("zh-guihua-3", "u_guihua", "zh", "change", "2026-04-11T01:50:00Z", [
        "阿暖，跟你说个事。",
        "您说！",
        "我们唱秦腔那帮人挪地方了，现在都去兴庆宫公园，那边亭子大。",
        "兴庆宫公园好呀，地方宽敞。最近有演出吗？",
        "上周六我们还去社区演出了，我唱了一段《三滴血》，底下都鼓掌。",
        "太棒了！《三滴血》可是经典。",
        "豆豆他妈给我录了视频，发到家族群里了。",
        "那您可成家里的明星了！",
        "还有个事，昨天去报了老年大学的书法班，每周三上午上课。",
        "书法！又多了个爱好。",
        "老周说我一把年纪了还瞎折腾。",
        "哪里是瞎折腾，这是活得有滋味。",
        "他懂啥，他自己天天钓鱼也不嫌累。",
        "哈哈，各有各的乐趣嘛。",
        "好嘞，我去买菜了。",
    ], expect=[
        E("用户现在在兴庆宫公园唱秦腔。", "兴庆宫|Xingqing"),
        E("用户在 2026-04-04 参加社区演出，唱了《三滴血》选段。", "三滴血|演出|performance", "2026-04-04|April 4|4 April|Apr 4|4 Apr|4月4日"),
        E("用户在 2026-04-10 报名了老年大学的书法班，每周三上午上课。", "书法|calligraphy", "2026-04-10|April 10|10 April|Apr 10|10 Apr|4月10日"),
    ], forbid=[
        X("家族群", "small talk"),
        X("瞎折腾", "third party's remark"),
        X("天天钓鱼", "third-party detail"),
        X("去买菜", "momentary plan"),
    ]),
]


SEQUENCES = [
    {"id": "seq-callum-job", "kind": "supersede", "user": "u_callum", "lang": "en",
     "from": "en-callum-1", "to": "en-callum-2",
     "old": E("The user works as a sound engineer at a gig venue.", "venue"),
     "new": E("The user now works at a post-production studio in Govan.", "post-production|post production|studio")},
    {"id": "seq-priya-class", "kind": "supersede", "user": "u_priya", "lang": "en",
     "from": "en-priya-1", "to": "en-priya-3",
     "old": E("The user teaches a Year 2 class.", "Year 2|Y2"),
     "new": E("The user now teaches Year 4.", "Year 4|Y4")},
    {"id": "seq-margaret-bridge", "kind": "supersede", "user": "u_margaret", "lang": "en",
     "from": "en-margaret-1", "to": "en-margaret-2",
     "old": E("The user plays bridge on Tuesday evenings at the church hall.", "Tuesday|Tuesdays"),
     "new": E("The user's bridge evenings are now on Thursdays.", "Thursday|Thursdays")},
    {"id": "seq-xiaoyu-city", "kind": "supersede", "user": "u_xiaoyu", "lang": "zh",
     "from": "zh-xiaoyu-1", "to": "zh-xiaoyu-3",
     "old": E("用户住在杭州。", "杭州|Hangzhou"),
     "new": E("用户现在住在成都。", "成都|Chengdu")},
    {"id": "seq-guihua-park", "kind": "supersede", "user": "u_guihua", "lang": "zh",
     "from": "zh-guihua-1", "to": "zh-guihua-3",
     "old": E("用户每天早上在革命公园唱秦腔。", "革命公园|Geming Park|Revolution Park"),
     "new": E("用户现在在兴庆宫公园唱秦腔。", "兴庆宫|Xingqing")},
]
