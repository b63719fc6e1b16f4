"""The OpenAI Agents SDK's default model class (Responses API) through memorelay, with a function tool."""

from __future__ import annotations

import agents
import openai

from gateway.memory import MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection

agents.set_tracing_disabled(True)  # the SDK would export traces to OpenAI


@agents.function_tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


def test_runner_with_a_function_tool(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=[memory_injection()]) as url:
        add(user_client(url, "alice"), "Trip", "The user is planning a trip to Paris in May.", category="domain")
        client = openai.AsyncOpenAI(
            base_url=url + "/v1", api_key="sk-app", max_retries=0, default_headers={"X-Memorelay-User": "alice"}
        )
        agent = agents.Agent(
            name="assistant",
            instructions="You are a travel helper.",
            tools=[get_weather],
            model=agents.OpenAIResponsesModel(model="gpt-4o-mini", openai_client=client),
        )
        result = agents.Runner.run_sync(agent, "What is the weather for my trip to Paris?")
    assert result.final_output == "tool said: sunny in Paris"
    first, second = (r.body for r in fake.on("/v1/responses"))
    assert first is not None and second is not None
    for body in (first, second):  # the turn's user message is in both calls: same memory, same prefix
        assert body["instructions"].startswith("You are a travel helper.\n\n" + MEMORY_BLOCK_START)
        assert "Paris in May" in body["instructions"]
    assert [t["name"] for t in first["tools"]] == ["get_weather"]
    assert [i.get("type") for i in second["input"]][-2:] == ["function_call", "function_call_output"]
