"""Research tools beside the environments of :mod:`baofen.env` (the ``research`` extra): arena
deals and self-play hands run on a Ray cluster (:mod:`baofen.research.ray_runner`)."""
