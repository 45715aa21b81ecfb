"""The plumbing under every request: API keys and limits, CORS, body checks, errors as problem+json,
logging and metrics, JSON output, the project's Blueprint, the spec and the docs. Nothing here knows a
resource; resources build on it."""
