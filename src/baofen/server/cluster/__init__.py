"""Cluster mode: several server nodes on Redis and one database (``baofen serve --redis``).

:mod:`.lease` says which node owns each table, :mod:`.bus` carries messages between nodes,
:mod:`.relay` serves a client of one node at a table of another, and :mod:`.node` puts them
together. See docs/deploy.md.
"""
