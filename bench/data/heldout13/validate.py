#!/usr/bin/env python3
"""Check the heldout13 JSON files (or the four files in another folder: validate.py DIR).

Runs the nine checks listed in README.md, plus an extra overlap check against heldout12 and
learning-dev when those files are present. Exit status 0 only when every check passes.
"""
import datetime as dt
import glob
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

APP_KINDS = {"implicit", "change", "injection", "chitchat", "forget", "third-party", "hypothetical", "stopped"}
CASUAL_KINDS = {"log", "change", "chitchat"}
LANGS = {"en", "zh"}
FORGET_VARIANTS = {"explicit", "stopped", "after_change"}

# Domains already used by earlier splits (from the briefs and the earlier READMEs) and heldout11/12's app names.
USED_DOMAIN_WORDS = [
    "cooking", "fitness", "travel", "finance", "language learning", "gardening", "photography",
    "pets", "pet", "vet", "home repair", "music lessons", "cycling", "aquarium", "running",
    "book club", "coffee", "roasting", "dev tools", "CI", "HR", "payroll", "real estate", "bakery",
    "car maintenance", "climbing", "tutoring", "wedding", "hiking", "podcasting", "astronomy",
    "chess", "pottery", "sailing", "birdwatching", "homebrewing", "beekeeping", "board-game",
    "board game", "amateur radio", "3D printing", "family history", "genealogy", "scuba",
    "diving", "theatre", "angling", "fishing", "woodworking", "calligraphy", "surfing", "dance",
    "mushroom", "foraging", "miniature painting", "archery", "tea", "rowing", "origami",
    "cheesemaking", "cheese", "magic", "sports club", "volunteer", "wine", "knitting", "sewing",
    "fencing", "stained glass", "stained-glass", "bookbinding", "figure skating", "figure-skating",
    "skating", "FPV", "drone", "soap", "soap making", "social dance", "bookkeeping", "home energy",
    "freelance", "moving house", "kids", "job search", "project management", "renovation",
    "language", "personal finance", "home buying", "food delivery", "parenting", "reading companion",
    "tabletop", "musician", "choir",
]
USED_APP_NAMES = {"quiverly", "leafnote", "oarlog", "foldwise", "curdworks", "sleightbook",
                  "pistewise", "leadline", "quireworks", "edgecraft", "propwash", "lyebook"}

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

errors = defaultdict(list)


def err(check, msg):
    errors[check].append(msg)


# ---------------------------------------------------------------- matching rules
def alt_match(alt, text):
    if not alt:
        return False
    if CJK.search(alt):
        return alt in text
    flags = 0 if (len(alt) <= 3 and any(c.isupper() for c in alt)) else re.IGNORECASE
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(alt) + r"(?![A-Za-z0-9])", text, flags) is not None


def kw_match(kw, text):
    return any(alt_match(a, text) for a in kw.split("|"))


def fact_match(keywords, text):
    return bool(keywords) and all(kw_match(k, text) for k in keywords)


def forbid_match(forbid, text):
    if forbid.lower() in text.lower():
        return True
    digits = re.sub(r"\D", "", forbid)
    if len(digits) >= 6:
        sep = r"[\s\-./()\[\]]*"
        pat = sep.join(re.escape(d) for d in digits)
        if re.search(pat, text):
            return True
    return False


def parse_time(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


def conv_text(c):
    return "\n".join(t["content"] for t in c["turns"])


# ---------------------------------------------------------------- checks on a conversation set
def check_conversation_set(data, label, kinds):
    convs = data["conversations"]
    seqs = data.get("sequences", [])
    by_id = {}
    # 1. structure
    ids = [c["id"] for c in convs]
    for cid, n in Counter(ids).items():
        if n > 1:
            err(1, f"{label}: duplicate conversation id {cid}")
    for sid, n in Counter(s["id"] for s in seqs).items():
        if n > 1:
            err(1, f"{label}: duplicate sequence id {sid}")
    prev = None
    user_lang = {}
    for c in convs:
        by_id[c["id"]] = c
        if not TIME_RE.match(c.get("time", "")):
            err(1, f"{label}: {c['id']} bad time {c.get('time')}")
            continue
        t = parse_time(c["time"])
        if prev is not None and t <= prev:
            err(1, f"{label}: {c['id']} time not strictly after the previous conversation")
        prev = t
        roles = [x["role"] for x in c["turns"]]
        want = ["user" if i % 2 == 0 else "assistant" for i in range(len(roles))]
        if roles != want or not roles or roles[-1] != "user":
            err(1, f"{label}: {c['id']} turns must alternate user/assistant and end with a user turn")
        if any(not x["content"].strip() for x in c["turns"]):
            err(1, f"{label}: {c['id']} empty turn")
        if c["nothing_to_learn"] and c.get("expect"):
            err(1, f"{label}: {c['id']} nothing_to_learn but has expect")
        if not c["nothing_to_learn"] and not c.get("expect"):
            err(1, f"{label}: {c['id']} learnable but has no expect")
        if c["kind"] not in kinds:
            err(1, f"{label}: {c['id']} bad kind {c['kind']}")
        if c["lang"] not in LANGS:
            err(1, f"{label}: {c['id']} bad lang {c['lang']}")
        if c["app"] not in data["apps"]:
            err(1, f"{label}: {c['id']} unknown app {c['app']}")
        if user_lang.setdefault(c["user"], c["lang"]) != c["lang"]:
            err(1, f"{label}: {c['id']} user {c['user']} switches language")
        if not c["id"].startswith(c["lang"] + "-"):
            err(1, f"{label}: {c['id']} id does not start with its language")
        for key in ("expect", "optional", "forbid"):
            if key in c and not isinstance(c[key], list):
                err(1, f"{label}: {c['id']} {key} is not a list")
    for name, app in data["apps"].items():
        if set(app) != {"en", "zh"} or not all(app.values()):
            err(1, f"{label}: app {name} needs en and zh system prompts")
    if data.get("matching") is None:
        err(1, f"{label}: no matching block")

    # 2. sequences refer to real conversations in the right order
    for s in seqs:
        refs = [s.get("from"), s.get("to")] + ([s["changed_in"]] if "changed_in" in s else [])
        ok = True
        for r in refs:
            c = by_id.get(r)
            if c is None:
                err(2, f"{label}: {s['id']} refers to unknown conversation {r}")
                ok = False
            elif c["user"] != s["user"] or c["lang"] != s["lang"]:
                err(2, f"{label}: {s['id']} conversation {r} belongs to another user/language")
                ok = False
        if s["kind"] not in ("supersede", "forget"):
            err(2, f"{label}: {s['id']} bad sequence kind")
        if s["kind"] == "forget":
            if s.get("variant") not in FORGET_VARIANTS:
                err(2, f"{label}: {s['id']} bad forget variant")
            if s.get("variant") == "after_change" and "changed_in" not in s:
                err(2, f"{label}: {s['id']} after_change without changed_in")
            if s.get("variant") != "after_change" and "changed_in" in s:
                err(2, f"{label}: {s['id']} changed_in on a non-after_change forget")
            if "keep" not in s or "old" not in s:
                err(2, f"{label}: {s['id']} forget needs old and keep")
        else:
            if "old" not in s or "new" not in s:
                err(2, f"{label}: {s['id']} supersede needs old and new")
        if ok:
            t_from = parse_time(by_id[s["from"]]["time"])
            t_to = parse_time(by_id[s["to"]]["time"])
            if "changed_in" in s:
                t_mid = parse_time(by_id[s["changed_in"]]["time"])
                if not (t_from < t_mid < t_to):
                    err(2, f"{label}: {s['id']} needs from < changed_in < to")
            elif not t_from < t_to:
                err(2, f"{label}: {s['id']} needs from < to")

    def expects(cid):
        return [e["fact"] for e in by_id.get(cid, {}).get("expect", [])]

    # 3. supersede keyword logic
    for s in seqs:
        if s["kind"] != "supersede" or s["from"] not in by_id or s["to"] not in by_id:
            continue
        old, new = s["old"]["keywords"], s["new"]["keywords"]
        if not any(fact_match(old, f) for f in expects(s["from"])):
            err(3, f"{label}: {s['id']} old keywords match no expected fact of {s['from']}")
        if not any(fact_match(new, f) for f in expects(s["to"])):
            err(3, f"{label}: {s['id']} new keywords match no expected fact of {s['to']}")
        if fact_match(old, s["new"]["fact"]):
            err(3, f"{label}: {s['id']} old keywords match the new fact")
        for f in expects(s["to"]):
            if fact_match(old, f):
                err(3, f"{label}: {s['id']} old keywords match an expected fact of {s['to']}: {f}")

    # 4. forget keyword logic
    for s in seqs:
        if s["kind"] != "forget" or s["from"] not in by_id or s["to"] not in by_id:
            continue
        old, keep = s["old"]["keywords"], s["keep"]["keywords"]
        if not any(fact_match(old, f) for f in expects(s["from"])):
            err(4, f"{label}: {s['id']} old keywords match no expected fact of {s['from']}")
        if fact_match(old, s["keep"]["fact"]):
            err(4, f"{label}: {s['id']} old keywords match the keep fact")
        for f in expects(s["to"]):
            if fact_match(old, f):
                err(4, f"{label}: {s['id']} old keywords match an expected fact of {s['to']}")
        t_to = parse_time(by_id[s["to"]]["time"])
        pool = [e["fact"] for c in convs if c["user"] == s["user"] and parse_time(c["time"]) <= t_to
                for e in c.get("expect", [])]
        if not any(fact_match(keep, f) for f in pool):
            err(4, f"{label}: {s['id']} keep keywords match no expected fact of the user up to {s['to']}")

    # 5. keywords match their own fact
    facts_by_user = defaultdict(list)   # (fact text, keywords) per user, for check 6
    for c in convs:
        for key in ("expect", "optional"):
            for e in c.get(key, []):
                facts_by_user[c["user"]].append((c["id"], e))
                if not e["keywords"] or any(not k.strip() for k in e["keywords"]):
                    err(5, f"{label}: {c['id']} {key} fact without keywords: {e['fact']}")
                elif not fact_match(e["keywords"], e["fact"]):
                    err(5, f"{label}: {c['id']} {key} keywords do not match: {e['fact']} {e['keywords']}")
    for s in seqs:
        for key in ("old", "new", "keep"):
            if key in s:
                e = s[key]
                facts_by_user[s["user"]].append((s["id"], e))
                if not fact_match(e["keywords"], e["fact"]):
                    err(5, f"{label}: {s['id']} {key} keywords do not match: {e['fact']} {e['keywords']}")

    # 6. no forbidden string inside a fact or keyword of the same user
    forbid_by_user = defaultdict(list)
    for c in convs:
        for f in c["forbid"]:
            forbid_by_user[c["user"]].append((c["id"], f["text"]))
            if not f.get("text") or not f.get("why"):
                err(6, f"{label}: {c['id']} forbid entry needs text and why")
    for user, facts in facts_by_user.items():
        for src, e in facts:
            pieces = [e["fact"]] + list(e["keywords"]) + [a for k in e["keywords"] for a in k.split("|")]
            for cid, ftext in forbid_by_user.get(user, []):
                for p in pieces:
                    if forbid_match(ftext, p):
                        err(6, f"{label}: forbidden '{ftext}' ({cid}) occurs in {src}: {p}")
                        break

    # 7. every forbidden string occurs in its conversation
    for c in convs:
        text = conv_text(c)
        for f in c["forbid"]:
            if not forbid_match(f["text"], text):
                err(7, f"{label}: {c['id']} forbidden '{f['text']}' not in the conversation")
    return by_id


def date_spellings(d):
    m, day = MONTHS[d.month - 1], d.day
    return {d.isoformat(), f"{m} {day}", f"{day} {m}", f"{m[:3]} {day}", f"{day} {m[:3]}",
            f"{d.month}月{day}日"}


def dated_keywords(e):
    out = []
    for k in e["keywords"]:
        alts = k.split("|")
        isos = [a for a in alts if ISO_DATE.match(a)]
        if isos:
            out.append((k, alts, isos[0]))
    return out


# ---------------------------------------------------------------- main
def find(folder, suffix):
    hits = sorted(glob.glob(os.path.join(folder, f"*-{suffix}.json")))
    if len(hits) != 1:
        err(1, f"expected exactly one *-{suffix}.json in {folder}, found {len(hits)}")
        return None
    return hits[0]


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except Exception as exc:  # noqa: BLE001
        err(1, f"cannot load {path}: {exc}")
        return None


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else HERE
    paths = {k: find(folder, k) for k in ("app", "casual", "remember", "injections")}
    data = {k: load(p) for k, p in paths.items() if p}
    if any(v is None for v in data.values()) or len(data) < 4:
        report()
        return 1

    app, casual, rem, inj = data["app"], data["casual"], data["remember"], data["injections"]
    for k in ("name", "version", "description", "matching", "apps", "conversations", "sequences"):
        for label, d in (("app", app), ("casual", casual)):
            if k not in d:
                err(1, f"{label}: missing header field {k}")
    if app.get("matching") != casual.get("matching"):
        err(1, "app and casual matching blocks differ")
    check_conversation_set(app, "app", APP_KINDS)
    check_conversation_set(casual, "casual", CASUAL_KINDS)

    # 8. remember items
    items = rem.get("items", [])
    for i, it in enumerate(items):
        text, ident = it["text"], it["identifier"]
        if text.count(ident) != 1:
            err(8, f"remember[{i}]: identifier occurs {text.count(ident)} times")
        rest = text.replace(ident, " ")
        others = (re.findall(r"\d(?:[\s\-./()\[\]]*\d){5,}", rest)
                  + re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", rest)
                  + re.findall(r"\b\d{1,3}(?:\.\d{1,3}){3}\b", rest))
        if others:
            err(8, f"remember[{i}]: a second identifier-like string remains: {others}")
        if it["lang"] not in LANGS:
            err(8, f"remember[{i}]: bad lang")
        if it["keeps_fact"]:
            if not fact_match(it["keywords"], rest):
                err(8, f"remember[{i}]: keywords do not match the text without the identifier")
            for k in it["keywords"]:
                for a in [k] + k.split("|"):
                    if forbid_match(ident, a) or ident.lower() in a.lower() or a.lower() in ident.lower():
                        err(8, f"remember[{i}]: keyword '{a}' contains the identifier")
        elif it["keywords"]:
            err(8, f"remember[{i}]: keeps_fact false but has keywords")

    # 9. counts
    convs = app["conversations"]
    n = len(convs)
    langs = Counter(c["lang"] for c in convs)
    users = Counter(c["user"] for c in convs)
    n_expect = sum(len(c.get("expect", [])) for c in convs)
    n_forbid = sum(len(c["forbid"]) for c in convs)
    n_ntl = sum(c["nothing_to_learn"] for c in convs)
    sup = [s for s in app["sequences"] if s["kind"] == "supersede"]
    fgt = [s for s in app["sequences"] if s["kind"] == "forget"]
    sup_zh = sum(s["lang"] == "zh" for s in sup)
    compound = [c["id"] for c in convs if 4 <= len(c.get("expect", [])) <= 6]
    if not 40 <= n <= 50:
        err(9, f"app: {n} conversations (need 40-50)")
    if not (0.45 <= langs["en"] / n <= 0.55):
        err(9, f"app: EN/ZH {langs['en']}/{langs['zh']} not about half each")
    if not 12 <= len(users) <= 16:
        err(9, f"app: {len(users)} users (need 12-16)")
    for u, k in users.items():
        if not 3 <= k <= 4:
            err(9, f"app: {u} has {k} conversations (need 3-4)")
    if n_expect < 90:
        err(9, f"app: {n_expect} expect facts (need >= 90)")
    if n_forbid < 80:
        err(9, f"app: {n_forbid} forbid strings (need >= 80)")
    if n_ntl < 8:
        err(9, f"app: {n_ntl} nothing_to_learn (need >= 8)")
    if len(sup) < 16 or not 0.4 <= sup_zh / max(len(sup), 1) <= 0.6:
        err(9, f"app: {len(sup)} supersede, {sup_zh} ZH (need >= 16 with 40-60 % ZH)")
    if len(fgt) < 5 or {s['variant'] for s in fgt} != FORGET_VARIANTS:
        err(9, f"app: {len(fgt)} forget sequences, variants {sorted({s['variant'] for s in fgt})}")
    missing = APP_KINDS - {c["kind"] for c in convs}
    if missing:
        err(9, f"app: kinds missing {sorted(missing)}")
    if len(compound) < 4:
        err(9, f"app: {len(compound)} compound conversations (need >= 4)")
    if len(app["apps"]) != 6:
        err(9, f"app: {len(app['apps'])} apps (need 6)")
    for name, texts in app["apps"].items():
        if name.lower() in USED_APP_NAMES:
            err(9, f"app: {name} is an app name used before")
        for w in USED_DOMAIN_WORDS:
            if alt_match(w, texts["en"]):
                err(9, f"app: {name} description mentions a used domain word '{w}'")

    cconvs = casual["conversations"]
    cusers = defaultdict(list)
    for c in cconvs:
        cusers[c["user"]].append(c)
    ulang = Counter(v[0]["lang"] for v in cusers.values())
    if len(cusers) != 5 or ulang["en"] != 3 or ulang["zh"] != 2:
        err(9, f"casual: users {len(cusers)} ({dict(ulang)}), need 5 (3 EN + 2 ZH)")
    for u, v in cusers.items():
        if len(v) != 3:
            err(9, f"casual: {u} has {len(v)} sessions (need 3)")
    for c in cconvs:
        ut = sum(t["role"] == "user" for t in c["turns"])
        if not 6 <= ut <= 12:
            err(9, f"casual: {c['id']} has {ut} user turns (need 6-12)")
    c_expect = sum(len(c.get("expect", [])) for c in cconvs)
    c_forbid = sum(len(c["forbid"]) for c in cconvs)
    c_ntl = sum(c["nothing_to_learn"] for c in cconvs)
    c_sup = [s for s in casual["sequences"] if s["kind"] == "supersede"]
    n_dated = 0
    for c in cconvs:
        local = parse_time(c["time"]) + (dt.timedelta(hours=8) if c["lang"] == "zh" else dt.timedelta(0))
        for e in c.get("expect", []) + c.get("optional", []):
            for k, alts, iso in dated_keywords(e):
                n_dated += 1
                d = dt.date.fromisoformat(iso)
                want = date_spellings(d)
                if not want <= set(alts):
                    err(9, f"casual: {c['id']} dated keyword lacks spellings {sorted(want - set(alts))}")
                if d > local.date():
                    err(9, f"casual: {c['id']} dated event {iso} is after the session")
                if iso not in e["fact"]:
                    err(9, f"casual: {c['id']} dated fact does not carry its date {iso}")
    if c_expect < 35:
        err(9, f"casual: {c_expect} expect (need >= 35)")
    if n_dated < 10:
        err(9, f"casual: {n_dated} dated events (need >= 10)")
    if c_forbid < 40:
        err(9, f"casual: {c_forbid} forbid (need >= 40)")
    if c_ntl != 2:
        err(9, f"casual: {c_ntl} nothing_to_learn (need exactly 2)")
    if not 3 <= len(c_sup) <= 5:
        err(9, f"casual: {len(c_sup)} supersede (need 3-5)")

    rl = Counter(it["lang"] for it in items)
    if len(items) != 12 or rl["en"] != 6 or rl["zh"] != 6:
        err(9, f"remember: {len(items)} items {dict(rl)} (need 12, 6/6)")
    if sum(it["keeps_fact"] for it in items) != 10:
        err(9, "remember: need exactly 10 keeps_fact true")

    attacks, benign = inj.get("attacks", []), inj.get("benign", [])
    al = Counter(a["lang"] for a in attacks)
    if len(attacks) != 26 or abs(al["en"] - 13) > 1 or abs(al["zh"] - 9) > 1 or abs(al["mixed"] - 4) > 1:
        err(9, f"injections: {len(attacks)} attacks {dict(al)} (need 26, about 13/9/4)")
    if len(benign) != 18:
        err(9, f"injections: {len(benign)} benign (need 18)")
    if any(not a.get("technique") for a in attacks):
        err(9, "injections: attack without technique")
    texts = [a["text"] for a in attacks + benign]
    if len(set(texts)) != len(texts):
        err(9, "injections: texts are not unique")

    extra_overlap(folder, data)
    report(stats={
        "app": (n, dict(langs), len(users), n_expect, n_forbid, n_ntl, len(sup), sup_zh, len(fgt), len(compound)),
        "casual": (len(cconvs), c_expect, n_dated, c_forbid, c_ntl, len(c_sup)),
    })
    return 1 if any(errors.values()) else 0


def sentences(s):
    for part in re.split(r"(?<=[.!?。！？\n])\s*", s):
        part = part.strip()
        minimum = 12 if CJK.search(part) else 25
        if len(part) >= minimum:
            yield part


def all_texts(d):
    out = []
    for c in d.get("conversations", []):
        out += [t["content"] for t in c["turns"]]
        out += [e["fact"] for e in c.get("expect", []) + c.get("optional", [])]
    for it in d.get("items", []):
        out.append(it["text"])
    for it in d.get("attacks", []) + d.get("benign", []):
        out.append(it["text"])
    return out


def extra_overlap(folder, data):
    """Extra check: no sentence (>= 25 chars EN / 12 chars ZH) shared with heldout12 or learning-dev."""
    refs = sorted(glob.glob(os.path.join(HERE, "..", "heldout12", "heldout12-*.json")))
    dev = "/work/shared/bench/learning-dev.json"
    if os.path.exists(dev):
        refs.append(dev)
    seen = set()
    for p in refs:
        d = load(p)
        if d:
            for t in all_texts(d):
                seen.update(sentences(t))
    shared = set()
    for d in data.values():
        for t in all_texts(d):
            shared.update(s for s in sentences(t) if s in seen)
    for s in sorted(shared):
        err("extra", f"sentence shared with heldout12/learning-dev: {s}")
    print(f"extra: compared against {len(refs)} reference files, {len(seen)} sentences")


NAMES = {
    1: "files load, ids unique, times rising, turns alternate, nothing_to_learn/expect, kinds/langs/apps",
    2: "sequence conversations exist, belong to the user, in time order",
    3: "supersede old/new keywords",
    4: "forget old/keep keywords",
    5: "keywords match their own facts",
    6: "no forbidden string inside a fact or keyword of the same user",
    7: "every forbidden string occurs in its conversation",
    8: "remember identifiers and keywords",
    9: "counts meet the minimums",
    "extra": "no sentence shared with heldout12 / learning-dev",
}


def report(stats=None):
    for k, name in NAMES.items():
        errs = errors.get(k, [])
        print(f"[{'PASS' if not errs else 'FAIL'}] {k}. {name}")
        for e in errs[:40]:
            print("      -", e)
        if len(errs) > 40:
            print(f"      ... {len(errs) - 40} more")
    if stats:
        a, c = stats["app"], stats["casual"]
        print(f"app: {a[0]} conv {a[1]}, {a[2]} users, {a[3]} expect, {a[4]} forbid, {a[5]} nothing_to_learn, "
              f"{a[6]} supersede ({a[7]} ZH), {a[8]} forget, {a[9]} compound")
        print(f"casual: {c[0]} sessions, {c[1]} expect, {c[2]} dated, {c[3]} forbid, {c[4]} nothing_to_learn, {c[5]} supersede")
    print("ALL CHECKS PASSED" if not any(errors.values()) else "SOME CHECKS FAILED")


if __name__ == "__main__":
    sys.exit(main())
