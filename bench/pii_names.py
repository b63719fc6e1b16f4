"""PERSON detection of the PII scrubber: false positives on technology and product names, recall
on real person names, in English and Chinese sentence contexts.

Each technology/product name is put into one English and one Chinese sentence ("We moved our
builds to {name} last year.", "我们用 {name} 做监控。"); a false positive is a sentence in which
the scrubber replaced (part of) the name with ``<PERSON>``. Each person name is put into an
English and a Chinese context ("Please ask {name} before merging.", "这个需求是{name}提的。"); it is
found when the name no longer appears in the scrubbed text. Names marked ``held_out`` are not in
the scrubber's product vocabulary (``pii_names.NOT_NAMES``), so their row measures the context rules
alone.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/pii_names.py [-v]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.learning.privacy import pii_names
from gateway.learning.privacy.pii import PiiScrubber

TECH = """
Jupyter|Datadog|Sentry|Grafana|Kibana|Splunk|New Relic|PagerDuty|Opsgenie|Honeycomb|Lightstep|Jaeger|Zipkin|
Prometheus|Loki|Tempo|Mimir|Thanos|Cortex|VictoriaMetrics|InfluxDB|TimescaleDB|QuestDB|ClickHouse|Druid|Pinot|
Snowflake|BigQuery|Redshift|Databricks|Dagster|Airflow|Prefect|Luigi|Kedro|MLflow|Kubeflow|Metaflow|Flyte|
Argo|Tekton|Jenkins|CircleCI|Travis|Buildkite|Drone|Bamboo|TeamCity|Spinnaker|Harness|Octopus|Codefresh|
GitHub Actions|GitLab|Bitbucket|Gitea|Gerrit|Phabricator|Jira|Confluence|Trello|Asana|Linear|Notion|Obsidian|
Roam|Evernote|OneNote|Slack|Discord|Mattermost|Zulip|Teams|Zoom|Webex|Figma|Sketch|Miro|Canva|Framer|Webflow|
Wix|Squarespace|Shopify|Magento|WooCommerce|BigCommerce|Stripe|Braintree|Adyen|Klarna|Plaid|Twilio|SendGrid|
Mailgun|Postmark|Mailchimp|HubSpot|Salesforce|Zendesk|Intercom|Freshdesk|Gorgias|Segment|Mixpanel|Amplitude|
Heap|Hotjar|FullStory|LogRocket|Optimizely|LaunchDarkly|Unleash|Flagsmith|Auth0|Okta|Keycloak|Cognito|
Firebase|Supabase|Appwrite|PocketBase|Hasura|Prisma|Drizzle|Sequelize|TypeORM|SQLAlchemy|Alembic|Flyway|
Liquibase|Django|Flask|FastAPI|Starlette|Tornado|Sanic|Quart|Falcon|Pyramid|Bottle|Celery|Dramatiq|Huey|RQ|
Gunicorn|Uvicorn|Hypercorn|Waitress|Nginx|Caddy|Traefik|Envoy|HAProxy|Istio|Linkerd|Consul|Vault|Nomad|
Terraform|Pulumi|Ansible|Chef|Puppet|SaltStack|Packer|Vagrant|Docker|Podman|Kubernetes|OpenShift|Rancher|
Helm|Kustomize|Skaffold|Tilt|Minikube|Kind|k3s|MicroK8s|EKS|GKE|AKS|Fargate|Lambda|Cloud Run|App Engine|
Heroku|Vercel|Netlify|Render|Railway|Fly.io|Hetzner|DigitalOcean|Linode|Vultr|OVH|Scaleway|Cloudflare|Akamai|
Fastly|Spring Boot|Quarkus|Micronaut|Ktor|Vert.x|Dropwizard|Hibernate|Maven|Gradle|Ant|Bazel|Buck|Pants|
Nx|Turborepo|Lerna|Yarn|pnpm|npm|Vite|Webpack|Rollup|Parcel|esbuild|SWC|Babel|Jest|Vitest|Mocha|Jasmine|
Karma|Cypress|Playwright|Puppeteer|Selenium|Storybook|Chromatic|React|Vue|Angular|Svelte|SolidJS|Preact|
Ember|Backbone|jQuery|Next.js|Nuxt|Remix|Gatsby|Astro|Eleventy|Hugo|Jekyll|Hexo|Docusaurus|MkDocs|Sphinx|
Redux|MobX|Zustand|Recoil|Tailwind|Bootstrap|Bulma|Chakra|Material UI|Ant Design|Electron|Tauri|Flutter|
React Native|Expo|Ionic|Capacitor|Xamarin|SwiftUI|UIKit|Jetpack Compose|Kotlin|Swift|Rust|Go|Elixir|Erlang|
Haskell|OCaml|Clojure|Scala|Groovy|Perl|Lua|Julia|Fortran|COBOL|Pascal|Delphi|Ada|Zig|Nim|Crystal|Dart|
PostgreSQL|MySQL|MariaDB|SQLite|MongoDB|Cassandra|ScyllaDB|CockroachDB|YugabyteDB|TiDB|Vitess|Neo4j|ArangoDB|
DynamoDB|Cosmos DB|Firestore|Redis|Memcached|Valkey|KeyDB|Dragonfly|Kafka|RabbitMQ|NATS|Pulsar|ActiveMQ|
ZeroMQ|Kinesis|SQS|SNS|EventBridge|Elasticsearch|OpenSearch|Solr|Meilisearch|Typesense|Algolia|Pinecone|
Weaviate|Qdrant|Milvus|Chroma|pgvector|LangChain|LlamaIndex|Haystack|Ollama|vLLM|llama.cpp|Hugging Face|
PyTorch|TensorFlow|Keras|JAX|scikit-learn|XGBoost|LightGBM|CatBoost|pandas|Polars|NumPy|SciPy|Matplotlib|
Seaborn|Plotly|Bokeh|Streamlit|Gradio|Dash|Tableau|Looker|Metabase|Superset|Redash|Power BI|Excel|Word|
PowerPoint|Outlook|OneDrive|SharePoint|Dropbox|Box|Google Drive|Google Docs|Google Sheets|Gmail|Chrome|
Firefox|Safari|Edge|Brave|Arc|Vivaldi|Opera|VS Code|Visual Studio|IntelliJ|PyCharm|WebStorm|GoLand|CLion|
Rider|Android Studio|Xcode|Eclipse|NetBeans|Vim|Neovim|Emacs|Sublime Text|Atom|Zed|Cursor|Thonny|Spyder|
RStudio|Postman|Insomnia|Bruno|Wireshark|Charles|Fiddler|ngrok|Tailscale|WireGuard|OpenVPN|Nintendo Switch|
Steam Deck|PlayStation|Xbox|Godot|Unity|Unreal|GameMaker|Blender|Maya|Houdini|Photoshop|Illustrator|
Lightroom|Premiere|After Effects|Final Cut|DaVinci Resolve|Audacity|Ableton|Logic Pro|GarageBand|Raspberry Pi|
Arduino|ESP32|Jetson|Model Y|Kindle|iPad|MacBook|ThinkPad|Surface|Pixel|Galaxy|OnePlus|Fitbit|Garmin|Strava|
Peloton|Duolingo|Anki|Grammarly|Hemingway|Scrivener|Ulysses|Bear|Craft|Todoist|Things|OmniFocus|TickTick|
WeChat|DingTalk|Feishu|Lark|Alipay|Taobao|Douyin|Bilibili|Zhihu|Weibo|Meituan|json|yaml|toml|protobuf|gRPC|
GraphQL|REST|OpenAPI|Swagger|OAuth|SAML|LDAP|Kerberos|Jenkinsfile|Makefile|Dockerfile|Cargo|Poetry|Pipenv|
Conda|Mamba|pip|uv|Ruff|Black|isort|Flake8|Pylint|mypy|Pyright|ESLint|Prettier|Biome|Stylelint|SonarQube|
Snyk|Dependabot|Renovate|Trivy|Grype|Falco|Wazuh|CrowdStrike|Okta Verify|1Password|Bitwarden|LastPass|KeePass
"""
TECH_EN = [
    "We moved our builds to {} last year.",
    "I work in {} every day.",
    "Our team uses {} for this.",
    "Can you show me how to configure {} for a small project?",
    "{} please, not the other one.",
    "The user prefers {} over the alternatives.",
]
TECH_ZH = ["我们用 {} 做这件事。", "公司最近换成了 {}。", "我平时用 {}。"]

PEOPLE_EN = """
John Smith|Maria Garcia|James Johnson|Linda Williams|Robert Brown|Patricia Jones|Michael Miller|Jennifer Davis|
David Wilson|Elizabeth Moore|William Taylor|Barbara Anderson|Richard Thomas|Susan Jackson|Joseph White|
Jessica Harris|Thomas Martin|Sarah Thompson|Charles Martinez|Karen Robinson|Christopher Clark|Nancy Rodriguez|
Daniel Lewis|Lisa Lee|Matthew Walker|Betty Hall|Anthony Allen|Sandra Young|Mark Hernandez|Ashley King|
Donald Wright|Kimberly Lopez|Steven Hill|Emily Scott|Paul Green|Donna Adams|Andrew Baker|Michelle Gonzalez|
Joshua Nelson|Carol Carter|Kenneth Mitchell|Amanda Perez|Kevin Roberts|Melissa Turner|Brian Phillips|
Deborah Campbell|George Parker|Stephanie Evans|Priya Sharma|Rahul Mehta|Aisha Khan|Omar Haddad|Fatima Ali|
Sven Larsson|Ingrid Olsen|Pierre Dubois|Claire Martin|Hans Müller|Anna Schmidt|Giulia Rossi|Marco Bianchi|
Yuki Tanaka|Kenji Sato|Min-jun Kim|Ji-woo Park|Nguyen Van An|Olga Ivanova|Dmitri Petrov|Lucas Silva|Ana Souza
"""
PEOPLE_ZH = """
张伟|王芳|李娜|刘洋|陈静|杨磊|黄敏|赵军|周杰|吴霞|徐涛|孙丽|马超|朱红|胡斌|郭燕|何勇|高峰|林芳|罗刚|郑华|梁静|
谢明|宋佳|唐浩|许婷|韩雪|冯磊|邓超|曹阳|彭博|曾敏|肖红|田甜|董洁|袁野|潘玲|于波|蒋欣|蔡琳|张建国|李秀英|王建华
"""
PEOPLE_CTX_EN = ["Please ask {} before merging.", "I had a call with {} about the budget."]
PEOPLE_CTX_ZH = ["这个需求是{}提的。", "请联系{}确认一下。"]


def names(block: str) -> list[str]:
    return [n.strip() for n in block.replace("\n", "").split("|") if n.strip()]


def held_out(name: str) -> bool:
    return not all(t.lower().strip(".'-") in pii_names.NOT_NAMES for t in name.replace("'s", "").split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    scrubber = PiiScrubber()
    scrubber.start()
    tech, people_en, people_zh = names(TECH), names(PEOPLE_EN), names(PEOPLE_ZH)
    started = time.perf_counter()
    fp: dict[str, list[str]] = {"en": [], "zh": [], "en-held-out": [], "zh-held-out": []}
    counts = {k: 0 for k in fp}
    for i, name in enumerate(tech):
        for lang, contexts in (("en", TECH_EN), ("zh", TECH_ZH)):
            sentence = contexts[i % len(contexts)].format(name)
            out = scrubber.scrub(sentence)
            keys = [lang] + ([f"{lang}-held-out"] if held_out(name) else [])
            for k in keys:
                counts[k] += 1
                if "<PERSON>" in out:
                    fp[k].append(f"{name}: {out}")
    found: dict[str, list[bool]] = {"en names, en ctx": [], "en names, zh ctx": [], "zh names, zh ctx": []}
    missed: list[str] = []
    for i, name in enumerate(people_en):
        for key, contexts in (("en names, en ctx", PEOPLE_CTX_EN), ("en names, zh ctx", PEOPLE_CTX_ZH)):
            out = scrubber.scrub(contexts[i % len(contexts)].format(name))
            ok = name not in out
            found[key].append(ok)
            if not ok:
                missed.append(out)
    for i, name in enumerate(people_zh):
        out = scrubber.scrub(PEOPLE_CTX_ZH[i % len(PEOPLE_CTX_ZH)].format(name))
        found["zh names, zh ctx"].append(name not in out)
        if name in out:
            missed.append(out)
    took = time.perf_counter() - started
    print(f"{len(tech)} tech/product names, {len(people_en) + len(people_zh)} person names ({took:.1f} s)\n")
    print("| PERSON false positives | sentences | false positives | rate |")
    print("|---|---:|---:|---:|")
    for k in fp:
        print(f"| {k} | {counts[k]} | {len(fp[k])} | {len(fp[k]) / max(1, counts[k]):.3f} |")
    print("\n| person-name recall | names | found | recall |")
    print("|---|---:|---:|---:|")
    for k, v in found.items():
        print(f"| {k} | {len(v)} | {sum(v)} | {sum(v) / max(1, len(v)):.3f} |")
    if args.verbose:
        print("\nfalse positives:")
        for row in fp["en"] + fp["zh"]:
            print("  -", row)
        print("\nmissed names:")
        for row in missed:
            print("  -", row)


if __name__ == "__main__":
    main()
