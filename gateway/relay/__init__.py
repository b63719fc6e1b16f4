"""The verbatim relays: every ``/v1/*`` path the chain does not run on, byte for byte.

One endpoint (``gateway.relay.endpoint``) serves both upstreams, the default OpenAI one and
``upstreams.anthropic`` (``/v1/messages/*``); which paths may go (``paths``) and which a
shared upstream account refuses (``policy``) are their own modules.
"""
