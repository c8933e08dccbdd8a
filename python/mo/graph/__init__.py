"""Graph builder (MAX `max.graph` surface)."""
