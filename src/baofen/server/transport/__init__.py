"""How clients reach a table: the HTTP server's options (:mod:`.http`), a client's connection
(:mod:`.connections`), the checks of its frames (:mod:`.gate`) and the broadcast of each seat's
view (:mod:`.broadcast`)."""

from .http import uvicorn_options

__all__ = ["uvicorn_options"]
