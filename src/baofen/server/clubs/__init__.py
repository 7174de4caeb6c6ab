"""亲友圈 (clubs) on the server: the store's clubs reached from the routes (:mod:`.service`),
and who may sit at a club table (:mod:`.seating`)."""
