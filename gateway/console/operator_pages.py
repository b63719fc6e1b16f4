"""``/console/``: the operator console, signed in with the admin key (SPEC section 9).

The key is posted once by the sign-in form and never written into a page; the browser
then holds only a session cookie. Handlers call the same ``MemoryService`` and
``LearningStore`` methods as the admin API.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from gateway.api.common import services_of
from gateway.console import actions, queries
from gateway.console.learning_view import KNOWN_OUTCOMES, has_outcome, log_row, memory_ids
from gateway.console.links import Links
from gateway.console.me_view import own, turned_off
from gateway.console.mint import OPEN_PATH
from gateway.console.sessions import Session, SessionStore
from gateway.console.web import Pages, clear_cookie, query_string, read_form, set_session_cookie
from gateway.console.words import diff, why_off
from gateway.errors import NotFound, ReviewDecided, TooManyAuthFailures, TooManyPinned, Unauthorized
from gateway.learning.upkeep.reflection import KINDS, reflection_json
from gateway.memory import CATEGORIES, MemoryValidationError, NewMemory
from gateway.store import ReviewState
from gateway.store.prompts import PROMPT_NAMES, PromptName

COOKIE = "memorelay_console"
PATH = "/console/"
PAGE_SIZE = 50
ACTOR = "admin:console"
_MAX_PROMPT = 20_000
_NOTICES = (
    "promoted",
    "created_ok",
    "saved",
    "prompt_reset",
    "deleted",
    "retried",
    "discarded",
    "review_accepted_op",
    "review_rejected_op",
    "review_was_decided",
    *actions.NOTICES,
)
_MAX_LOG_SCAN = 2000  # log entries read to filter by outcome
_REVIEW_STATES: tuple[ReviewState, ...] = ("pending", "accepted", "rejected")

Handler = Callable[[Request, Session], Awaitable[Response]]


def _page(request: Request) -> tuple[int, int]:
    try:
        page = max(1, min(int(request.query_params.get("page") or 1), 100_000))
    except ValueError:
        page = 1
    return page, (page - 1) * PAGE_SIZE


def _paging(page: int, offset: int, total: int) -> dict[str, Any]:
    """What a paginated list template needs besides its rows."""
    return {"total": total, "page": page, "more": offset + PAGE_SIZE < total}


def _back(form: dict[str, str], default: str) -> str:
    target = form.get("next", "")
    return target if target.startswith(PATH) and "//" not in target and "\\" not in target else default


class OperatorPages:
    def __init__(self, pages: Pages, sessions: SessionStore, links: Links) -> None:
        self.undo = actions.UndoBin()
        self.pages = pages
        self.sessions = sessions
        self.links = links

    def session(self, handler: Handler, *, change: bool = False) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            session = await self.sessions.get(request.cookies.get(COOKIE), "operator")
            if session is None:
                if request.method == "GET":
                    return self.pages.redirect(PATH + "login")
                return self.pages.render(request, "denied.html", 403, message="no_session")
            if change:
                form = await read_form(request)
                if not self.pages.same_origin(request) or not session.csrf_ok(form.get("csrf")):
                    return self.pages.render(request, "denied.html", 403, message="csrf_failed")
                request.state.form = form
            else:  # the menu shows how many supersedes wait for a decision (one count per page)
                request.state.waiting_reviews = await queries.waiting_reviews(services_of(request), None)
            return await handler(request, session)

        return endpoint

    def render(self, request: Request, session: Session, template: str, status: int = 200, **ctx: Any) -> Response:
        notice = request.query_params.get("done")
        return self.pages.render(
            request,
            template,
            status,
            session=session,
            notice=notice if notice in _NOTICES else None,
            notice_values={"cap": services_of(request).memory.max_pinned_per_user},
            undo=request.query_params.get("undo") or "",
            undo_action=PATH + "undo",
            path=request.url.path,
            waiting_reviews=getattr(request.state, "waiting_reviews", 0),
            **ctx,
        )

    # -- sign-in ----------------------------------------------------------------------------
    async def login_form(self, request: Request) -> Response:
        return self.pages.render(request, "console_login.html", error=None)

    async def login(self, request: Request) -> Response:
        form = await read_form(request)
        if not self.pages.same_origin(request):
            return self.pages.render(request, "denied.html", 403, message="csrf_failed")
        try:
            services_of(request).auth.require_admin({"authorization": f"Bearer {form.get('key', '')}"})
        except Unauthorized as exc:
            error = "admin_disabled" if exc.code == "admin_disabled" else "bad_key"
            return self.pages.render(request, "console_login.html", 401, error=error)
        except TooManyAuthFailures:  # Retry-After is added on the way out (gateway.auth_throttle)
            return self.pages.render(request, "console_login.html", 429, error="too_many_tries")
        old = request.cookies.get(COOKIE)
        if old:
            await self.sessions.drop(old)
        session = await self.sessions.create("operator")
        response = self.pages.redirect(PATH)
        set_session_cookie(response, request, COOKIE, session.id, PATH, int(self.sessions.ttl_s))
        return response

    async def logout(self, request: Request, session: Session) -> Response:
        await self.sessions.end(session)
        response = self.pages.redirect(PATH + "login")
        clear_cookie(response, COOKIE, PATH)
        return response

    # -- overview and health ----------------------------------------------------------------
    async def overview(self, request: Request, session: Session) -> Response:
        services = services_of(request)
        tenant = request.query_params.get("tenant") or None
        days = queries.last_days()
        stats = await services.memory.admin_stats(tenant)
        chart = queries.stacked_chart(await queries.learned_by_day(services, tenant, days))
        outcomes = await queries.recent_outcomes(services, tenant, days[0])
        return self.render(
            request,
            session,
            "console_overview.html",
            tenant=tenant or "",
            tenants=await queries.tenants(services),
            stats=stats,
            waiting=await queries.waiting_reviews(services, tenant),
            chart=chart,
            outcomes=outcomes,
            categories=CATEGORIES,
            health=await self._health(request),
        )

    async def _health(self, request: Request) -> dict[str, Any]:
        services = services_of(request)
        jobs = await services.learning.job_counts()
        return {
            "store": "ready" if services.memory.ready else "not ready",
            "index": services.memory.index_state,
            "embedder": services.memory.embedder.name if services.memory.embedder else "",
            "queue_depth": jobs.get("pending", 0) + jobs.get("running", 0),
            "jobs": jobs,
            "upstream": services.config.upstreams.default.api_base,
            "aliases": [m.model_name for m in services.config.upstreams.models],
            "started": bool(getattr(request.app.state, "started", False)),
            "time": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }

    async def health(self, request: Request, session: Session) -> Response:
        return self.render(request, session, "console_health.html", health=await self._health(request))

    # -- users and memories -----------------------------------------------------------------
    async def users(self, request: Request, session: Session) -> Response:
        tenant = request.query_params.get("tenant") or None
        found = await services_of(request).memory.list_users(tenant)
        page, offset = _page(request)
        return self.render(
            request,
            session,
            "console_users.html",
            users=found[offset : offset + PAGE_SIZE],
            total=len(found),
            page=page,
            more=offset + PAGE_SIZE < len(found),
            tenant=tenant or "",
            link=lambda **kw: PATH + "users" + query_string(tenant=tenant, **kw),
        )

    async def user(self, request: Request, session: Session) -> Response:
        tenant, user = request.query_params.get("tenant", ""), request.query_params.get("user", "")
        memory = services_of(request).memory
        q = (request.query_params.get("q") or "").strip()[:500]
        page, offset = _page(request)
        if q:
            found = await memory.search(
                tenant, user, q, limit=offset + PAGE_SIZE, scope="personal", include_disabled=True, floor=True
            )
            items, total = [s.memory for s in found[offset:]], len(found)
            more = total == offset + PAGE_SIZE
        else:  # in use here; replaced and turned off in their own list below
            items, total = await memory.list(tenant, user, personal_only=True, limit=PAGE_SIZE, offset=offset)
            more = offset + PAGE_SIZE < total
        off = [] if q else await turned_off(memory, tenant, user)
        here = PATH + "user" + query_string(tenant=tenant, user=user)
        return self.render(
            request,
            session,
            "console_user.html",
            tenant=tenant,
            user=user,
            q=q,
            items=items,
            total=total,
            page=page,
            more=more,
            uses=await memory.use_counts(tenant, user, [m.id for m in items], everyone=True),
            off=off,
            here=here,
            cap=memory.max_pinned_per_user,
            stats=await memory.stats(tenant, user),
            settings=await memory.get_settings(tenant, user),
            link=lambda **kw: PATH + "user" + query_string(tenant=tenant, user=user, q=q, **kw),
        )

    async def open_user_page(self, request: Request, session: Session) -> Response:
        """Support: open ``/me/`` as this user sees it, through a freshly minted link."""
        form = request.state.form
        tenant, user = form.get("tenant", "").strip(), form.get("user", "").strip()
        if not tenant or not user:
            return self.render(request, session, "denied.html", 404, message="not_found")
        token, _ = await self.links.mint(tenant, user)
        return self.pages.redirect(f"{OPEN_PATH}?token={token}")

    async def shared(self, request: Request, session: Session) -> Response:
        services = services_of(request)
        known = await queries.tenants(services)
        tenant = request.query_params.get("tenant") or (known[0] if known else "")
        page, offset = _page(request)
        items, total = (
            await services.memory.list(tenant, None, include_disabled=True, limit=PAGE_SIZE, offset=offset)
            if tenant
            else ([], 0)
        )
        return self.render(
            request,
            session,
            "console_shared.html",
            tenant=tenant,
            tenants=known,
            items=items,
            uses=await services.memory.use_counts(tenant, None, [m.id for m in items], everyone=True),
            **_paging(page, offset, total),
            categories=CATEGORIES,
            error=request.query_params.get("error"),
            link=lambda **kw: PATH + "shared" + query_string(tenant=tenant, **kw),
        )

    async def create_shared(self, request: Request, session: Session) -> Response:
        form = request.state.form
        tenant = form.get("tenant", "").strip()
        scope = form.get("scope") if form.get("scope") in ("shared", "system") else "shared"
        try:
            if not tenant:
                raise MemoryValidationError("tenant", "is required")
            item = NewMemory(
                title=form.get("title", ""),
                content=form.get("content", ""),
                category=form.get("category", ""),
                subcategory=form.get("subcategory", ""),
                tags=[t.strip() for t in form.get("tags", "").split(",") if t.strip()],
                scope=scope,
                source="system" if scope == "system" else "manual",
            )
            await services_of(request).memory.add(tenant, "", item, actor=ACTOR)
        except MemoryValidationError as exc:
            return self.pages.redirect(PATH + "shared" + query_string(tenant=tenant, error=str(exc)))
        return self.pages.redirect(PATH + "shared" + query_string(tenant=tenant, done="created_ok"))

    async def memory_detail(self, request: Request, session: Session, error: str | None = None) -> Response:
        memory = services_of(request).memory
        found = await memory.admin_get(request.path_params["id"])
        if found is None:
            return self.render(request, session, "denied.html", 404, message="not_found")
        why = why_off(found.disabled_reason)
        other = (await own(memory, found.tenant, found.user_id, [why.other])).get(why.other) if why.other else None
        return self.render(
            request,
            session,
            "console_memory.html",
            400 if error else 200,
            m=found,
            why=why,
            other=other,
            categories=CATEGORIES,
            error=error,
        )

    async def memory_edit(self, request: Request, session: Session) -> Response:
        form = request.state.form
        changes: dict[str, Any] = {
            "title": form.get("title", ""),
            "content": form.get("content", ""),
            "category": form.get("category", ""),
            "subcategory": form.get("subcategory", ""),
            "tags": [t.strip() for t in form.get("tags", "").split(",") if t.strip()],
            "enabled": form.get("enabled") == "on",
        }
        try:
            updated = await services_of(request).memory.admin_update(request.path_params["id"], changes, actor=ACTOR)
        except MemoryValidationError as exc:
            return await self.memory_detail(request, session, error=str(exc))
        if updated is None:
            return self.render(request, session, "denied.html", 404, message="not_found")
        return self.pages.redirect(f"{PATH}memories/{updated.id}?done=saved")

    async def memory_delete(self, request: Request, session: Session) -> Response:
        memory = services_of(request).memory
        found = await memory.admin_get(request.path_params["id"])
        back = _back(request.state.form, PATH + "shared")
        if found is not None and found.scope == "personal":  # a user's memory: undoable a moment
            if back.startswith(PATH + "memories/"):  # its own page is gone: back to its user
                back = PATH + "user" + query_string(tenant=found.tenant, user=found.user_id)
            token = await actions.delete(memory, self.undo, session.id, found, actor=ACTOR)
            return self.pages.redirect(_with_notice(back, "deleted_undo") + "&undo=" + token)
        await memory.admin_delete(request.path_params["id"], actor=ACTOR)
        return self.pages.redirect(_with_notice(back, "deleted"))

    async def undo_delete(self, request: Request, session: Session) -> Response:
        memory, form = services_of(request).memory, request.state.form
        back = await actions.undo_delete(memory, self.undo, session.id, form.get("undo", ""), actor=ACTOR)
        target = PATH if back is None else PATH + "user" + query_string(tenant=back.tenant, user=back.user_id)
        return self.pages.redirect(_with_notice(target, "undone" if back else "undo_late"))

    async def memory_change(self, request: Request, session: Session) -> Response:
        """Pin, unpin, turn off, turn on or restore a user's memory, as they can on ``/me/``."""
        memory = services_of(request).memory
        found = await memory.admin_get(request.path_params["id"])
        what = request.path_params["action"]
        if found is None or found.scope != "personal" or what not in actions.ACTIONS:
            return self.render(request, session, "denied.html", 404, message="not_found")
        back = _back(request.state.form, PATH + "user" + query_string(tenant=found.tenant, user=found.user_id))
        try:
            notice = await actions.act(memory, found, what, actor=ACTOR)
        except TooManyPinned:
            notice = "pin_full"
        return self.pages.redirect(_with_notice(back, notice))

    async def promote(self, request: Request, session: Session) -> Response:
        found = await services_of(request).memory.admin_get(request.path_params["id"])
        if found is None:
            return self.render(request, session, "denied.html", 404, message="not_found")
        try:
            await services_of(request).memory.promote(found.id, actor=ACTOR)
        except MemoryValidationError as exc:  # its text steers the assistant: never shared
            return await self.memory_detail(request, session, error=str(exc))
        return self.pages.redirect(_with_notice(_back(request.state.form, PATH + "shared"), "promoted"))

    # -- prompts ----------------------------------------------------------------------------
    async def prompts(self, request: Request, session: Session, errors: dict[str, str] | None = None) -> Response:
        learning = services_of(request).learning
        found = {name: await learning.get_prompt(name) for name in PROMPT_NAMES}
        return self.render(
            request, session, "console_prompts.html", 400 if errors else 200, prompts=found, errors=errors or {}
        )

    def _prompt_name(self, request: Request) -> PromptName | None:
        for known in PROMPT_NAMES:
            if request.path_params["name"] == known:
                return known
        return None

    async def save_prompt(self, request: Request, session: Session) -> Response:
        name = self._prompt_name(request)
        if name is None:
            return self.render(request, session, "denied.html", 404, message="not_found")
        text = request.state.form.get("prompt", "").replace("\r\n", "\n")
        learning = services_of(request).learning
        if request.state.form.get("action") == "reset":
            await learning.reset_prompt(name)
            return self.pages.redirect(PATH + "prompts?done=prompt_reset")
        if not text.strip() or len(text) > _MAX_PROMPT:
            return await self.prompts(request, session, {name: f"must be 1 to {_MAX_PROMPT} characters"})
        elif "{conversation}" not in text:
            return await self.prompts(request, session, {name: "must contain the {conversation} placeholder"})
        else:
            await learning.put_prompt(name, text, actor=ACTOR)
        return self.pages.redirect(PATH + "prompts?done=saved")

    # -- logs and jobs ----------------------------------------------------------------------
    async def learning_log(self, request: Request, session: Session) -> Response:
        services = services_of(request)
        tenant = request.query_params.get("tenant") or None
        user = request.query_params.get("user") or None
        wanted = request.query_params.get("outcome")
        outcome = wanted if wanted in KNOWN_OUTCOMES or queries.is_code(wanted or "") else None
        page, offset = _page(request)
        if outcome is None:
            entries, total = await services.learning.log_entries(
                tenant=tenant, user_id=user, limit=PAGE_SIZE, offset=offset
            )
            rows = [log_row(e) for e in entries]
        else:  # the overview's count links here: the newest entries with that outcome
            entries, _ = await services.learning.log_entries(tenant=tenant, user_id=user, limit=_MAX_LOG_SCAN, offset=0)
            matching = [r for r in (log_row(e) for e in entries) if has_outcome(r, outcome)]
            rows, total = matching[offset : offset + PAGE_SIZE], len(matching)
        titles = await services.memory.store.fetch(memory_ids(rows))
        return self.render(
            request,
            session,
            "console_learning_log.html",
            rows=rows,
            titles={k: m.title for k, m in titles.items()},
            outcome=outcome or "",
            **_paging(page, offset, total),
            tenant=tenant or "",
            user=user or "",
            link=lambda **kw: PATH + "learning-log" + query_string(tenant=tenant, user=user, outcome=outcome, **kw),
        )

    async def audit_log(self, request: Request, session: Session) -> Response:
        tenant = request.query_params.get("tenant") or None
        page, offset = _page(request)
        memory = services_of(request).memory
        rows, total = await memory.audit_log(tenant=tenant, limit=PAGE_SIZE, offset=offset)
        named = [r.memory_id for r in rows if r.memory_id]
        named += [why_off(str((r.after or {}).get("disabled_reason") or "")).other or "" for r in rows]
        titles = await memory.store.fetch([i for i in named if i])
        return self.render(
            request,
            session,
            "console_audit_log.html",
            rows=[(r, diff(r.before, r.after)) for r in rows],
            titles={k: m.title for k, m in titles.items()},
            **_paging(page, offset, total),
            tenant=tenant or "",
            link=lambda **kw: PATH + "audit-log" + query_string(tenant=tenant, **kw),
        )

    async def reflections(self, request: Request, session: Session) -> Response:
        tenant = request.query_params.get("tenant") or None
        user = request.query_params.get("user") or None
        page, offset = _page(request)
        memory = services_of(request).memory
        found, total = await memory.reflections(tenant, user, limit=PAGE_SIZE, offset=offset)
        rows = [reflection_json(r) for r in found]
        named = [i for r in rows for m in r["merges"] for i in (m.get("into"), *m.get("ids", []))]
        named += [i for r in rows for i in r["ids"].get("summaries", [])]
        titles = await memory.store.fetch([str(i) for i in named if i])
        return self.render(
            request,
            session,
            "console_reflections.html",
            rows=rows,
            titles={k: m.title for k, m in titles.items()},
            kinds=KINDS,
            **_paging(page, offset, total),
            tenant=tenant or "",
            user=user or "",
            link=lambda **kw: PATH + "reflections" + query_string(tenant=tenant, user=user, **kw),
        )

    async def jobs(self, request: Request, session: Session) -> Response:
        page, offset = _page(request)
        rows, total = await services_of(request).learning.dead_jobs(limit=PAGE_SIZE, offset=offset)
        return self.render(
            request,
            session,
            "console_jobs.html",
            rows=rows,
            **_paging(page, offset, total),
            link=lambda **kw: PATH + "jobs" + query_string(**kw),
        )

    async def job_action(self, request: Request, session: Session) -> Response:
        learning = services_of(request).learning
        try:
            job_id = int(request.path_params["id"])
        except ValueError:
            return self.render(request, session, "denied.html", 404, message="not_found")
        action = request.path_params["action"]
        if action not in ("retry", "discard"):
            return self.render(request, session, "denied.html", 404, message="not_found")
        if action == "retry":
            done = await learning.retry_dead(job_id)
            notice = "retried"
        else:
            done = await learning.discard_dead(job_id)
            notice = "discarded"
        if not done:
            return self.render(request, session, "denied.html", 404, message="not_found")
        return self.pages.redirect(PATH + "jobs?done=" + notice)

    # -- supersede reviews (learning.review: queue) ------------------------------------------
    async def reviews(self, request: Request, session: Session) -> Response:
        """Supersedes waiting for an operator (or their user), oldest first, with both texts;
        the decided ones (who decided, when) under their own tabs."""
        services = services_of(request)
        tenant = request.query_params.get("tenant") or None
        wanted = request.query_params.get("state")
        state: ReviewState = next((known for known in _REVIEW_STATES if known == wanted), "pending")
        page, offset = _page(request)
        rows, total = await services.memory.reviews(tenant, None, state, limit=PAGE_SIZE, offset=offset)
        now = time.time()
        return self.render(
            request,
            session,
            "console_reviews.html",
            rows=[(r, old, new, queries.age(r.created_at, now)) for r, old, new in rows],
            state=state,
            states=_REVIEW_STATES,
            **_paging(page, offset, total),
            tenant=tenant or "",
            tenants=await queries.tenants(services),
            here=PATH + "reviews" + query_string(tenant=tenant, state=state, page=page if page > 1 else None),
            link=lambda **kw: PATH + "reviews" + query_string(tenant=tenant, state=state, **kw),
        )

    async def decide_review(self, request: Request, session: Session) -> Response:
        decision = request.path_params["decision"]
        if decision not in ("accept", "reject"):
            return self.render(request, session, "denied.html", 404, message="not_found")
        back = _back(request.state.form, PATH + "reviews")
        try:
            await services_of(request).memory.decide_review(
                request.path_params["id"], decision == "accept", tenant=None, user_id=None, actor=ACTOR
            )
        except NotFound:
            return self.render(request, session, "denied.html", 404, message="not_found")
        except ReviewDecided:  # decided meanwhile (the user, another operator): say so
            return self.pages.redirect(_with_notice(back, "review_was_decided"))
        notice = "review_accepted_op" if decision == "accept" else "review_rejected_op"
        return self.pages.redirect(_with_notice(back, notice))


def _with_notice(url: str, notice: str) -> str:
    return url + ("&" if "?" in url else "?") + "done=" + notice
