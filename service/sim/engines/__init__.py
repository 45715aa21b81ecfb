"""Per-ruleset simulation engines: `service.sim.engines.<package>` is found by the ruleset's package name.

A module here either exposes `SIMULATOR` (a whole `service.sim.simulator.Simulator`, as `tactical` does)
or `simulate(matchup, trials, rng)`, a vectorised stand-in for the round-resolver loop of
`service.sim.rounds` that returns the same tally and is checked against it by a differential test.
"""
