"""The offline learner (``model: heuristic``): English read off a dependency parse, Chinese by
clause patterns, atomic splitting, dates, and the keys that make replacement structural.
"""
