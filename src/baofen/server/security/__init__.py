"""Secrets and limits: table codes, seat tokens and their hashes (:mod:`.tokens`), sessions
(:mod:`.sessions`), rate limits (:mod:`.rate_limits`) and the limits on password tries
(:mod:`.login_limits`)."""
