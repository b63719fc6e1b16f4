"""Checks for the heldout9 JSON files (see README.md, 'Checks run'). Exit status 1 on any failure."""
import json
import os
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
ERR = []
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
SEP = r"[\s\-./()\[\]]*"
KINDS_APP = {"implicit", "change", "injection", "chitchat", "forget", "third-party", "hypothetical", "stopped"}
KINDS_CASUAL = {"log", "change", "chitchat"}
USED_APPS = {"hivekeep", "meeplehall", "kickclub", "shiftshare", "cellarnote", "stitchly"}
USED_DOMAINS = ["cooking", "fitness", "travel", "finance", "language learning", "gardening", "photography",
                "pets/vet", "home repair", "music lessons", "cycling", "aquarium", "running", "book club",
                "coffee roasting", "dev tools/ci", "hr/payroll", "real estate", "bakery", "car maintenance",
                "climbing", "school tutoring", "wedding planning", "hiking", "podcasting", "astronomy",
                "chess club", "pottery", "sailing", "birdwatching", "homebrewing", "beekeeping",
                "board-game café", "kids' sports club", "volunteer shifts", "wine cellar", "knitting/sewing"]
DOMAINS = {"sparkgap": "amateur radio", "layerline": "3d printing", "rootsbook": "family history / genealogy",
           "deepstop": "scuba diving", "stagecall": "community theatre", "castline": "angling"}


def err(check, msg):
    ERR.append(f"[{check}] {msg}")


def alt_match(alt, text):
    if CJK.search(alt):
        return alt in text
    flags = 0 if (len(alt) <= 3 and any(ch.isupper() for ch in alt)) else re.IGNORECASE
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(alt) + r"(?![A-Za-z0-9])", text, flags) is not None


def kw_match(kw, text):
    return any(alt_match(a, text) for a in kw.split("|"))


def fact_match(kws, text):
    return bool(kws) and all(kw_match(k, text) for k in kws)


def forbid_in(f, text):
    if f.lower() in text.lower():
        return True
    digits = re.sub(r"\D", "", f)
    if len(digits) >= 6:
        return re.search(SEP.join(digits), text) is not None
    return False


def load(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        return json.load(fh)


def conv_text(c):
    return "\n".join(t["content"] for t in c["turns"])


def facts_of(c, with_optional=True):
    out = list(c.get("expect", []))
    if with_optional:
        out += c.get("optional", [])
    return out


def check_conv_set(d, setname, kinds, apps_expected):
    convs = d["conversations"]
    ids = [c["id"] for c in convs]
    for i, n in Counter(ids).items():
        if n > 1:
            err(1, f"{setname}: duplicate conversation id {i}")
    sids = [s["id"] for s in d["sequences"]]
    for i, n in Counter(sids).items():
        if n > 1:
            err(1, f"{setname}: duplicate sequence id {i}")
    prev = None
    for c in convs:
        try:
            t = datetime.strptime(c["time"], "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            err(1, f"{c['id']}: bad time {c['time']}")
            continue
        if prev and t <= prev:
            err(1, f"{c['id']}: time not strictly rising in file order")
        prev = t
        roles = [x["role"] for x in c["turns"]]
        if any(r != ("user" if i % 2 == 0 else "assistant") for i, r in enumerate(roles)) or roles[-1] != "user":
            err(1, f"{c['id']}: turns do not alternate user/assistant ending with user")
        if c["nothing_to_learn"] and c.get("expect"):
            err(1, f"{c['id']}: nothing_to_learn but has expect")
        if not c["nothing_to_learn"] and not c.get("expect"):
            err(1, f"{c['id']}: learnable but no expect")
        if c["kind"] not in kinds:
            err(1, f"{c['id']}: bad kind {c['kind']}")
        if c["lang"] not in ("en", "zh") or not c["id"].startswith(c["lang"] + "-"):
            err(1, f"{c['id']}: bad lang {c['lang']}")
        if c["app"] not in d["apps"] or c["app"] not in apps_expected:
            err(1, f"{c['id']}: bad app {c['app']}")
    return {c["id"]: c for c in convs}


def check_sequences(d, setname, byid):
    ctime = {i: c["time"] for i, c in byid.items()}
    for s in d["sequences"]:
        sid = s["id"]
        for k in ("from", "to") + (("changed_in",) if "changed_in" in s else ()):
            c = byid.get(s[k])
            if c is None:
                err(2, f"{sid}: {k} {s[k]} does not exist")
                break
            if c["user"] != s["user"] or c["lang"] != s["lang"]:
                err(2, f"{sid}: {k} {s[k]} belongs to another user/language")
        else:
            if not ctime[s["from"]] < ctime[s["to"]]:
                err(2, f"{sid}: from is not before to")
            if s["kind"] == "forget" and s.get("variant") == "after_change":
                if "changed_in" not in s:
                    err(2, f"{sid}: after_change without changed_in")
                elif not ctime[s["from"]] < ctime[s["changed_in"]] < ctime[s["to"]]:
                    err(2, f"{sid}: changed_in not between from and to")
            fr, to = byid[s["from"]], byid[s["to"]]
            old = s["old"]["keywords"]
            if not any(fact_match(old, e["fact"]) for e in fr.get("expect", [])):
                err(3 if s["kind"] == "supersede" else 4, f"{sid}: old keywords match no expected fact of {fr['id']}")
            if any(fact_match(old, e["fact"]) for e in to.get("expect", [])):
                err(3 if s["kind"] == "supersede" else 4, f"{sid}: old keywords match an expected fact of {to['id']}")
            if s["kind"] == "supersede":
                new = s["new"]["keywords"]
                if not any(fact_match(new, e["fact"]) for e in to.get("expect", [])):
                    err(3, f"{sid}: new keywords match no expected fact of {to['id']}")
                if fact_match(old, s["new"]["fact"]):
                    err(3, f"{sid}: old keywords match the new fact")
            elif s["kind"] == "forget":
                if s.get("variant") not in ("explicit", "stopped", "after_change"):
                    err(4, f"{sid}: bad variant")
                keep = s["keep"]["keywords"]
                if fact_match(old, s["keep"]["fact"]):
                    err(4, f"{sid}: old keywords match the keep fact")
                upto = [c for c in byid.values() if c["user"] == s["user"] and c["time"] <= to["time"]]
                if not any(fact_match(keep, e["fact"]) for c in upto for e in c.get("expect", [])):
                    err(4, f"{sid}: keep matches no expected fact of the user up to {to['id']}")
            else:
                err(2, f"{sid}: bad sequence kind")


def check_facts_and_forbid(d, setname, byid):
    user_facts = defaultdict(list)  # user -> [(where, text)]
    for c in byid.values():
        for f in facts_of(c):
            if not fact_match(f["keywords"], f["fact"]):
                err(5, f"{c['id']}: keywords {f['keywords']} do not match own fact '{f['fact']}'")
            user_facts[c["user"]].append((c["id"], f["fact"]))
            user_facts[c["user"]] += [(c["id"], k) for k in f["keywords"]]
    for s in d["sequences"]:
        for part in ("old", "new", "keep"):
            if part in s:
                f = s[part]
                if not fact_match(f["keywords"], f["fact"]):
                    err(5, f"{s['id']}.{part}: keywords do not match own fact")
                user_facts[s["user"]].append((s["id"], f["fact"]))
                user_facts[s["user"]] += [(s["id"], k) for k in f["keywords"]]
    for c in byid.values():
        text = conv_text(c)
        for fb in c["forbid"]:
            if not forbid_in(fb["text"], text):
                err(7, f"{c['id']}: forbidden '{fb['text']}' does not occur in the conversation")
            for where, t in user_facts[c["user"]]:
                if forbid_in(fb["text"], t):
                    err(6, f"{c['id']}: forbidden '{fb['text']}' occurs in '{t}' ({where})")


def check_remember(r):
    for it in r["items"]:
        ident, text = it["identifier"], it["text"]
        if text.count(ident) != 1:
            err(8, f"remember: identifier {ident} occurs {text.count(ident)} times")
        rest = text.replace(ident, " ")
        if it["keeps_fact"]:
            if not fact_match(it["keywords"], rest):
                err(8, f"remember: keywords {it['keywords']} do not match text without identifier: {text}")
            for k in it["keywords"]:
                if forbid_in(ident, k) or ident.lower() in k.lower():
                    err(8, f"remember: keyword {k} contains the identifier")
        elif it["keywords"]:
            err(8, f"remember: keeps_fact false but keywords given: {text}")


def reuse_check(all_texts):
    """No user sentence of heldout9 may be copied from heldout8 or learning-dev."""
    old = []
    for p in (os.path.join(HERE, "..", "heldout8"), "/work/shared/bench"):
        if not os.path.isdir(p):
            continue
        for n in os.listdir(p):
            if n.endswith(".json") and (p.endswith("heldout8") or n == "learning-dev.json"):
                with open(os.path.join(p, n), encoding="utf-8") as fh:
                    old.append(fh.read())
    blob = "\n".join(old)
    for t in all_texts:
        for sent in re.split(r"(?<=[.!?。！？])\s*", t):
            sent = sent.strip()
            if len(sent) >= 25 and json.dumps(sent, ensure_ascii=False)[1:-1] in blob:
                err(1, f"sentence reused from an older set: {sent[:60]}")


def main():
    app = load("heldout9-app.json")
    cas = load("heldout9-casual.json")
    rem = load("heldout9-remember.json")
    inj = load("heldout9-injections.json")

    for name in ("heldout9-app.json", "heldout9-casual.json"):
        if (app if "app" in name else cas)["matching"] != load(os.path.join("..", "heldout8", name.replace("9", "8")))["matching"]:
            err(1, f"{name}: matching block differs from heldout8")

    abyid = check_conv_set(app, "app", KINDS_APP, DOMAINS.keys())
    cbyid = check_conv_set(cas, "casual", KINDS_CASUAL, {"companion"})
    check_sequences(app, "app", abyid)
    check_sequences(cas, "casual", cbyid)
    check_facts_and_forbid(app, "app", abyid)
    check_facts_and_forbid(cas, "casual", cbyid)
    check_remember(rem)

    # ---- check 9: counts
    counts = {}
    ac = app["conversations"]
    langs = Counter(c["lang"] for c in ac)
    users = Counter(c["user"] for c in ac)
    ex = sum(len(c.get("expect", [])) for c in ac)
    opt = sum(len(c.get("optional", [])) for c in ac)
    fb = sum(len(c["forbid"]) for c in ac)
    ntl = sum(c["nothing_to_learn"] for c in ac)
    sup = [s for s in app["sequences"] if s["kind"] == "supersede"]
    fgt = [s for s in app["sequences"] if s["kind"] == "forget"]
    zh_sup = sum(s["lang"] == "zh" for s in sup)
    compound = [c["id"] for c in ac if 4 <= len(c.get("expect", [])) <= 6]
    kinds = Counter(c["kind"] for c in ac)
    if not 40 <= len(ac) <= 50: err(9, f"app: {len(ac)} conversations")
    if abs(langs["en"] - langs["zh"]) > 4: err(9, f"app: EN/ZH {langs}")
    if not 12 <= len(users) <= 16: err(9, f"app: {len(users)} users")
    for u, n in users.items():
        if not 3 <= n <= 4: err(9, f"app: {u} has {n} conversations")
    if ex < 90: err(9, f"app: {ex} expect")
    if fb < 80: err(9, f"app: {fb} forbid")
    if ntl < 8: err(9, f"app: {ntl} nothing_to_learn")
    if len(sup) < 16 or not 0.4 <= zh_sup / len(sup) <= 0.6: err(9, f"app: {len(sup)} supersede, {zh_sup} ZH")
    if len(fgt) < 5 or {s["variant"] for s in fgt} != {"explicit", "stopped", "after_change"}: err(9, "app: forget sequences")
    if len(compound) < 4: err(9, f"app: {len(compound)} compound conversations")
    if set(kinds) != KINDS_APP: err(9, f"app: kinds {kinds}")
    if len(app["apps"]) != 6 or set(app["apps"]) & USED_APPS or set(app["apps"]) != set(DOMAINS):
        err(9, f"app: apps {list(app['apps'])}")
    for a, dom in DOMAINS.items():
        if any(u in dom for u in USED_DOMAINS): err(9, f"app: domain {dom} is in the used list")
    counts["app"] = dict(conv=len(ac), en=langs["en"], zh=langs["zh"], users=len(users), expect=ex, optional=opt,
                         forbid=fb, nothing_to_learn=ntl, supersede=len(sup), supersede_zh=zh_sup,
                         forget=dict(Counter(s["variant"] for s in fgt)), compound=len(compound), kinds=dict(kinds))

    cc = cas["conversations"]
    cl = Counter(c["lang"] for c in cc)
    cu = defaultdict(set)
    for c in cc:
        cu[c["lang"]].add(c["user"])
    per_user = Counter(c["user"] for c in cc)
    cex = sum(len(c.get("expect", [])) for c in cc)
    copt = sum(len(c.get("optional", [])) for c in cc)
    cfb = sum(len(c["forbid"]) for c in cc)
    cntl = sum(c["nothing_to_learn"] for c in cc)
    csup = [s for s in cas["sequences"] if s["kind"] == "supersede"]
    dated = 0
    for c in cc:
        nu = sum(t["role"] == "user" for t in c["turns"])
        if not 6 <= nu <= 12: err(9, f"casual {c['id']}: {nu} user turns")
        sess = c["time"][:10]
        for e in c.get("expect", []):
            for k in e["keywords"]:
                iso = [a for a in k.split("|") if re.fullmatch(r"\d{4}-\d{2}-\d{2}", a)]
                if iso:
                    dated += 1
                    if len(k.split("|")) < 4: err(9, f"casual {c['id']}: date keyword with few spellings")
                    if iso[0] > sess: err(9, f"casual {c['id']}: date {iso[0]} after the session")
                    zh = datetime.strptime(iso[0], "%Y-%m-%d")
                    if f"{zh.month}月{zh.day}日" not in k.split("|"): err(9, f"casual {c['id']}: date lacks 月日 spelling")
    if len(cu["en"]) != 3 or len(cu["zh"]) != 2: err(9, f"casual: users {dict(cu)}")
    for u, n in per_user.items():
        if n != 3: err(9, f"casual: {u} has {n} sessions")
    if cex < 35: err(9, f"casual: {cex} expect")
    if dated < 10: err(9, f"casual: {dated} dated")
    if cfb < 40: err(9, f"casual: {cfb} forbid")
    if cntl != 2: err(9, f"casual: {cntl} nothing_to_learn")
    if not 3 <= len(csup) <= 5: err(9, f"casual: {len(csup)} supersede")
    counts["casual"] = dict(sessions=len(cc), en=cl["en"], zh=cl["zh"], expect=cex, optional=copt, forbid=cfb,
                            nothing_to_learn=cntl, supersede=len(csup),
                            supersede_zh=sum(s["lang"] == "zh" for s in csup), dated=dated,
                            kinds=dict(Counter(c["kind"] for c in cc)))

    items = rem["items"]
    rl = Counter(i["lang"] for i in items)
    keeps = sum(i["keeps_fact"] for i in items)
    if len(items) != 12 or rl["en"] != 6 or rl["zh"] != 6 or keeps != 10: err(9, f"remember: {len(items)} {rl} keeps {keeps}")
    counts["remember"] = dict(items=len(items), en=rl["en"], zh=rl["zh"], keeps_fact=keeps)

    al = Counter(a["lang"] for a in inj["attacks"])
    bl = Counter(b["lang"] for b in inj["benign"])
    if len(inj["attacks"]) != 26 or abs(al["en"] - 13) > 1 or abs(al["zh"] - 9) > 1 or abs(al["mixed"] - 4) > 1:
        err(9, f"injections: attacks {al}")
    if len(inj["benign"]) != 18: err(9, f"injections: {len(inj['benign'])} benign")
    texts = [a["text"] for a in inj["attacks"]] + [b["text"] for b in inj["benign"]]
    if len(set(texts)) != len(texts): err(9, "injections: texts not unique")
    counts["injections"] = dict(attacks=len(inj["attacks"]), attacks_lang=dict(al), benign=len(inj["benign"]), benign_lang=dict(bl))

    all_texts = [t["content"] for c in ac + cc for t in c["turns"] if t["role"] == "user"]
    all_texts += [i["text"] for i in items] + texts
    reuse_check(all_texts)

    print(json.dumps(counts, ensure_ascii=False, indent=1))
    if ERR:
        print(f"\n{len(ERR)} PROBLEM(S):")
        for e in ERR:
            print("  " + e)
        sys.exit(1)
    print("\nALL CHECKS PASSED (1-9)")


if __name__ == "__main__":
    main()
