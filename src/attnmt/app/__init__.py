"""The applications: the command line, the HTTP server with request batching and its page, the demo."""
