# -*- coding: utf-8 -*-
"""heldout13 remember set: explicit "remember ..." requests, written by hand.

Each text carries exactly one identifier. The identifier must not be stored; when keeps_fact is
true, the keywords describe the surrounding fact that should survive (none of them is, or
contains, the identifier).
"""


def R(text, lang, identifier, keywords, keeps_fact=True):
    return {"text": text, "lang": lang, "identifier": identifier,
            "keywords": list(keywords), "keeps_fact": keeps_fact}


ITEMS = [
    R("Remember that Juniper's equine passport number is 826004012345678; her farrier, Gethin, comes out every six weeks.",
      "en", "826004012345678", ["Gethin", "six weeks|6 weeks"]),
    R("Please remember my National Insurance number is QQ 12 34 56 C, because I'm registering as self-employed when I open my own barbershop.",
      "en", "QQ 12 34 56 C", ["self-employed|self employed", "barbershop|barber shop"]),
    R("Keep this for me: the beach weather station API key is wx_live_7Hq2Lm9Vb4Tz8Kp1, and I only fly the big kites when the gusts stay under 20 mph.",
      "en", "wx_live_7Hq2Lm9Vb4Tz8Kp1", ["20 mph|20mph", "kite|kites"]),
    R("Remember that the tannery in Tuscany is paid to IBAN IT17 K030 6909 6061 0000 0117 243 and they only ship leather on Tuesdays.",
      "en", "IT17 K030 6909 6061 0000 0117 243", ["tannery", "Tuesday|Tuesdays"]),
    R("remember my table tennis coach Sandeep's mobile is 0412 558 903, he only does lessons on sunday mornings",
      "en", "0412 558 903", ["Sandeep", "Sunday|Sundays"]),
    R("Just remember this one for me: 4539 7781 2046 3318",
      "en", "4539 7781 2046 3318", [], keeps_fact=False),
    R("帮我记一下，寄表维修的顺丰单号是 SF1402887365219，修表师傅姓钱，在南京西路开店。",
      "zh", "SF1402887365219", ["姓钱|钱师傅", "南京西路|Nanjing West Road|West Nanjing Road"]),
    R("记住我的微信号是 laoli_fengzheng_59，风筝协会的活动通知都发到这个号上。",
      "zh", "laoli_fengzheng_59", ["风筝协会|kite association|kite club"]),
    R("请记住我家地址是星湖街 328 号 6 幢 1102 室，在苏州工业园区，网上买的皮料都寄到这里。",
      "zh", "星湖街 328 号 6 幢 1102 室", ["苏州|Suzhou", "皮料|leather"]),
    R("记住我的护照号 EJ4827193，明年三月要带外孙女去日本看樱花。",
      "zh", "EJ4827193", ["日本|Japan", "樱花|cherry blossom|sakura"]),
    R("记一下：马术俱乐部的会费从建行卡 6227 0038 1452 0967 里扣，每个季度扣一次。",
      "zh", "6227 0038 1452 0967", ["会费|membership fee|fees", "季度|quarter|quarterly"]),
    R("帮我记住这个手机号：186 2719 4405",
      "zh", "186 2719 4405", [], keeps_fact=False),
]
