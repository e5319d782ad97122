"""The Quiver tool host: imports the Python files of one tool tree and serves
them over MCP on stdio. Stdlib only; start it with server/toolhost/run.py."""

VERSION = "0.1.0"
