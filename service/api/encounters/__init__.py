"""/v1/encounters: encounters kept between requests (see views.py)."""
