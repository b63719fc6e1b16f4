"""The console's routes: ``/me/`` for end users, ``/console/`` for operators, and the
console-link endpoints that let an app (or an operator) open ``/me/`` for a user."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gateway.api.console_links import console_link_operations
from gateway.api.operation import routes_of
from gateway.config import Config
from gateway.console.links import Links
from gateway.console.mint import OPEN_PATH, LinkMinter
from gateway.console.operator_pages import OperatorPages
from gateway.console.sessions import SessionStore
from gateway.console.user_pages import UserPages
from gateway.console.web import STATIC_FILES, Pages, static_file
from gateway.store import Backend

STATIC_PATH = "/console-static"


def _consent(request: Request) -> str:
    """The learning consent mode (opt_out when learning is not configured)."""
    learning = request.app.state.services.learning_service
    return "opt_out" if learning is None else learning.options.consent


async def _static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC_FILES:
        return Response(b"not found", 404, media_type="text/plain")
    headers = {"cache-control": "public, max-age=3600", "x-content-type-options": "nosniff"}
    return Response(static_file(name), headers=headers, media_type=STATIC_FILES[name])


async def _favicon(request: Request) -> Response:
    # browsers ask for /favicon.ico on pages that name no icon (JSON views, the API docs)
    headers = {"cache-control": "public, max-age=86400", "x-content-type-options": "nosniff"}
    return Response(static_file("favicon.svg"), headers=headers, media_type=STATIC_FILES["favicon.svg"])


def console_routes(config: Config, backend: Backend) -> list[BaseRoute]:
    """The console's routes; sessions and revoked links live in ``backend.console`` (opened
    with the application's services, before the first request)."""
    settings = config.console
    secret, admin_key = settings.secret.get_secret_value(), config.auth.admin_key.get_secret_value()
    links = Links(secret, settings.link_ttl_s, backend.console, shared=backend.memories.shared, admin_key=admin_key)
    pages = Pages(settings)
    minter = LinkMinter(settings, links, config.server.host)
    # a session ends when the credential that vouched for it changes (see sessions.py)
    users = SessionStore(backend.console, settings.session_ttl_s, bound_to=secret)
    operators = SessionStore(backend.console, settings.session_ttl_s, bound_to=admin_key)
    me = UserPages(pages, links, users, _consent)
    op = OperatorPages(pages, operators, links)
    return [
        *routes_of(console_link_operations(minter.console_link, minter.console_link_for)),
        Route(STATIC_PATH + "/{name}", _static, methods=["GET"]),
        Route("/favicon.ico", _favicon, methods=["GET"]),
        Route(OPEN_PATH, me.open_link, methods=["GET"]),
        Route("/me/", me.session(me.home), methods=["GET"]),
        Route("/me/logout", me.session(me.logout, change=True), methods=["POST"]),
        Route("/me/settings", me.session(me.settings, change=True), methods=["POST"]),
        Route("/me/memories/{id}", me.session(me.detail), methods=["GET"]),
        Route("/me/memories/{id}", me.session(me.edit, change=True), methods=["POST"]),
        Route("/me/memories", me.session(me.add, change=True), methods=["POST"]),
        Route("/me/memories/{id}/delete", me.session(me.delete, change=True), methods=["POST"]),
        Route("/me/memories/{id}/{action:str}", me.session(me.change, change=True), methods=["POST"]),
        Route("/me/undo", me.session(me.undo_delete, change=True), methods=["POST"]),
        Route("/me/reviews/{id}/{decision}", me.session(me.decide, change=True), methods=["POST"]),
        Route("/me/clear", me.session(me.confirm_clear), methods=["GET"]),
        Route("/me/clear", me.session(me.clear, change=True), methods=["POST"]),
        Route("/me/export.{fmt:str}", me.session(me.export), methods=["GET"]),
        Route("/console/login", op.login_form, methods=["GET"]),
        Route("/console/login", op.login, methods=["POST"]),
        Route("/console/logout", op.session(op.logout, change=True), methods=["POST"]),
        Route("/console/", op.session(op.overview), methods=["GET"]),
        Route("/console/health", op.session(op.health), methods=["GET"]),
        Route("/console/users", op.session(op.users), methods=["GET"]),
        Route("/console/user", op.session(op.user), methods=["GET"]),
        Route("/console/user/open", op.session(op.open_user_page, change=True), methods=["POST"]),
        Route("/console/shared", op.session(op.shared), methods=["GET"]),
        Route("/console/shared", op.session(op.create_shared, change=True), methods=["POST"]),
        Route("/console/memories/{id}", op.session(op.memory_detail), methods=["GET"]),
        Route("/console/memories/{id}", op.session(op.memory_edit, change=True), methods=["POST"]),
        Route("/console/memories/{id}/delete", op.session(op.memory_delete, change=True), methods=["POST"]),
        Route("/console/memories/{id}/promote", op.session(op.promote, change=True), methods=["POST"]),
        Route("/console/memories/{id}/{action:str}", op.session(op.memory_change, change=True), methods=["POST"]),
        Route("/console/undo", op.session(op.undo_delete, change=True), methods=["POST"]),
        Route("/console/prompts", op.session(op.prompts), methods=["GET"]),
        Route("/console/prompts/{name}", op.session(op.save_prompt, change=True), methods=["POST"]),
        Route("/console/learning-log", op.session(op.learning_log), methods=["GET"]),
        Route("/console/audit-log", op.session(op.audit_log), methods=["GET"]),
        Route("/console/reflections", op.session(op.reflections), methods=["GET"]),
        Route("/console/jobs", op.session(op.jobs), methods=["GET"]),
        Route("/console/jobs/{id}/{action:str}", op.session(op.job_action, change=True), methods=["POST"]),
        Route("/console/reviews", op.session(op.reviews), methods=["GET"]),
        Route("/console/reviews/{id}/{decision}", op.session(op.decide_review, change=True), methods=["POST"]),
    ]
