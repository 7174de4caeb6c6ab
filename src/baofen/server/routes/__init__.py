"""The server's routes: the tables over REST (:mod:`.rest`) and WebSocket (:mod:`.websocket`),
accounts (:mod:`.accounts`), players' records (:mod:`.players`), the browser's views
(:mod:`.browser`) and pages (:mod:`.pages`), 复盘 (:mod:`.reviews`) and 匹配
(:mod:`.quickmatch`)."""
