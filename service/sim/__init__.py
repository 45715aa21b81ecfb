"""Monte Carlo simulation of `tactical` fights: numpy arrays over trials, one Combat Segment at a time.

`matchup` reads the sides and combatants, `engine` runs a block of trials, `tally` holds the
mergeable counts, `chunks` splits a job into seeded chunks, `summary` turns counts into answers.
"""
