from __future__ import annotations

import pytest

from gateway.learning.offline.heuristic import extract_items, score_turn

ANSWER = "Sure, here is what I suggest. " * 5

# (user turn, expected (category, content) per item); empty list = chit-chat / question
ENGLISH: list[tuple[str, list[tuple[str, str]]]] = [
    ("I prefer tabs over spaces.", [("user_preference", "The user prefers tabs over spaces.")]),
    (
        "We use PostgreSQL 16 and deploy on Kubernetes. Our team is five backend engineers.",
        [
            ("technical", "The user's team uses PostgreSQL 16 and deploys on Kubernetes."),
            ("organizational", "The user's team is five backend engineers."),
        ],
    ),
    (
        "From now on, always answer with code examples in Python.",
        [
            (
                "user_preference",
                "The user wants the assistant to always answer with code examples in Python.",
            )
        ],
    ),
    (
        "No, it should be port 5433 not 5432.",
        [("technical", "Correction from the user: it should be port 5433 not 5432.")],
    ),
    (
        "I'm a data engineer at a fintech startup. I don't like long explanations.",
        [
            ("organizational", "The user is a data engineer at a fintech startup."),
            ("user_preference", "The user does not like long explanations."),
        ],
    ),
    (
        "Actually, our API uses OAuth2 with short-lived tokens.",
        [("technical", "The user's API uses OAuth2 with short-lived tokens.")],
    ),
    (
        "Never use semicolons in my JavaScript. My favourite editor is Neovim.",
        [
            (
                "user_preference",
                "The user wants the assistant to never use semicolons in their JavaScript.",
            ),
            ("user_preference", "The user's favourite editor is Neovim."),
        ],
    ),
    (
        "Our customers are mostly small retail shops.",
        [("business", "The user's customers are mostly small retail shops.")],
    ),
    ("Hi! How are you today?", []),
    ("Thanks, that was really helpful!", []),
    ("What is the capital of France?", []),
    ("Can you write a quicksort function in Rust? I need it for a homework.", []),
    ("I'm a bit tired today, lol.", []),
]

CHINESE: list[tuple[str, list[tuple[str, str]]]] = [
    ("我喜欢简洁的回答。", [("user_preference", "用户喜欢简洁的回答。")]),
    (
        "我们公司用 Go 和 Kafka，部署在阿里云上。",
        [("technical", "用户的公司用 Go 和 Kafka。"), ("technical", "用户的公司部署在阿里云上。")],
    ),
    ("以后都用中文回答。", [("user_preference", "用户希望以后都用中文回答。")]),
    ("不对，应该是 5433 端口。", [("technical", "用户纠正：应该是 5433 端口。")]),
    (
        "我是一名后端工程师。我不喜欢太长的解释。",
        [
            ("organizational", "用户是一名后端工程师。"),
            ("user_preference", "用户不喜欢太长的解释。"),
        ],
    ),
    ("我更喜欢用 Vim 而不是 VS Code。", [("user_preference", "用户更喜欢用 Vim 而不是 VS Code。")]),
    ("永远不要在回答里用表情符号。", [("user_preference", "用户希望永远不要在回答里用表情符号。")]),
    ("我们的客户主要是中小企业。", [("business", "用户的客户主要是中小企业。")]),
    ("你好！今天天气怎么样？", []),
    ("谢谢，很有帮助！", []),
    ("Python 的列表推导式怎么写？", []),
    ("哈哈好的", []),
    ("我是张三", []),
]


@pytest.mark.parametrize(("user", "expected"), ENGLISH + CHINESE)
def test_learner(user: str, expected: list[tuple[str, str]]) -> None:
    items = extract_items(user, ANSWER)
    assert [(i.category, i.content) for i in items] == expected
    score = score_turn(user, ANSWER)
    assert (score.score >= 0.6) == bool(expected), score
    for item in items:
        assert item.title and "\n" not in item.title and len(item.title) <= 80
        assert item.content != user  # rephrased, never the whole message


def test_assistant_answer_is_not_a_source() -> None:
    assert extract_items("ok thanks", "I prefer tabs. We use Go. Always test your code.") == []
    assert score_turn("ok thanks", "I prefer tabs. We use Go.").score < 0.6


def test_titles_about_the_user() -> None:
    (item,) = extract_items("I prefer tabs over spaces.")
    assert item.title == "Prefers tabs over spaces"
    assert item.subcategory and "preference" in item.tags


def test_long_message_is_split_into_facts() -> None:
    text = (
        "Some context first. I prefer dark mode. We use Terraform for infra. "
        "Also I like short answers. From now on, include type hints in Python code. "
        "Our deadline is next Friday. I love Rust."
    )
    items = extract_items(text)
    assert len(items) == 5
    assert all(len(i.content) < 120 for i in items)


@pytest.mark.parametrize(
    ("user", "contents"),
    [
        # grammatical third person; nothing inside names or acronyms is rewritten
        ("I deploy on Fridays.", ["The user deploys on Fridays."]),
        ("My readers are in the US.", ["The user's readers are in the US."]),
        ("I don't like long explanations.", ["The user does not like long explanations."]),
        (
            "I always use type hints and run mypy in strict mode.",
            ["The user always uses type hints and runs mypy in strict mode."],
        ),
        # a change keeps the value it leaves: the store replaces what named it and keeps the new one
        (
            "We moved the app off the Hetzner box onto Fly.io last month.",
            ["The user's team moved the app off the Hetzner box onto Fly.io last month."],
        ),
        # one-offs, requests for this turn, text to edit, questions
        ("Hi, I need to skip next week's box.", []),
        ("Can you tighten this? 'I knew the harbourmaster was lying the moment he smiled.'", []),
        ("Much better. Make this less formal.", []),
        ("Is Sentry worth it for a team our size?", []),
        (
            "我们是一家做跨境电商的小公司，技术就三个人。老板让我这周五之前把 bug 修掉。",
            ["用户的团队是一家做跨境电商的小公司。", "用户的团队技术就三个人。"],
        ),
        ("我写东西喜欢短句，也别用感叹号。", ["用户写东西喜欢短句。", "用户希望不要用感叹号。"]),
        ("我要给房子办宽带过户，原户主是我父亲张建国。", []),
        ("帮我把开头改得更有画面感：'很多人不知道，城市里也能养蜂。'", []),
    ],
)
def test_statements_about_the_user(user: str, contents: list[str]) -> None:
    assert [i.content for i in extract_items(user)] == contents


@pytest.mark.parametrize(
    ("user", "slot"),
    [
        ("We moved the app onto Fly.io last month.", "stack.hosting"),
        ("Our team is down to 8 engineers.", "team.size"),
        ("我上个月搬到北京了。", "home.city"),
        ("I'm vegetarian.", "diet"),
        ("I prefer tabs over spaces.", "code.indentation"),
        ("I love Rust.", "taste.rust"),
    ],
)
def test_slots(user: str, slot: str | None) -> None:
    (item,) = extract_items(user)
    assert item.slot == slot


def test_code_is_not_a_source_but_prose_that_looks_like_it_is() -> None:
    text = (
        "Can you rewrite this one?\n\nclass InvoiceListView(LoginRequiredMixin, ListView):\n    model = Invoice\n\n"
        "public transport is fine for me, I never rent a car."
    )
    assert [i.content for i in extract_items(text)] == [
        "Public transport is fine for the user, the user never rents a car."
    ]
