"""The 复盘 pool behind the review routes (:mod:`..routes.reviews`): the worker processes that
review hands (:mod:`.pool`) and the queue that shares their time among the reviews asked for
(:mod:`.queue`)."""
