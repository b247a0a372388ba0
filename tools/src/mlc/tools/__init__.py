"""mlc's command-line tools."""
