"""The HTTP wing: pure-ASGI plumbing with no knowledge of memory or learning.

Body reading and header helpers (``asgi``), CORS preflights (``cors``), trusted proxies
(``forwarded``), the access log, uvicorn's protocol with request deadlines
(``server_protocol``) and relaying a byte stream to the client (``streaming``).
"""
