"""The cost over the planning horizon: the work, every way to pay for it, the choice and its
reasons (:mod:`.plan` composes them into one ``CostResult``), and the prices they read."""
