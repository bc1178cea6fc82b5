"""toolkits."""
