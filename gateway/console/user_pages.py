"""``/me/``: one end user's memory page, reached only through a signed link (SPEC section 9).

Every handler reads the session from the cookie and acts for exactly its tenant and user
through ``MemoryService`` (the same calls as the user API); every change needs the
session's CSRF token and a same-origin request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway.api.common import services_of
from gateway.console import actions
from gateway.console.grouping import grouped
from gateway.console.links import Links
from gateway.console.me_view import reflection_lists, turned_off
from gateway.console.sessions import Session, SessionStore
from gateway.console.web import Pages, clear_cookie, query_string, read_form, set_session_cookie
from gateway.console.words import why_off
from gateway.errors import NotFound, ReviewDecided, TooManyMemories, TooManyPinned
from gateway.learning.upkeep.reflection import KINDS, reflection_json
from gateway.memory import CATEGORIES, Memory, MemoryValidationError, NewMemory
from gateway.memory_export import export_csv, export_json, export_markdown

COOKIE = "memorelay_me"
PATH = "/me/"
PAGE_SIZE = 20
_EXPORT_ALL = 1_000_000
_NOTICES = (
    "saved",
    "deleted",
    "cleared",
    "learning_now_on",
    "learning_now_off",
    "review_accepted",
    "review_rejected",
    "added",
    "add_invalid",
    "add_full",
    *actions.NOTICES,
)
_REVIEWS_SHOWN = 20

Handler = Callable[[Request, Session], Awaitable[Response]]


def tags_of(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _back(form: dict[str, str]) -> str:
    """Where an action returns to: a page of ``/me/`` the form names, else the memory list."""
    target = form.get("next", "")
    ok = target.startswith(PATH) and "//" not in target and "\\" not in target and "?" not in target
    return target if ok else PATH


def _notice(url: str, notice: str, **extra: str) -> str:
    return url + query_string(done=notice, **extra)


class UserPages:
    def __init__(self, pages: Pages, links: Links, sessions: SessionStore, consent: Callable[[Request], str]):
        self.undo = actions.UndoBin()
        self.pages = pages
        self.links = links
        self.sessions = sessions
        self.consent = consent

    # -- session plumbing -------------------------------------------------------------------
    def denied(self, request: Request, message: str) -> Response:
        response = self.pages.render(request, "denied.html", 403, message=message)
        clear_cookie(response, COOKIE, PATH)
        return response

    def session(self, handler: Handler, *, change: bool = False) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            session = await self.sessions.get(request.cookies.get(COOKIE), "user")
            if session is None:
                return self.denied(request, "no_session")
            if change:
                form = await read_form(request)
                if not self.pages.same_origin(request) or not session.csrf_ok(form.get("csrf")):
                    return self.pages.render(request, "denied.html", 403, message="csrf_failed")
                request.state.form = form
            return await handler(request, session)

        return endpoint

    def render(self, request: Request, session: Session, template: str, status: int = 200, **ctx: Any) -> Response:
        return self.pages.render(request, template, status, session=session, **ctx)

    # -- link and sign-out ------------------------------------------------------------------
    async def open_link(self, request: Request) -> Response:
        claims = await self.links.verify(request.query_params.get("token", ""))
        if claims is None:
            return self.denied(request, "denied_body")
        old = request.cookies.get(COOKIE)
        if old:
            await self.sessions.drop(old)
        session = await self.sessions.create("user", claims.tenant, claims.user, link=claims)
        # a page, not a redirect: a SameSite=Strict cookie set during a navigation that came
        # from the app's site is sent on the next same-site navigation (the refresh below)
        response = self.pages.render(request, "opening.html")
        set_session_cookie(response, request, COOKIE, session.id, PATH, int(self.sessions.ttl_s))
        return response

    async def logout(self, request: Request, session: Session) -> Response:
        await self.sessions.end(session)
        response = self.pages.render(request, "denied.html", 200, message="signed_out")
        clear_cookie(response, COOKIE, PATH)
        return response

    # -- the page ---------------------------------------------------------------------------
    async def home(self, request: Request, session: Session) -> Response:
        memory = services_of(request).memory
        p = request.query_params
        q = (p.get("q") or "").strip()[:500]
        category = p.get("category") if p.get("category") in CATEGORIES else None
        page = _page_number(p.get("page"))
        offset = (page - 1) * PAGE_SIZE
        if q:
            found = await memory.search(
                session.tenant, session.user, q, limit=offset + PAGE_SIZE, category=category, floor=True
            )
            items, total = [s.memory for s in found[offset:]], len(found)
            more = len(found) == offset + PAGE_SIZE
        else:
            # the user's own memories in use (shared/system ones show up in search): this list
            # uses the owner index, ~6 ms for a 10k-memory user where the mixed list takes ~40 ms
            items, total = await memory.list(
                session.tenant, session.user, category=category, limit=PAGE_SIZE, offset=offset, personal_only=True
            )
            more = offset + PAGE_SIZE < total
        # supersedes waiting for this user (learning.review: queue), with both memories
        reviews, waiting = await memory.reviews(session.tenant, session.user, "pending", limit=_REVIEWS_SHOWN, offset=0)
        latest = await memory.latest_reflection(session.tenant, session.user)
        reflection = None if latest is None else reflection_json(latest)
        return self.render(
            request,
            session,
            "me.html",
            reviews=[(r, old, new, why_off(new.disabled_reason if new else None)) for r, old, new in reviews],
            waiting=waiting,
            off=[] if q else await turned_off(memory, session.tenant, session.user),
            uses=await memory.use_counts(session.tenant, session.user, [m.id for m in items]),
            reflection=reflection,
            reflected={}
            if reflection is None
            else await reflection_lists(memory, session.tenant, session.user, reflection),
            kinds=KINDS,
            q=q,
            category=category,
            page=page,
            items=items,
            groups=[] if q else grouped(items),
            total=total,
            more=more,
            pages=max(1, -(-total // PAGE_SIZE)),
            settings=await memory.get_settings(session.tenant, session.user),
            stats=await memory.stats(session.tenant, session.user),
            consent=self.consent(request),
            notice=p.get("done") if p.get("done") in _NOTICES else None,
            notice_values={"cap": memory.max_pinned_per_user},
            undo=p.get("undo") or "",
            cap=memory.max_pinned_per_user,
            categories=CATEGORIES,
            link=lambda **kw: PATH + query_string(q=q, category=category, **kw),
        )

    async def settings(self, request: Request, session: Session) -> Response:
        enabled = request.state.form.get("learning") == "on"
        await services_of(request).memory.put_settings(session.tenant, session.user, {"learning_enabled": enabled})
        return self.pages.redirect(PATH + "?done=" + ("learning_now_on" if enabled else "learning_now_off"))

    async def _visible(self, request: Request, session: Session) -> Memory | None:
        return await services_of(request).memory.get(session.tenant, session.user, request.path_params["id"])

    async def detail(self, request: Request, session: Session, error: str | None = None) -> Response:
        found = await self._visible(request, session)
        if found is None:
            return self.render(request, session, "denied.html", 404, message="not_found")
        notice = request.query_params.get("done") if request.query_params.get("done") in _NOTICES else None
        why = why_off(found.disabled_reason)
        return self.render(
            request,
            session,
            "me_memory.html",
            400 if error else 200,
            m=found,
            why=why,
            other=await services_of(request).memory.get(session.tenant, session.user, why.other) if why.other else None,
            categories=CATEGORIES,
            error=error,
            notice=notice,
            notice_values={"cap": services_of(request).memory.max_pinned_per_user},
            cap=services_of(request).memory.max_pinned_per_user,
        )

    async def edit(self, request: Request, session: Session) -> Response:
        found = await self._visible(request, session)
        if found is None or found.scope != "personal":
            return self.render(request, session, "denied.html", 404, message="not_found")
        form = request.state.form
        changes = {
            "title": form.get("title", ""),
            "content": form.get("content", ""),
            "category": form.get("category", ""),
            "subcategory": form.get("subcategory", ""),
            "tags": tags_of(form.get("tags", "")),
        }
        try:
            await services_of(request).memory.update(
                session.tenant, session.user, found.id, changes, actor=f"user:{session.user}"
            )
        except MemoryValidationError as exc:
            return await self.detail(request, session, error=str(exc))
        return self.pages.redirect(f"{PATH}memories/{found.id}?done=saved")

    async def delete(self, request: Request, session: Session) -> Response:
        found = await self._visible(request, session)
        if found is None or found.scope != "personal":
            return self.render(request, session, "denied.html", 404, message="not_found")
        token = await actions.delete(
            services_of(request).memory, self.undo, session.id, found, actor=f"user:{session.user}"
        )
        return self.pages.redirect(_notice(PATH, "deleted_undo", undo=token))

    async def undo_delete(self, request: Request, session: Session) -> Response:
        memory, token = services_of(request).memory, request.state.form.get("undo", "")
        back = await actions.undo_delete(memory, self.undo, session.id, token, actor=f"user:{session.user}")
        return self.pages.redirect(_notice(PATH, "undone" if back else "undo_late"))

    async def add(self, request: Request, session: Session) -> Response:
        form, memory = request.state.form, services_of(request).memory
        item = NewMemory(
            title=form.get("title", ""),
            content=form.get("content", ""),
            category=form.get("category", "") if form.get("category") in CATEGORIES else CATEGORIES[0],
        )
        try:
            await memory.add(
                session.tenant, session.user, item, actor=f"user:{session.user}", manual_cap=self.cap(request)
            )
        except MemoryValidationError:
            return self.pages.redirect(_notice(PATH, "add_invalid"))
        except TooManyMemories:
            return self.pages.redirect(_notice(PATH, "add_full"))
        return self.pages.redirect(_notice(PATH, "added"))

    def cap(self, request: Request) -> int:
        return int(services_of(request).config.memory.max_manual_memories_per_user)

    async def change(self, request: Request, session: Session) -> Response:
        """Pin, unpin, turn off, turn on or restore one of the user's own memories."""
        found = await self._visible(request, session)
        what = request.path_params["action"]
        if found is None or found.scope != "personal" or what not in actions.ACTIONS:
            return self.render(request, session, "denied.html", 404, message="not_found")
        memory, actor, back = services_of(request).memory, f"user:{session.user}", _back(request.state.form)
        try:
            notice = await actions.act(memory, found, what, actor=actor)
        except TooManyPinned:
            notice = "pin_full"
        return self.pages.redirect(_notice(back, notice))

    async def decide(self, request: Request, session: Session) -> Response:
        decision = request.path_params["decision"]
        if decision not in ("accept", "reject"):
            return self.render(request, session, "denied.html", 404, message="not_found")
        memory, review_id = services_of(request).memory, request.path_params["id"]
        try:
            await memory.decide_review(
                review_id,
                decision == "accept",
                tenant=session.tenant,
                user_id=session.user,
                actor=f"user:{session.user}",
            )
        except NotFound:
            return self.render(request, session, "denied.html", 404, message="not_found")
        except ReviewDecided:
            pass  # decided meanwhile (another tab, an operator): the page shows how it stands
        return self.pages.redirect(PATH + "?done=review_" + ("accepted" if decision == "accept" else "rejected"))

    async def confirm_clear(self, request: Request, session: Session) -> Response:
        count = await services_of(request).memory.count_personal(session.tenant, session.user)
        return self.render(request, session, "me_clear.html", count=count)

    async def clear(self, request: Request, session: Session) -> Response:
        if request.state.form.get("confirm") != "yes":
            return self.pages.redirect(PATH)
        services = services_of(request)
        await services.memory.delete_all(session.tenant, session.user, actor=f"user:{session.user}")
        await services.learning.wipe_dead_payloads(tenant=session.tenant, user_id=session.user)
        return self.pages.redirect(PATH + "?done=cleared")

    async def export(self, request: Request, session: Session) -> Response:
        fmt = request.path_params["fmt"]
        ext = fmt if fmt in ("md", "csv") else "json"
        items, _ = await services_of(request).memory.list(
            session.tenant, session.user, include_disabled=True, personal_only=True, limit=_EXPORT_ALL
        )
        headers = {**self.pages.headers, "content-disposition": f'attachment; filename="memories.{ext}"'}
        if ext == "csv":
            return Response(export_csv(items), headers=headers, media_type="text/csv; charset=utf-8")
        if ext == "md":
            text = export_markdown(session.user, items)
            return Response(text, headers=headers, media_type="text/markdown; charset=utf-8")
        data = orjson.dumps(export_json(session.tenant, session.user, items), option=orjson.OPT_INDENT_2)
        return Response(data, headers=headers, media_type="application/json")


def _page_number(raw: str | None) -> int:
    try:
        return max(1, min(int(raw or 1), 100_000))
    except ValueError:
        return 1
