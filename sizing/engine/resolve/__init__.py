"""Every answer made concrete: the customer's, or a documented default recorded as an
assumption (:mod:`.resolved` composes the model, the run and the site into ``Resolved``)."""
