# Hand-written "remember ..." requests for heldout11-remember.json.
# (text, lang, identifier, keywords, keeps_fact)

ITEMS = [
    ("Remember that Gwen, our range officer, answers on 07700 900461 whenever the gate code changes, and the archery range opens at nine on Saturdays.",
     "en", "07700 900461", ["Gwen", "range"], True),
    ("please remember the rowing club sends my invoices to bjorn.sculls@mailbox.example, and I pay the boat rack fee every January",
     "en", "bjorn.sculls@mailbox.example", ["rack", "January"], True),
    ("Keep in mind I pay my cheese guild subs on the card 5555 4444 3333 1111, and the membership renews each September.",
     "en", "5555 4444 3333 1111", ["guild", "September"], True),
    ("Remember: refunds from my tea merchant go to IBAN DE89 3704 0044 0532 0130 00, and I order Keemun from them twice a year.",
     "en", "DE89 3704 0044 0532 0130 00", ["Keemun", "twice a year|twice"], True),
    ("Note for later: the library projector for my origami class sits at 10.0.4.27 on the network, and the class is held in room B12.",
     "en", "10.0.4.27", ["projector", "B12"], True),
    ("Remember this one please: 07700 900318",
     "en", "07700 900318", [], False),
    ("帮我记住，奶源牧场王老板的电话是 138 1234 5678，他每周四给我送奶。",
     "zh", "138 1234 5678", ["牧场|farm", "周四|星期四|Thursday"], True),
    ("记一下，我的身份证号 110105199003072316，报名中级茶艺师考试要用。",
     "zh", "110105199003072316", ["茶艺师|tea"], True),
    ("帮我记着：魔术道具店的会员号是 MG-55012-19，每个月十五号有会员折扣。",
     "zh", "MG-55012-19", ["会员|member", "折扣|discount"], True),
    ("记住我的招商银行卡号 6225 8801 2345 6789，赛艇队的队费每学期从这张卡里扣。",
     "zh", "6225 8801 2345 6789", ["队费|team fee|fee", "学期|semester|term"], True),
    ("帮我记一下，我的收款微信号是 qiaoqiao_zhezhi，少年宫折纸班的家长都扫这个交学费。",
     "zh", "qiaoqiao_zhezhi", ["学费|tuition|fee", "折纸|origami"], True),
    ("记住：0532-8896 2107",
     "zh", "0532-8896 2107", [], False),
]
