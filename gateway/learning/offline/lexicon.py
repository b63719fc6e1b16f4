"""Which part of a technical setup a named tool fills ("Vitest" → the test runner).

The attribute of "we use X" cannot come from the verb, which says nothing: it comes from what
X is. This is a list of *values* (products), each with the attribute it fills; the attribute
of a sentence is still read off its frame first (``keys``: "deploy on X" is where the app
runs, "live in X" the home city, whatever X is). Names are matched lower-case on word
boundaries, longest first, so "github actions" wins over "github".
"""

from __future__ import annotations

import re
from functools import cache

HOSTING = "stack.hosting"

_CLASSES: dict[str, str] = {
    HOSTING: """kubernetes|k8s|nomad|hetzner|fly.io|fly|heroku|vercel|netlify|digitalocean|render|render.com
        |linode|aws|amazon web services|gcp|google cloud|azure|ec2|ecs|eks|gke|aks|fargate|lambda|aws lambda
        |cloud run|app engine|elastic beanstalk|openshift|docker swarm|swarm|on-prem|on-premise|on-premises
        |bare metal|cloudflare workers|cloudflare pages|railway|ovh|scaleway|vultr|coolify|dokku|k3s|rancher
        |aliyun|阿里云|腾讯云|华为云|自建机房|firebase hosting|github pages|mesos|ecs fargate""",
    "stack.database": """postgres|postgresql|mysql|mariadb|sqlite|mongodb|mongo|sql server|mssql|oracle db|oracle
        |dynamodb|cockroachdb|cassandra|couchdb|firestore|supabase|planetscale|neon|tidb|clickhouse|snowflake
        |bigquery|redshift|duckdb|timescaledb|scylladb|neo4j|fauna|aurora""",
    "stack.tests": """jest|vitest|mocha|jasmine|pytest|unittest|nose|junit|testng|rspec|minitest|phpunit|ava
        |karma|go test|xunit|nunit|catch2|googletest|gtest|kotest|spock|tap|node test runner|bun test""",
    "stack.e2e_tests": "cypress|playwright|selenium|puppeteer|webdriverio|testcafe|appium",
    "stack.frontend": """react|vue|vue.js|angular|svelte|sveltekit|solid|solidjs|next.js|nextjs|nuxt|remix|astro
        |ember|jquery|preact|qwik|htmx|alpine.js""",
    "stack.backend": """django|flask|fastapi|rails|ruby on rails|spring|spring boot|laravel|express|express.js
        |nestjs|phoenix|asp.net|gin|echo|fiber|actix|axum|koa|hapi|symfony|starlette|quarkus|micronaut""",
    "stack.queue": "kafka|rabbitmq|sqs|pub/sub|nats|kinesis|activemq|pulsar|celery|sidekiq|bullmq|redis streams",
    "stack.orchestrator": "airflow|dagster|prefect|luigi|argo workflows|temporal|step functions",
    "stack.editor": """vs code|vscode|visual studio code|goland|pycharm|intellij|webstorm|neovim|vim|emacs|thonny
        |sublime text|sublime|cursor|zed|xcode|android studio|helix|nano|visual studio|rider|clion""",
    "stack.ci": """github actions|gitlab ci|circleci|jenkins|travis|travis ci|buildkite|drone|teamcity|bamboo
        |azure pipelines|bitbucket pipelines|woodpecker""",
    "stack.package_manager": "npm|yarn|pnpm|bun|pip|poetry|uv|pipenv|conda|cargo|maven|gradle|composer|bundler",
    "stack.monitoring": "datadog|sentry|grafana|prometheus|new relic|honeycomb|splunk|elastic apm|opentelemetry",
    "stack.cache": "redis|memcached|varnish|valkey",
    "stack.iac": "terraform|pulumi|ansible|chef|puppet|cloudformation|opentofu|cdk",
    "stack.language": """python|go|golang|rust|java|kotlin|scala|ruby|php|typescript|javascript|c#|c\\+\\+|elixir
        |erlang|haskell|clojure|swift|dart|lua|perl|ocaml|f#|zig|julia""",
    "stack.vcs_host": "github|gitlab|bitbucket|gitea|sourcehut",
    "stack.os": "linux|ubuntu|debian|fedora|arch linux|windows|macos|mac os|freebsd",
    "stack.chat": "slack|microsoft teams|discord|mattermost|zulip|飞书|钉钉|企业微信",
    "stack.tracker": "jira|linear|trello|asana|youtrack|clickup|notion|shortcut",
    "stack.build": "vite|webpack|esbuild|rollup|turbopack|parcel|rspack|bazel",
    "stack.deploy": "argo cd|argocd|flux|fluxcd|spinnaker|octopus deploy|capistrano|kamal",
    # the same question for the rest of a user's life: which courier, which books, which sport
    "tools.bookkeeping": "freeagent|xero|quickbooks|freshbooks|zoho books|sage accounting|金蝶|用友",
    "shop.courier": """顺丰|京东快递|京东物流|中通|圆通|韵达|申通|极兔|邮政|ems|dhl|ups|fedex|royal mail|dpd|evri
        |hermes|usps|parcelforce""",
    "activity.sport": """swimming|swims|swim|jogging|running
        |cycling|road bike|road biking|biking|half marathon|half-marathon|marathon|triathlon|yoga|pilates|climbing
        |bouldering|tennis|squash|football|soccer|basketball|badminton|weightlifting|powerlifting|crossfit|rowing
        |hiking|游泳|跑步|骑行|瑜伽|攀岩|篮球|足球|羽毛球|网球|马拉松|举铁""",
    "finance.investing": """定投|指数基金|基金|股票|个股|债券|理财产品|index funds|index fund|etfs|etf|stocks|shares
        |bonds|crypto|bitcoin|premium bonds|isa""",
    "writing.genre": """仙侠|玄幻|修仙|都市|职场|言情|悬疑|科幻|武侠|奇幻|fantasy|sci-fi|science fiction|romance
        |thriller|mystery novels|cozy mystery|horror|literary fiction|young adult""",
}
#: attributes that hold several values at once (a language for each service, several sports)
MULTI_CLASSES = frozenset({"stack.language", "stack.monitoring", "stack.os", "activity.sport", "finance.investing"})


@cache
def _index() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    names: list[tuple[str, str]] = []
    for cls, spec in _CLASSES.items():
        names.extend((name.strip(), cls) for name in spec.split("|") if name.strip())
    names.sort(key=lambda nc: -len(nc[0]))
    out = []
    for name, cls in names:
        if re.search(r"[\u3400-\u9fff]", name):
            pattern = re.compile(re.escape(name) if "\\" not in name else name)
        else:
            body = name if "\\" in name else re.escape(name)
            # ASCII word edges: a name right after Chinese text is still a name ("团队Java 17")
            pattern = re.compile(rf"(?<![A-Za-z0-9_.+#-]){body}(?![A-Za-z0-9_+#]|\.\w)", re.IGNORECASE)
        out.append((name.replace("\\", ""), cls, pattern))
    return tuple(out)


# a name that is a value only in some frames: "running on Kubernetes" is no sport
_NOT_HERE = {
    "running": re.compile(r"\s+(?:on|in|at|with|into|out|late|behind|low|a|an|the|our|my|it|this|that)\b", re.I)
}


def tools_in(text: str) -> list[tuple[str, str]]:
    """The known tools ``text`` names, as (name, attribute), in order of appearance."""
    found: list[tuple[int, int, str, str]] = []
    for name, cls, pattern in _index():
        for m in pattern.finditer(text):
            other = _NOT_HERE.get(name)
            if other is not None and other.match(text, m.end()):
                continue
            if not any(s <= m.start() < e for s, e, _, _ in found):
                found.append((m.start(), m.end(), name, cls))
    return [(name, cls) for _, _, name, cls in sorted(found)]


def class_of(phrase: str) -> str | None:
    """The attribute the first tool named in ``phrase`` fills, or None."""
    found = tools_in(phrase)
    return found[0][1] if found else None


# several names of one thing, for telling whether two sentences name the same value
_SAME = {
    "swim": "swimming",
    "swims": "swimming",
    "jogging": "running",
    "biking": "cycling",
    "road bike": "cycling",
    "road biking": "cycling",
    "half-marathon": "half marathon",
    "k8s": "kubernetes",
    "postgresql": "postgres",
    "golang": "go",
    "vue.js": "vue",
    "nextjs": "next.js",
    "mongo": "mongodb",
    "vs code": "vscode",
    "visual studio code": "vscode",
    "google cloud": "gcp",
    "amazon web services": "aws",
}


def canonical(name: str) -> str:
    """One name for a known thing however it was written ("swims" → "swimming")."""
    low = name.lower()
    return _SAME.get(low, low)
