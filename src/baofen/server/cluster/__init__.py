"""Cluster mode: several server nodes on Redis and one database (``baofen serve --redis``).

:mod:`.lease` says which node owns each table, :mod:`.ownership` keeps this node's leases and
fencing numbers (handed to the store and the lobby when they are built), :mod:`.bus` carries
messages between nodes, :mod:`.registry` lists every node's open tables, :mod:`.relay` serves a
client of one node at a table of another, and :mod:`.node` puts them together. See docs/deploy.md.
"""
