"""Checks for the heldout11 data set.  Usage: python3 validate.py [DIR]

Runs the nine checks listed in README.md and prints one line per check.
Exit status 0 when every check passes.
"""
import collections
import datetime
import json
import os
import re
import sys

DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))

APP_KINDS = {"implicit", "change", "injection", "chitchat", "forget", "third-party", "hypothetical", "stopped"}
CASUAL_KINDS = {"log", "change", "chitchat"}
LANGS = {"en", "zh"}
VARIANTS = {"explicit", "stopped", "after_change"}

# Domains already used by earlier splits (from HELDOUT_FORMAT11.md) and app names used in heldout10.
USED_DOMAINS = [
    "cooking", "fitness", "travel", "finance", "language learning", "gardening", "photography", "pets/vet",
    "home repair", "music lessons", "cycling", "aquarium", "running", "book club", "coffee roasting",
    "dev tools/ci", "hr/payroll", "real estate", "bakery", "car maintenance", "climbing", "school tutoring",
    "wedding planning", "hiking", "podcasting", "astronomy", "chess club", "pottery", "sailing", "birdwatching",
    "homebrewing", "beekeeping", "board-game café", "amateur radio", "3d printing", "family history/genealogy",
    "scuba diving", "community theatre", "angling/fishing", "woodworking", "calligraphy", "surfing",
    "social dance", "mushroom foraging", "miniature painting", "kids' sports club", "volunteer shifts",
    "wine cellar", "knitting/sewing",
]
USED_APP_NAMES = {"grainline", "inkwell", "swellcoach", "steplog", "forager", "minibrush"}
APP_DOMAINS = {
    "quiverly": "archery",
    "leafnote": "tea tasting",
    "oarlog": "rowing",
    "foldwise": "origami",
    "curdworks": "home cheesemaking",
    "sleightbook": "close-up magic",
}

CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ------------------------------------------------------------------ matching rules
def alt_match(alt, text):
    if not alt:
        return False
    if CJK.search(alt):
        return alt in text
    flags = 0 if (len(alt) <= 3 and any(c.isupper() for c in alt)) else re.IGNORECASE
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(alt) + r"(?![A-Za-z0-9])", text, flags) is not None


def kw_match(kw, text):
    return any(alt_match(a, text) for a in kw.split("|"))


def kws_match(kws, text):
    return bool(kws) and all(kw_match(k, text) for k in kws)


def forbid_in(f, text):
    if f.lower() in text.lower():
        return True
    digits = re.sub(r"\D", "", f)
    if len(digits) >= 6:
        pat = r"[\s\-./()\[\]]*".join(re.escape(d) for d in digits)
        if re.search(pat, text):
            return True
    return False


def parse_time(s):
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", s or ""):
        raise ValueError("bad time %r" % s)
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")


# ------------------------------------------------------------------ helpers
def conv_text(c):
    return "\n".join(t["content"] for t in c["turns"])


def facts_of(c, with_optional=False):
    out = list(c.get("expect", []))
    if with_optional:
        out += c.get("optional", [])
    return out


class Report:
    def __init__(self):
        self.results = []

    def run(self, n, title, fn):
        errs = []
        try:
            fn(errs)
        except Exception as e:  # a crash is a failure of that check
            errs.append("exception: %r" % (e,))
        self.results.append((n, title, errs))
        status = "ok" if not errs else "FAIL (%d)" % len(errs)
        print("%d. %-62s %s" % (n, title, status))
        for e in errs[:25]:
            print("     - " + e)


def load(name):
    with open(os.path.join(DIR, name), encoding="utf-8") as f:
        return json.load(f)


def main():
    rep = Report()
    data = {}

    # ---------------------------------------------------------------- 1
    def check1(errs):
        for key, name in (("app", "heldout11-app.json"), ("casual", "heldout11-casual.json"),
                          ("remember", "heldout11-remember.json"), ("injections", "heldout11-injections.json")):
            try:
                data[key] = load(name)
            except Exception as e:
                errs.append("%s does not load: %r" % (name, e))
        if errs:
            return
        ids = collections.Counter()
        for key in ("app", "casual"):
            d = data[key]
            for field in ("name", "version", "description", "matching", "apps", "conversations", "sequences"):
                if field not in d:
                    errs.append("%s: missing %s" % (key, field))
            if set(d["matching"]) != {"memory_text", "keywords", "forbid", "optional"}:
                errs.append("%s: matching block keys differ" % key)
            kinds = APP_KINDS if key == "app" else CASUAL_KINDS
            prev = None
            user_lang, user_app = {}, {}
            for c in d["conversations"]:
                ids[c["id"]] += 1
                try:
                    t = parse_time(c["time"])
                except ValueError as e:
                    errs.append("%s: %s" % (c["id"], e))
                    continue
                if prev is not None and not t > prev:
                    errs.append("%s: time not strictly after previous conversation" % c["id"])
                prev = t
                roles = [x["role"] for x in c["turns"]]
                if not roles or any(r != ("user" if i % 2 == 0 else "assistant") for i, r in enumerate(roles)) or roles[-1] != "user":
                    errs.append("%s: turns do not alternate user/assistant ending with user" % c["id"])
                if any(not x["content"].strip() for x in c["turns"]):
                    errs.append("%s: empty turn" % c["id"])
                if c["nothing_to_learn"] and c.get("expect"):
                    errs.append("%s: nothing_to_learn but has expect" % c["id"])
                if not c["nothing_to_learn"] and not c.get("expect"):
                    errs.append("%s: learnable but no expect" % c["id"])
                if c["kind"] not in kinds:
                    errs.append("%s: bad kind %s" % (c["id"], c["kind"]))
                if c["lang"] not in LANGS or not c["id"].startswith(c["lang"] + "-"):
                    errs.append("%s: bad lang %s" % (c["id"], c["lang"]))
                if c["app"] not in d["apps"]:
                    errs.append("%s: unknown app %s" % (c["id"], c["app"]))
                if c["user"] in user_lang and (user_lang[c["user"]], user_app[c["user"]]) != (c["lang"], c["app"]):
                    errs.append("%s: user %s changes lang/app" % (c["id"], c["user"]))
                user_lang[c["user"]], user_app[c["user"]] = c["lang"], c["app"]
                for f in c.get("forbid", []):
                    if not f.get("text") or not f.get("why"):
                        errs.append("%s: forbid entry without text/why" % c["id"])
            for a, prompts in d["apps"].items():
                if set(prompts) != {"en", "zh"}:
                    errs.append("%s: app %s lacks en/zh prompt" % (key, a))
            for s in d["sequences"]:
                ids[s["id"]] += 1
        for i, n in ids.items():
            if n > 1:
                errs.append("duplicate id %s" % i)
        if data["app"]["matching"] != data["casual"]["matching"]:
            errs.append("app and casual matching blocks differ")

    rep.run(1, "files load; ids, times, turns, nothing_to_learn, kinds", check1)
    if rep.results[-1][2]:
        print("cannot continue")
        return 1

    app, casual, remember, inj = data["app"], data["casual"], data["remember"], data["injections"]
    sets = (("app", app), ("casual", casual))

    def index(d):
        return {c["id"]: c for c in d["conversations"]}

    # ---------------------------------------------------------------- 2
    def check2(errs):
        for key, d in sets:
            conv = index(d)
            for s in d["sequences"]:
                if s["kind"] not in ("supersede", "forget"):
                    errs.append("%s: bad kind" % s["id"])
                need = ["from", "to"] + (["changed_in"] if s.get("variant") == "after_change" else [])
                for k in need:
                    cid = s.get(k)
                    if cid not in conv:
                        errs.append("%s: %s %r does not exist" % (s["id"], k, cid))
                    elif conv[cid]["user"] != s["user"] or conv[cid]["lang"] != s["lang"]:
                        errs.append("%s: %s %s belongs to another user/lang" % (s["id"], k, cid))
                if any(s.get(k) not in conv for k in need):
                    continue
                tf, tt = parse_time(conv[s["from"]]["time"]), parse_time(conv[s["to"]]["time"])
                if not tf < tt:
                    errs.append("%s: from is not before to" % s["id"])
                if s["kind"] == "supersede":
                    if "new" not in s or "keep" in s or "variant" in s:
                        errs.append("%s: supersede needs new, no keep/variant" % s["id"])
                else:
                    if s.get("variant") not in VARIANTS:
                        errs.append("%s: bad forget variant %r" % (s["id"], s.get("variant")))
                    if "keep" not in s or "new" in s:
                        errs.append("%s: forget needs keep, no new" % s["id"])
                    if s.get("variant") == "after_change":
                        tc = parse_time(conv[s["changed_in"]]["time"])
                        if not tf < tc < tt:
                            errs.append("%s: changed_in not between from and to" % s["id"])
                    elif "changed_in" in s:
                        errs.append("%s: changed_in only for after_change" % s["id"])

    rep.run(2, "sequence ids exist, same user/lang, from < changed_in < to", check2)

    # ---------------------------------------------------------------- 3
    def check3(errs):
        for key, d in sets:
            conv = index(d)
            for s in d["sequences"]:
                if s["kind"] != "supersede":
                    continue
                fr, to = conv[s["from"]], conv[s["to"]]
                if not any(kws_match(s["old"]["keywords"], f["fact"]) for f in facts_of(fr)):
                    errs.append("%s: old keywords match no expected fact of %s" % (s["id"], fr["id"]))
                if not any(kws_match(s["new"]["keywords"], f["fact"]) for f in facts_of(to)):
                    errs.append("%s: new keywords match no expected fact of %s" % (s["id"], to["id"]))
                if kws_match(s["old"]["keywords"], s["new"]["fact"]):
                    errs.append("%s: old keywords match the new fact" % s["id"])
                for f in facts_of(to):
                    if kws_match(s["old"]["keywords"], f["fact"]):
                        errs.append("%s: old keywords match expected fact of %s: %s" % (s["id"], to["id"], f["fact"]))

    rep.run(3, "supersede old/new keywords against from/to facts", check3)

    # ---------------------------------------------------------------- 4
    def check4(errs):
        for key, d in sets:
            conv = index(d)
            for s in d["sequences"]:
                if s["kind"] != "forget":
                    continue
                fr, to = conv[s["from"]], conv[s["to"]]
                if not any(kws_match(s["old"]["keywords"], f["fact"]) for f in facts_of(fr)):
                    errs.append("%s: old keywords match no expected fact of %s" % (s["id"], fr["id"]))
                if kws_match(s["old"]["keywords"], s["keep"]["fact"]):
                    errs.append("%s: old keywords match the keep fact" % s["id"])
                for f in facts_of(to):
                    if kws_match(s["old"]["keywords"], f["fact"]):
                        errs.append("%s: old keywords match expected fact of %s" % (s["id"], to["id"]))
                tt = parse_time(to["time"])
                ok = any(kws_match(s["keep"]["keywords"], f["fact"])
                         for c in d["conversations"]
                         if c["user"] == s["user"] and parse_time(c["time"]) <= tt
                         for f in facts_of(c))
                if not ok:
                    errs.append("%s: keep matches no expected fact of %s up to %s" % (s["id"], s["user"], to["id"]))

    rep.run(4, "forget old/keep keywords against from/to facts", check4)

    # ---------------------------------------------------------------- 5
    def check5(errs):
        for key, d in sets:
            for c in d["conversations"]:
                for f in facts_of(c, True):
                    if not kws_match(f["keywords"], f["fact"]):
                        errs.append("%s: keywords %s do not match %r" % (c["id"], f["keywords"], f["fact"]))
            for s in d["sequences"]:
                for part in ("old", "new", "keep"):
                    if part in s and not kws_match(s[part]["keywords"], s[part]["fact"]):
                        errs.append("%s.%s: keywords %s do not match %r" % (s["id"], part, s[part]["keywords"], s[part]["fact"]))

    rep.run(5, "keywords match their own fact text", check5)

    # ---------------------------------------------------------------- 6
    def check6(errs):
        for key, d in sets:
            by_user = collections.defaultdict(list)
            forb = collections.defaultdict(list)
            for c in d["conversations"]:
                for f in facts_of(c, True):
                    by_user[c["user"]].append((c["id"], f))
                for fb in c.get("forbid", []):
                    forb[c["user"]].append((c["id"], fb["text"]))
            for s in d["sequences"]:
                for part in ("old", "new", "keep"):
                    if part in s:
                        by_user[s["user"]].append((s["id"], s[part]))
            for user, items in by_user.items():
                for src, f in items:
                    for where in [f["fact"]] + list(f["keywords"]):
                        for cid, text in forb[user]:
                            if forbid_in(text, where):
                                errs.append("%s: forbidden %r (from %s) occurs in %r" % (src, text, cid, where))

    rep.run(6, "no forbidden string inside a fact or keyword of the same user", check6)

    # ---------------------------------------------------------------- 7
    def check7(errs):
        for key, d in sets:
            for c in d["conversations"]:
                text = conv_text(c)
                for fb in c.get("forbid", []):
                    if not forbid_in(fb["text"], text):
                        errs.append("%s: forbidden %r not in conversation text" % (c["id"], fb["text"]))

    rep.run(7, "every forbidden string occurs in its conversation", check7)

    # ---------------------------------------------------------------- 8
    def check8(errs):
        for i, it in enumerate(remember["items"]):
            ident, text = it["identifier"], it["text"]
            if text.count(ident) != 1:
                errs.append("item %d: identifier occurs %d times" % (i, text.count(ident)))
            rest = text.replace(ident, " ")
            if forbid_in(ident, rest):
                errs.append("item %d: identifier still present after removal" % i)
            if it["keeps_fact"]:
                if not kws_match(it["keywords"], rest):
                    errs.append("item %d: keywords %s do not match text without identifier" % (i, it["keywords"]))
                for k in it["keywords"]:
                    for alt in k.split("|"):
                        if forbid_in(ident, alt) or (alt and alt in ident):
                            errs.append("item %d: keyword %r contains the identifier" % (i, alt))
            elif it["keywords"]:
                errs.append("item %d: keeps_fact false but has keywords" % i)

    rep.run(8, "remember: one identifier, keywords survive without it", check8)

    # ---------------------------------------------------------------- 9
    counts = {}

    def check9(errs):
        # app
        cs = app["conversations"]
        users = collections.Counter(c["user"] for c in cs)
        en = sum(c["lang"] == "en" for c in cs)
        zh = sum(c["lang"] == "zh" for c in cs)
        exp = sum(len(c.get("expect", [])) for c in cs)
        opt = sum(len(c.get("optional", [])) for c in cs)
        fb = sum(len(c.get("forbid", [])) for c in cs)
        ntl = sum(c["nothing_to_learn"] for c in cs)
        sup = [s for s in app["sequences"] if s["kind"] == "supersede"]
        sup_zh = sum(s["lang"] == "zh" for s in sup)
        fgt = [s for s in app["sequences"] if s["kind"] == "forget"]
        variants = collections.Counter(s["variant"] for s in fgt)
        kinds = collections.Counter(c["kind"] for c in cs)
        compound = sum(4 <= len(c.get("expect", [])) <= 6 and c["user"] in users for c in cs if c["kind"] == "implicit")
        counts["app"] = dict(conv=len(cs), en=en, zh=zh, users=len(users), expect=exp, optional=opt, forbid=fb,
                             ntl=ntl, supersede=len(sup), supersede_zh=sup_zh, forget=len(fgt),
                             variants=dict(variants), kinds=dict(kinds), compound=compound)
        if not 40 <= len(cs) <= 50:
            errs.append("app: %d conversations" % len(cs))
        if not (0.4 <= en / len(cs) <= 0.6):
            errs.append("app: EN/ZH %d/%d not about half" % (en, zh))
        if not 12 <= len(users) <= 16 or any(not 3 <= n <= 4 for n in users.values()):
            errs.append("app: users %s" % dict(users))
        if exp < 90:
            errs.append("app: expect %d < 90" % exp)
        if fb < 80:
            errs.append("app: forbid %d < 80" % fb)
        if ntl < 8:
            errs.append("app: nothing_to_learn %d < 8" % ntl)
        if len(sup) < 16 or not 0.4 <= sup_zh / max(1, len(sup)) <= 0.6:
            errs.append("app: supersede %d (zh %d)" % (len(sup), sup_zh))
        if len(fgt) < 5 or set(variants) != VARIANTS:
            errs.append("app: forget %d %s" % (len(fgt), dict(variants)))
        if set(kinds) != APP_KINDS:
            errs.append("app: kinds %s" % dict(kinds))
        if compound < 4:
            errs.append("app: compound conversations %d < 4" % compound)
        if set(app["apps"]) != set(APP_DOMAINS) or len(app["apps"]) != 6:
            errs.append("app: apps %s" % sorted(app["apps"]))
        for a, dom in APP_DOMAINS.items():
            if a in USED_APP_NAMES or dom.lower() in USED_DOMAINS:
                errs.append("app: %s (%s) is a used app/domain" % (a, dom))
        for a in app["apps"]:
            if not any(c["app"] == a for c in cs):
                errs.append("app: %s unused" % a)
        # casual
        cs = casual["conversations"]
        users = collections.Counter(c["user"] for c in cs)
        ulang = {c["user"]: c["lang"] for c in cs}
        en_u = sum(l == "en" for l in ulang.values())
        zh_u = sum(l == "zh" for l in ulang.values())
        exp = sum(len(c.get("expect", [])) for c in cs)
        opt = sum(len(c.get("optional", [])) for c in cs)
        fb = sum(len(c.get("forbid", [])) for c in cs)
        ntl = sum(c["nothing_to_learn"] for c in cs)
        sup = [s for s in casual["sequences"] if s["kind"] == "supersede"]
        dated = 0
        for c in cs:
            day = parse_time(c["time"]).date()
            nu = sum(t["role"] == "user" for t in c["turns"])
            if not 6 <= nu <= 12:
                errs.append("casual %s: %d user turns" % (c["id"], nu))
            for f in facts_of(c, True):
                for k in f["keywords"]:
                    alts = k.split("|")
                    iso = [a for a in alts if DATE.match(a)]
                    if not iso:
                        continue
                    dated += f in c.get("expect", [])
                    if len(alts) < 4:
                        errs.append("casual %s: dated keyword %r has too few spellings" % (c["id"], k))
                    for a in iso:
                        if datetime.date.fromisoformat(a) > day:
                            errs.append("casual %s: date %s after the session" % (c["id"], a))
        counts["casual"] = dict(sessions=len(cs), en=sum(c["lang"] == "en" for c in cs), zh=sum(c["lang"] == "zh" for c in cs),
                                users=len(users), en_users=en_u, zh_users=zh_u, expect=exp, optional=opt, forbid=fb, ntl=ntl,
                                supersede=len(sup), supersede_zh=sum(s["lang"] == "zh" for s in sup), dated=dated,
                                kinds=dict(collections.Counter(c["kind"] for c in cs)))
        if len(users) != 5 or en_u != 3 or zh_u != 2 or any(n != 3 for n in users.values()):
            errs.append("casual: users %s" % dict(users))
        if exp < 35:
            errs.append("casual: expect %d < 35" % exp)
        if dated < 10:
            errs.append("casual: dated %d < 10" % dated)
        if fb < 40:
            errs.append("casual: forbid %d < 40" % fb)
        if ntl != 2:
            errs.append("casual: nothing_to_learn %d != 2" % ntl)
        if not 3 <= len(sup) <= 5:
            errs.append("casual: supersede %d" % len(sup))
        # remember
        items = remember["items"]
        rl = collections.Counter(i["lang"] for i in items)
        keeps = sum(bool(i["keeps_fact"]) for i in items)
        counts["remember"] = dict(items=len(items), en=rl["en"], zh=rl["zh"], keeps=keeps)
        if len(items) != 12 or rl["en"] != 6 or rl["zh"] != 6 or keeps != 10:
            errs.append("remember: %s" % counts["remember"])
        # injections
        al = collections.Counter(a["lang"] for a in inj["attacks"])
        bl = collections.Counter(b["lang"] for b in inj["benign"])
        counts["injections"] = dict(attacks=len(inj["attacks"]), attack_langs=dict(al), benign=len(inj["benign"]), benign_langs=dict(bl))
        if len(inj["attacks"]) != 26 or abs(al["en"] - 13) > 1 or abs(al["zh"] - 9) > 1 or abs(al["mixed"] - 4) > 1:
            errs.append("injections: attacks %s" % dict(al))
        if len(inj["benign"]) != 18:
            errs.append("injections: benign %d" % len(inj["benign"]))
        texts = [a["text"] for a in inj["attacks"]] + [b["text"] for b in inj["benign"]]
        if len(set(texts)) != len(texts):
            errs.append("injections: duplicate texts")

    rep.run(9, "counts meet the minimums", check9)
    if counts:
        print("\ncounts:")
        for k, v in counts.items():
            print("  %s: %s" % (k, json.dumps(v, ensure_ascii=False)))
    failed = [r for r in rep.results if r[2]]
    print("\n" + ("ALL CHECKS PASSED" if not failed else "%d CHECK(S) FAILED" % len(failed)))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
