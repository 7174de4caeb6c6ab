"""Player accounts' rules, apart from their storage and their web routes: the ratings
(:mod:`baofen.accounts.ratings`, OpenSkill) and the usernames allowed
(:mod:`baofen.accounts.usernames`). The wire, the store and the server build on these."""
