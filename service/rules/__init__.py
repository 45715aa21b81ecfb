"""The pure rules domain: formulas, tables, dice and resolvers.

Nothing in this package imports Flask, marshmallow, Redis, Celery or numpy; every function
is a plain function over immutable values, with randomness passed in.
"""
