"""The ops the course uses."""
