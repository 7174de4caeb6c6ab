"""The wire: pydantic models of every JSON form the engine's values take outside Python —
the server's messages and REST bodies, hand records, and the event log — used in both
directions by the server, the CLI, the tests and the bench.

One module per kind of value, each with the one conversion between the engine value and its
JSON form (``View.of(value)`` / ``view.to_…()``):

- :mod:`.cards`: cards (``"SA"``, or ``"SA SK"`` in records), seats, suits;
- :mod:`.actions`: actions as records (``{"seat": 0, "bid": 90}``) and as client messages;
- :mod:`.tricks`, :mod:`.results`, :mod:`.observation`: what a seat sees of a hand;
- :mod:`.record`: hand records;
- :mod:`.table`: a table's public information;
- :mod:`.events`: the events of a table's log, as the server stores them;
- :mod:`.messages`: the WebSocket messages; :mod:`.rest`: the REST bodies.

The package imports nothing itself, so that the engine can use :mod:`.record` without loading
the server's messages.
"""
