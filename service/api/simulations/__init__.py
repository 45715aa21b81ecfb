"""/v1/simulations: Monte Carlo batches of fights as background jobs (see views.py)."""
