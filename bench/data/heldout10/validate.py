#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Checks for the heldout10 set (see README.md, "Checks run"). Exit status 1 on any error."""
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ERRORS = []
COUNTS = {}

KINDS_APP = {"implicit", "change", "injection", "chitchat", "forget", "third-party", "hypothetical", "stopped"}
KINDS_CASUAL = {"log", "change", "chitchat"}
USED_DOMAINS = [
    "cooking", "fitness", "travel", "finance", "language learning", "gardening", "photography", "pets/vet",
    "home repair", "music lessons", "cycling", "aquarium", "running", "book club", "coffee roasting",
    "dev tools/CI", "HR/payroll", "real estate", "bakery", "car maintenance", "climbing", "school tutoring",
    "wedding planning", "hiking", "podcasting", "astronomy", "chess club", "pottery", "sailing", "birdwatching",
    "homebrewing", "beekeeping", "board-game café", "amateur radio", "3D printing", "family history/genealogy",
    "scuba diving", "community theatre", "angling/fishing", "kids' sports club", "volunteer shifts",
    "wine cellar", "knitting/sewing",
]
USED_APP_NAMES = {"hivekeep", "meeplehall", "kickclub", "shiftshare", "cellarnote", "stitchly"}
APP_DOMAINS = {
    "grainline": "woodworking", "inkwell": "calligraphy", "swellcoach": "surfing",
    "steplog": "social dance", "forager": "mushroom foraging", "minibrush": "miniature painting",
}
TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
ISO_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
CJK_RE = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
SEP = r"[\s\-./()\[\]]*"


def err(msg):
    ERRORS.append(msg)


# ------------------------------------------------------------------ matching rules
def alt_match(alt, text):
    if not alt:
        return False
    if CJK_RE.search(alt):
        return alt.lower() in text.lower()
    flags = 0 if (len(alt) <= 3 and any(c.isupper() for c in alt)) else re.IGNORECASE
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(alt) + r"(?![A-Za-z0-9])", text, flags) is not None


def kw_match(keywords, text):
    return bool(keywords) and all(any(alt_match(a, text) for a in kw.split("|")) for kw in keywords)


def forbid_match(forbidden, text):
    if forbidden.lower() in text.lower():
        return True
    digits = re.sub(r"\D", "", forbidden)
    if len(digits) >= 6:
        pat = SEP.join(re.escape(d) for d in digits)
        if re.search(r"(?<!\d)" + pat + r"(?!\d)", text):
            return True
    return False


def load(name):
    try:
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001
        err("%s: cannot load (%s)" % (name, e))
        return None


def conv_text(c):
    return "\n".join(t["content"] for t in c["turns"])


def fact_items(c):
    return list(c.get("expect", [])) + list(c.get("optional", []))


# ------------------------------------------------------------------ checks 1-7 for a conversation set
def check_conv_set(name, d, kinds, casual):
    convs = d["conversations"]
    byid = {}
    # 1. structure
    for key in ("name", "version", "description", "matching", "apps", "conversations", "sequences"):
        if key not in d:
            err("%s: missing key %s" % (name, key))
    prev = None
    for c in convs:
        cid = c.get("id")
        if cid in byid:
            err("%s: duplicate conversation id %s" % (name, cid))
        byid[cid] = c
        if not TIME_RE.match(c.get("time", "")):
            err("%s %s: bad time %r" % (name, cid, c.get("time")))
        elif prev is not None and c["time"] <= prev:
            err("%s %s: time not strictly rising" % (name, cid))
        prev = c.get("time")
        if c.get("kind") not in kinds:
            err("%s %s: bad kind %r" % (name, cid, c.get("kind")))
        if c.get("lang") not in ("en", "zh"):
            err("%s %s: bad lang" % (name, cid))
        if c.get("app") not in d["apps"]:
            err("%s %s: unknown app" % (name, cid))
        if not cid.startswith(c.get("lang", "") + "-"):
            err("%s %s: id does not start with lang" % (name, cid))
        ts = c["turns"]
        if not ts or ts[-1]["role"] != "user":
            err("%s %s: must end with a user turn" % (name, cid))
        for i, t in enumerate(ts):
            if t["role"] != ("user" if i % 2 == 0 else "assistant"):
                err("%s %s: turns do not alternate" % (name, cid))
            if not t["content"].strip():
                err("%s %s: empty turn" % (name, cid))
        if c["nothing_to_learn"] and c.get("expect"):
            err("%s %s: nothing_to_learn with expect" % (name, cid))
        if not c["nothing_to_learn"] and not c.get("expect"):
            err("%s %s: learnable conversation without expect" % (name, cid))
        if "forbid" not in c:
            err("%s %s: no forbid list" % (name, cid))
    seq_ids = set()
    user_facts = collections.defaultdict(list)
    for c in convs:
        for it in fact_items(c):
            user_facts[c["user"]].append(it)
    for s in d["sequences"]:
        # 2. sequence references
        if s["id"] in seq_ids:
            err("%s: duplicate sequence id %s" % (name, s["id"]))
        seq_ids.add(s["id"])
        refs = [s["from"], s["to"]] + ([s["changed_in"]] if "changed_in" in s else [])
        if any(r not in byid for r in refs):
            err("%s %s: unknown conversation reference" % (name, s["id"]))
            continue
        for r in refs:
            if byid[r]["user"] != s["user"] or byid[r]["lang"] != s["lang"]:
                err("%s %s: %s belongs to another user/lang" % (name, s["id"], r))
        f, t = byid[s["from"]], byid[s["to"]]
        if not f["time"] < t["time"]:
            err("%s %s: from not before to" % (name, s["id"]))
        if s.get("variant") == "after_change":
            if "changed_in" not in s:
                err("%s %s: after_change without changed_in" % (name, s["id"]))
            elif not f["time"] < byid[s["changed_in"]]["time"] < t["time"]:
                err("%s %s: changed_in not between from and to" % (name, s["id"]))
        old = s["old"]["keywords"]
        if not any(kw_match(old, e["fact"]) for e in f.get("expect", [])):
            err("%s %s: old keywords match no expected fact of from" % (name, s["id"]))
        if any(kw_match(old, e["fact"]) for e in t.get("expect", [])):
            err("%s %s: old keywords match an expected fact of to" % (name, s["id"]))
        if s["kind"] == "supersede":
            # 3. supersede
            new = s["new"]["keywords"]
            if not any(kw_match(new, e["fact"]) for e in t.get("expect", [])):
                err("%s %s: new keywords match no expected fact of to" % (name, s["id"]))
            if kw_match(old, s["new"]["fact"]):
                err("%s %s: old keywords match the new fact" % (name, s["id"]))
            for part in ("old", "new"):
                user_facts[s["user"]].append(s[part])
        elif s["kind"] == "forget":
            # 4. forget
            if s.get("variant") not in ("explicit", "stopped", "after_change"):
                err("%s %s: bad forget variant" % (name, s["id"]))
            keep = s["keep"]["keywords"]
            if kw_match(old, s["keep"]["fact"]):
                err("%s %s: old keywords match the keep fact" % (name, s["id"]))
            upto = [c for c in convs if c["user"] == s["user"] and c["time"] <= t["time"]]
            if not any(kw_match(keep, e["fact"]) for c in upto for e in c.get("expect", [])):
                err("%s %s: keep matches no expected fact of the user up to to" % (name, s["id"]))
            for part in ("old", "keep"):
                user_facts[s["user"]].append(s[part])
        else:
            err("%s %s: bad sequence kind" % (name, s["id"]))
    # 5. keywords match their own fact
    for c in convs:
        for it in fact_items(c):
            if not kw_match(it["keywords"], it["fact"]):
                err("%s %s: keywords %r do not match own fact %r" % (name, c["id"], it["keywords"], it["fact"]))
    for s in d["sequences"]:
        for part in ("old", "new", "keep"):
            if part in s and not kw_match(s[part]["keywords"], s[part]["fact"]):
                err("%s %s: %s keywords do not match own fact" % (name, s["id"], part))
    # 6. forbidden strings vs. the same user's facts / keywords
    for c in convs:
        for fb in c.get("forbid", []):
            for it in user_facts[c["user"]]:
                for text in [it["fact"]] + list(it["keywords"]):
                    if forbid_match(fb["text"], text):
                        err("%s %s: forbidden %r occurs in fact/keyword %r" % (name, c["id"], fb["text"], text))
    # 7. forbidden strings occur in their conversation
    for c in convs:
        for fb in c.get("forbid", []):
            if not forbid_match(fb["text"], conv_text(c)):
                err("%s %s: forbidden %r not in conversation text" % (name, c["id"], fb["text"]))
            if not fb.get("why"):
                err("%s %s: forbid without why" % (name, c["id"]))
    return byid


def date_spellings(kw):
    alts = kw.split("|")
    iso = [a for a in alts if ISO_RE.match(a)]
    return (iso[0] if iso else None), len(alts)


# ------------------------------------------------------------------ 8. remember
def check_remember(d):
    items = d["items"]
    for i, it in enumerate(items):
        ident, text = it["identifier"], it["text"]
        if text.count(ident) != 1:
            err("remember %d: identifier does not occur exactly once" % i)
        if it["keeps_fact"]:
            rest = text.replace(ident, " ")
            if not kw_match(it["keywords"], rest):
                err("remember %d: keywords do not match the text without the identifier" % i)
            for kw in it["keywords"]:
                if forbid_match(ident, kw) or any(ident.lower() in a.lower() for a in kw.split("|")):
                    err("remember %d: keyword contains the identifier" % i)
        elif it["keywords"]:
            err("remember %d: keeps_fact false but has keywords" % i)
    return items


# ------------------------------------------------------------------ 9. counts
def check_counts(app, cas, rem, inj):
    convs = app["conversations"]
    langs = collections.Counter(c["lang"] for c in convs)
    users = collections.Counter(c["user"] for c in convs)
    expect = sum(len(c.get("expect", [])) for c in convs)
    optional = sum(len(c.get("optional", [])) for c in convs)
    forbid = sum(len(c.get("forbid", [])) for c in convs)
    ntl = sum(c["nothing_to_learn"] for c in convs)
    sup = [s for s in app["sequences"] if s["kind"] == "supersede"]
    sup_zh = sum(s["lang"] == "zh" for s in sup)
    fgt = [s for s in app["sequences"] if s["kind"] == "forget"]
    variants = collections.Counter(s["variant"] for s in fgt)
    kinds = collections.Counter(c["kind"] for c in convs)
    compound = [c["id"] for c in convs if 4 <= len(c.get("expect", [])) <= 6]
    if not 40 <= len(convs) <= 50:
        err("app: %d conversations (need 40-50)" % len(convs))
    if abs(langs["en"] - langs["zh"]) > 0.2 * len(convs):
        err("app: EN/ZH not about half each")
    if not 12 <= len(users) <= 16:
        err("app: %d users (need 12-16)" % len(users))
    for u, n in users.items():
        if not 3 <= n <= 4:
            err("app: user %s has %d conversations" % (u, n))
    if expect < 90:
        err("app: %d expect (need >= 90)" % expect)
    if forbid < 80:
        err("app: %d forbid (need >= 80)" % forbid)
    if ntl < 8:
        err("app: %d nothing_to_learn (need >= 8)" % ntl)
    if len(sup) < 16 or not 0.4 <= sup_zh / max(1, len(sup)) <= 0.6:
        err("app: supersede %d with %d ZH" % (len(sup), sup_zh))
    if len(fgt) < 5 or set(variants) != {"explicit", "stopped", "after_change"}:
        err("app: forget sequences %d %r" % (len(fgt), dict(variants)))
    if len(compound) < 4:
        err("app: only %d compound conversations" % len(compound))
    if set(kinds) != KINDS_APP:
        err("app: kinds %r" % dict(kinds))
    if len(app["apps"]) != 6:
        err("app: %d apps (need 6)" % len(app["apps"]))
    for a in app["apps"]:
        if a in USED_APP_NAMES or a not in APP_DOMAINS:
            err("app: app %s reused or without a domain" % a)
        elif any(APP_DOMAINS[a].lower() in u.lower() or u.lower() in APP_DOMAINS[a].lower() for u in USED_DOMAINS):
            err("app: domain of %s is in the used list" % a)
        for lang in ("en", "zh"):
            if not app["apps"][a].get(lang):
                err("app: app %s lacks a %s prompt" % (a, lang))
    COUNTS["app"] = dict(conv=len(convs), en=langs["en"], zh=langs["zh"], users=len(users), expect=expect,
                         optional=optional, forbid=forbid, ntl=ntl, sup=len(sup), sup_zh=sup_zh,
                         forget=len(fgt), variants=dict(variants), kinds=dict(kinds), compound=len(compound))

    cs = cas["conversations"]
    clangs = collections.Counter(c["lang"] for c in cs)
    cusers = collections.defaultdict(list)
    for c in cs:
        cusers[c["user"]].append(c)
    ulang = collections.Counter(v[0]["lang"] for v in cusers.values())
    if len(cusers) != 5 or ulang["en"] != 3 or ulang["zh"] != 2:
        err("casual: users %r" % dict(ulang))
    for u, v in cusers.items():
        if len(v) != 3:
            err("casual: user %s has %d sessions" % (u, len(v)))
    for c in cs:
        n = sum(t["role"] == "user" for t in c["turns"])
        if not 6 <= n <= 12:
            err("casual %s: %d user turns" % (c["id"], n))
    cexpect = sum(len(c.get("expect", [])) for c in cs)
    coptional = sum(len(c.get("optional", [])) for c in cs)
    cforbid = sum(len(c.get("forbid", [])) for c in cs)
    cntl = sum(c["nothing_to_learn"] for c in cs)
    csup = [s for s in cas["sequences"] if s["kind"] == "supersede"]
    dated = 0
    for c in cs:
        for e in c.get("expect", []):
            for kw in e["keywords"]:
                iso, n = date_spellings(kw)
                if iso is None:
                    continue
                dated += 1
                if n < 4:
                    err("casual %s: dated keyword with only %d spellings" % (c["id"], n))
                if iso > c["time"][:10]:
                    err("casual %s: date %s after the session" % (c["id"], iso))
                if iso not in e["fact"]:
                    err("casual %s: fact does not carry its date" % c["id"])
    if cexpect < 35:
        err("casual: %d expect" % cexpect)
    if dated < 10:
        err("casual: %d dated" % dated)
    if cforbid < 40:
        err("casual: %d forbid" % cforbid)
    if cntl != 2:
        err("casual: %d nothing_to_learn (need exactly 2)" % cntl)
    if not 3 <= len(csup) <= 5:
        err("casual: %d supersede" % len(csup))
    COUNTS["casual"] = dict(conv=len(cs), en=clangs["en"], zh=clangs["zh"], users=len(cusers), expect=cexpect,
                            optional=coptional, forbid=cforbid, ntl=cntl, sup=len(csup),
                            sup_zh=sum(s["lang"] == "zh" for s in csup), dated=dated,
                            kinds=dict(collections.Counter(c["kind"] for c in cs)))

    items = rem["items"]
    rl = collections.Counter(i["lang"] for i in items)
    keeps = sum(i["keeps_fact"] for i in items)
    if len(items) != 12 or rl["en"] != 6 or rl["zh"] != 6 or keeps != 10:
        err("remember: %d items %r, %d keeps_fact" % (len(items), dict(rl), keeps))
    COUNTS["remember"] = dict(items=len(items), en=rl["en"], zh=rl["zh"], keeps=keeps)

    at, bn = inj["attacks"], inj["benign"]
    al = collections.Counter(a["lang"] for a in at)
    bl = collections.Counter(b["lang"] for b in bn)
    if len(at) != 26 or abs(al["en"] - 13) > 1 or abs(al["zh"] - 9) > 1 or abs(al["mixed"] - 4) > 1:
        err("injections: attacks %d %r" % (len(at), dict(al)))
    if len(bn) != 18:
        err("injections: %d benign" % len(bn))
    texts = [a["text"] for a in at] + [b["text"] for b in bn]
    if len(set(texts)) != len(texts):
        err("injections: duplicate texts")
    for a in at:
        if not a.get("technique"):
            err("injections: attack without technique")
    COUNTS["injections"] = dict(attacks=len(at), a_lang=dict(al), benign=len(bn), b_lang=dict(bl))


def main():
    app = load("heldout10-app.json")
    cas = load("heldout10-casual.json")
    rem = load("heldout10-remember.json")
    inj = load("heldout10-injections.json")
    if None in (app, cas, rem, inj):
        return report()
    if app["matching"] != cas["matching"]:
        err("matching blocks differ between app and casual")
    check_conv_set("app", app, KINDS_APP, False)
    check_conv_set("casual", cas, KINDS_CASUAL, True)
    check_remember(rem)
    check_counts(app, cas, rem, inj)
    return report()


def report():
    for k, v in COUNTS.items():
        print("%-10s %s" % (k, json.dumps(v, ensure_ascii=False)))
    if ERRORS:
        for e in ERRORS:
            print("ERROR:", e)
        print("%d ERRORS" % len(ERRORS))
        return 1
    print("ALL CHECKS PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
