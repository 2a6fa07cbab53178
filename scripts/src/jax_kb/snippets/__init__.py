"""The snippet engine: reads the Python blocks of pages, runs them, checks and reports them."""
