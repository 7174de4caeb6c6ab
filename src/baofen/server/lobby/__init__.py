"""The tables of one server (:mod:`.lobby`), and where the routes find a table, on this server
or, in cluster mode, on the node that owns it (:mod:`.directory`)."""
