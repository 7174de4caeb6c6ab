"""匹配 (quick match): the waiting line (:mod:`.line`) and the matchmaker that seats it
(:mod:`.matchmaker`); its routes are :mod:`..routes.quickmatch`."""
