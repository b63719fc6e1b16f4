"""Interface text of the console in English and Simplified Chinese, chosen by ``Accept-Language``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LANGUAGES = ("en", "zh")

# key -> (English, Simplified Chinese); "{name}" placeholders are filled by ``t(key, name=…)``
MESSAGES: dict[str, tuple[str, str]] = {
    "me_title": ("What the AI knows about you", "AI 记住的关于你的信息"),
    "signed_in_as": ("Signed in as {user}", "当前用户：{user}"),
    "sign_out": ("Sign out", "退出"),
    "learning": ("Learning", "学习"),
    "learning_on": ("On: your conversations may add new memories.", "已开启：你的对话可能会被记住。"),
    "learning_off": ("Off: nothing new is learned from your conversations.", "已关闭：不会从你的对话中学习新内容。"),
    "turn_on": ("Turn learning on", "开启学习"),
    "turn_off": ("Turn learning off", "关闭学习"),
    "consent_opt_in": (
        "This service learns only after you turn learning on.",
        "本服务仅在你开启学习后才会学习。",
    ),
    "consent_opt_out": (
        "This service learns unless you turn learning off.",
        "除非你关闭学习，本服务会从对话中学习。",
    ),
    "statistics": ("Statistics", "统计"),
    "total": ("Memories", "记忆总数"),
    "last_learned": ("Last learned", "最近学习"),
    # learned memories unused so long they fell below learning.decay_floor (retention removes them)
    "fading": ("Fading (unused, soon removed)", "逐渐淡忘（长期未用，即将移除）"),
    "never": ("never", "从未"),
    "user_preference": ("Preferences", "个人偏好"),
    "business": ("Business", "业务"),
    "technical": ("Technical", "技术"),
    "organizational": ("Organisation", "组织"),
    "domain": ("Domain knowledge", "领域知识"),
    "memories": ("Memories", "记忆"),
    "search": ("Search", "搜索"),
    "search_label": ("Search your memories", "搜索你的记忆"),
    "all": ("All", "全部"),
    "clear_search": ("Clear search", "清除搜索"),
    "results_for": ("{n} results for “{q}”, most relevant first", "“{q}” 的 {n} 条结果，按相关度排序"),
    "no_memories": ("Nothing is kept about you here.", "这里没有保存关于你的信息。"),
    "used": ("used {n}×", "已使用 {n} 次"),
    "last_used": ("last used {t}", "最近使用 {t}"),
    "never_used": ("never used", "从未使用"),
    "shared": ("shared", "共享"),
    "system": ("system", "系统"),
    "personal": ("personal", "个人"),
    "disabled": ("disabled", "已停用"),
    "export": ("Export", "导出"),
    "export_json": ("Download JSON", "下载 JSON"),
    "export_md": ("Download Markdown", "下载 Markdown"),
    "export_csv": ("Download CSV (spreadsheet)", "下载 CSV（表格）"),
    "danger": ("Delete everything", "删除全部"),
    "clear_all": ("Delete all my memories…", "删除我的全部记忆…"),
    "clear_title": ("Delete all your memories?", "删除你的全部记忆？"),
    "clear_body": (
        "This deletes all {n} of your memories. It cannot be undone.",
        "这将删除你的全部 {n} 条记忆，且无法恢复。",
    ),
    "clear_yes": ("Yes, delete all my memories", "确认删除全部记忆"),
    "cancel": ("Cancel", "取消"),
    "saved": ("Saved.", "已保存。"),
    "deleted": ("Deleted.", "已删除。"),
    "cleared": ("All your memories were deleted.", "你的全部记忆已删除。"),
    "reviews": ("Changes to confirm", "待确认的更改"),
    # the user's latest reflection report (gateway.learning.reflection)
    "reflection": ("What I learned", "我学到了什么"),
    "reflection_period": ("From {start} to {end}", "{start} 至 {end}"),
    "reflections": ("Reflections", "反思报告"),
    "kind_learned": ("Learned", "新学到"),
    "kind_merged": ("Merged duplicates", "合并的重复项"),
    "kind_consolidated": ("Combined into summaries", "合并为摘要"),
    "kind_summaries": ("Summaries made", "生成的摘要"),
    "kind_superseded": ("Replaced by newer", "被更新的替换"),
    "kind_decayed": ("Fading", "逐渐淡忘"),
    "kind_most_used": ("Used most", "最常用"),
    "kind_stale": ("Unused for long", "长期未用"),
    "reviews_intro": (
        "Something you said may replace what is remembered. Nothing changes until you choose.",
        "你说的内容可能会替换已记住的信息。在你选择之前不会有任何改变。",
    ),
    "review_now": ("Remembered now", "当前记住的"),
    "review_new": ("New", "新的"),
    "review_accept": ("Use the new one", "使用新的"),
    "review_reject": ("Keep the one remembered", "保留当前的"),
    "review_accepted": ("The new memory replaced the old one.", "新的记忆已替换旧的。"),
    "review_rejected": ("The remembered one was kept.", "已保留当前的记忆。"),
    "learning_now_on": ("Learning is on.", "学习已开启。"),
    "learning_now_off": ("Learning is off.", "学习已关闭。"),
    "back": ("Back to all memories", "返回全部记忆"),
    "title": ("Title", "标题"),
    "content": ("Content", "内容"),
    "category": ("Category", "类别"),
    "subcategory": ("Subcategory", "子类别"),
    "tags": ("Tags (comma-separated)", "标签（逗号分隔）"),
    "save": ("Save", "保存"),
    "delete_one": ("Delete this memory", "删除这条记忆"),
    "created": ("Created", "创建时间"),
    "updated": ("Updated", "更新时间"),
    "source": ("Source", "来源"),
    "score": ("Score", "评分"),
    "times_used": ("Times used", "使用次数"),
    "last_access": ("Last used", "最近使用"),
    # the citation log (kept learning.retention_days): responses a memory went into, all users
    "uses_logged": ("In answers (log)", "用于回答（日志）"),
    "read_only": ("Shared by the operator: only they can change it.", "由管理员共享：只有管理员可以修改。"),
    "previous": ("Previous", "上一页"),
    "next": ("Next", "下一页"),
    "page_of": ("Page {n} of {m}", "第 {n} 页，共 {m} 页"),
    "denied_title": ("This link does not work", "此链接无效"),
    "denied_body": (
        "It has expired, was ended by signing out, or is not genuine. Ask the app for a new link.",
        "链接已过期、已在退出时作废，或不是真实链接。请在应用中重新获取链接。",
    ),
    "no_session": (
        "Your session has ended. Open a new link from the app.",
        "会话已结束。请在应用中打开新的链接。",
    ),
    "signed_out": ("You are signed out. The link you used no longer works.", "你已退出，刚才使用的链接已失效。"),
    "csrf_failed": ("The form had expired. Reload the page and try again.", "表单已过期，请刷新页面后重试。"),
    "not_found": ("No such memory.", "没有这条记忆。"),
    "invalid": ("Not saved: {error}", "未保存：{error}"),
    "opening": ("Opening your memory page…", "正在打开你的记忆页面…"),
    "continue": ("Continue", "继续"),
    # operator console
    "console_title": ("memorelay console", "memorelay 控制台"),
    "admin_key": ("Admin key", "管理员密钥"),
    "sign_in": ("Sign in", "登录"),
    "bad_key": ("That admin key is not valid.", "管理员密钥无效。"),
    "admin_disabled": (
        "The console is disabled: set MEMORELAY_ADMIN_KEY (auth.admin_key in the config) and restart.",
        "控制台已停用：请设置 MEMORELAY_ADMIN_KEY（配置中的 auth.admin_key）并重启。",
    ),
    "overview": ("Overview", "概览"),
    "users": ("Users", "用户"),
    "shared_memories": ("Shared & system", "共享与系统记忆"),
    "prompts": ("Prompts", "提示词"),
    "learning_log": ("Learning log", "学习日志"),
    "audit_log": ("Audit log", "审计日志"),
    "dead_jobs": ("Dead-letter jobs", "死信任务"),
    "health": ("Health", "健康状态"),
    "learned_per_day": ("Memories learned per day (30 days)", "每日学习的记忆（30 天）"),
    "outcomes": ("Learning outcomes (30 days)", "学习结果（30 天）"),
    "tenant": ("Tenant", "租户"),
    "user": ("User", "用户"),
    "filter": ("Filter", "筛选"),
    "promote": ("Promote to shared", "提升为共享"),
    "promoted": ("Promoted to shared.", "已提升为共享。"),
    "create": ("Create", "创建"),
    "created_ok": ("Created.", "已创建。"),
    "scope": ("Scope", "范围"),
    "reset": ("Reset to default", "恢复默认"),
    "prompt_source": ("Source: {source}", "来源：{source}"),
    "retry": ("Retry", "重试"),
    "discard": ("Discard", "丢弃"),
    "retried": ("Job queued again.", "任务已重新排队。"),
    "discarded": ("Job discarded.", "任务已丢弃。"),
    "no_rows": ("Nothing here.", "暂无内容。"),
    "mint_link": ("Open this user's page", "打开该用户的页面"),
    "edit": ("Edit", "编辑"),
    # supersede reviews (learning.review: queue) in the operator console
    "reviews_nav": ("Reviews", "审核"),
    "reviews_title": ("Changes waiting for review", "待审核的更改"),
    "reviews_waiting": ("Reviews waiting", "待审核"),
    "reviews_console_intro": (
        "The learner took a new memory to replace an old one but was not sure. Until someone "
        "decides, the old memory stays in use and the new one is held back. The user can decide "
        "on their own page too.",
        "学习器认为一条新记忆应替换旧记忆，但并不确定。在有人决定之前，旧记忆继续使用，新记忆暂不生效。"
        "用户也可以在自己的页面上决定。",
    ),
    "state_pending": ("Waiting", "待处理"),
    "state_accepted": ("Accepted", "已接受"),
    "state_rejected": ("Rejected", "已拒绝"),
    "review_old": ("Remembered", "当前记忆"),
    "review_proposed": ("Proposed", "提议的新记忆"),
    "review_reason": ("Why", "原因"),
    "review_age": ("Waiting for", "已等待"),
    "review_decided": ("Decided", "决定"),
    "review_gone": ("(deleted)", "（已删除）"),
    "accept": ("Accept", "接受"),
    "reject": ("Reject", "拒绝"),
    "age_m": ("{n} min", "{n} 分钟"),
    "age_h": ("{n} h", "{n} 小时"),
    "age_d": ("{n} days", "{n} 天"),
    "review_accepted_op": ("Accepted: the proposed memory replaced the old one.", "已接受：新记忆已替换旧记忆。"),
    "review_rejected_op": ("Rejected: the old memory stays.", "已拒绝：保留旧记忆。"),
    "review_was_decided": ("That review was already decided.", "该审核已被处理。"),
}


def choose_language(accept_language: str | None) -> str:
    """``zh`` when the most preferred language the client names is Chinese, else ``en``."""
    best, best_q = "en", -1.0
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = tag.strip().lower().split("-")[0]
        if lang in LANGUAGES and q > best_q and q > 0:
            best, best_q = lang, q - position * 1e-6
    return best


def translator(language: str) -> Callable[..., str]:
    index = LANGUAGES.index(language) if language in LANGUAGES else 0

    def t(key: str, **values: Any) -> str:
        pair = MESSAGES.get(key)
        text = pair[index] if pair else key
        return text.format(**values) if values else text

    return t
