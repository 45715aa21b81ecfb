"""What every resource builds on: JSON field helpers, the calculator kit (options, dice, answers), the
stateless step, event and payload schemas, and what the shared resources read from a ruleset's package."""
