"""The LLM learner: the ``complete()`` seam, the combined scoring-and-extraction call and the
editable prompts.
"""
