"""Cluster mode: several server nodes on Redis and one database (``baofen serve --redis``).

:mod:`.lease` says which node owns each table, :mod:`.ownership` keeps this node's leases and
fencing numbers (handed to the store and the lobby when they are built), :mod:`.bus` carries
messages between nodes, :mod:`.registry` lists every node's open tables, :mod:`.relay` serves a
client of one node at a table of another, and :mod:`.node` puts them together. The 匹配 line
(:mod:`.match_line`) and the limits on password tries (:mod:`.login_limits`) are shared in Redis
too: all of the server's Redis code is in this package. See docs/deploy.md.
"""
