#!/usr/bin/env bash
# Make Graphviz's `dot` program available: the notebooks draw computation
# graphs with the `graphviz` Python package, which calls `dot`.
#   - `dot` already on PATH: nothing to do.
#   - root with apt-get (Debian/Ubuntu, containers, CI): install it.
#   - otherwise: say how to install it. The course still works without it: drawings
#     fall back to the text tree and the DOT source, and the tests that render skip.
set -euo pipefail

if command -v dot >/dev/null 2>&1; then
    exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Graphviz 'dot' not found: installing Debian package graphviz with apt-get ..."
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null || true
    if command -v dot >/dev/null 2>&1; then
        echo "Installed: $(dot -V 2>&1)"
        exit 0
    fi
    echo "warning: apt-get install graphviz finished but 'dot' is still not on PATH" >&2
fi

cat >&2 <<'MSG'
warning: Graphviz's `dot` program is not installed, so graph drawings will show as
text (the tree and the DOT source) instead of pictures. To get the pictures, install
it one of these ways, then run make again:
    conda install -c conda-forge graphviz     # conda / mamba
    sudo apt-get install graphviz             # Debian / Ubuntu
    brew install graphviz                     # macOS (Homebrew)
MSG
exit 0
