"""The search bot and its parts: its budget (:mod:`.budget`), worlds consistent with an
observation (:mod:`.determinize`, :mod:`.holdings`, :mod:`.native_worlds`, :mod:`.tracking`),
the searches of the contract and the kitty, and the estimates that decide between candidates."""
