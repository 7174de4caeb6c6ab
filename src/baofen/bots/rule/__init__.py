"""The rule bot and what it decides with: its hand evaluation (bids, trump and bury), its scored
leads and follows, the public knowledge it tallies, and the rule player in Python
(:mod:`.player`; the native core's: :class:`baofen.bots.native_players.NativeRulePlayer`)."""
