"""What may not be stored: Presidio scrubbing in its own process, identifiers removed with the fact
kept, third parties' sensitive details.
"""
