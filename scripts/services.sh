#!/bin/sh
# Starts the real services the test suite needs (none yet) and writes their addresses to
# .services.env. Each service adds its own block here; the script is idempotent.
set -e
: > .services.env
