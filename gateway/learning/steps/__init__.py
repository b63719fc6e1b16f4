"""One learning job's steps: the pipeline that composes them, explicit commands, scoring,
extraction parsing, the precision gate, the poisoning check, dedup/supersede and standing rules.
"""
