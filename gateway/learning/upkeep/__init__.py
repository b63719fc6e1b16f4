"""Upkeep of stored memory: consolidation of near-duplicates and small facts, summaries, and the
reflection reports.
"""
