#!/usr/bin/env bash
# Make Graphviz's `dot` program available: the notebooks draw computation
# graphs with the `graphviz` Python package, which calls `dot`.
#   - `dot` already on PATH: nothing to do.
#   - root with apt-get (Debian/Ubuntu, containers, CI): install it; if apt-get fails, say
#     so with its own error and what to do.
#   - otherwise: say how to install it. The course still works without it: drawings
#     fall back to the text tree and the DOT source, and the tests that render skip.
set -euo pipefail

if command -v dot >/dev/null 2>&1; then
    exit 0
fi

# Run a command with its output held back; if it fails, say so, with its exit status and
# the end of its own output (apt-get's reason: no network, dpkg's lock held, ...).
run() {
    local out status=0
    out=$("$@" 2>&1) || status=$?
    if [ "$status" -ne 0 ]; then
        echo "error: \`$*\` failed (exit status $status). Its output ends with:" >&2
        printf '%s\n' "$out" | tail -n 12 | sed 's/^/    /' >&2
    fi
    return "$status"
}

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Graphviz 'dot' not found: installing Debian package graphviz with apt-get ..."
    export DEBIAN_FRONTEND=noninteractive
    # A failed update may still leave package lists to install from: go on to the install.
    run apt-get update -qq || echo "(going on with the package lists apt-get already has)" >&2
    if run apt-get install -y -qq graphviz; then
        if command -v dot >/dev/null 2>&1; then
            echo "Installed: $(dot -V 2>&1)"
            exit 0
        fi
        echo "error: \`apt-get install graphviz\` succeeded, but 'dot' is not on PATH ($PATH)." >&2
    else
        cat >&2 <<'MSG'
What to do: if the output above says dpkg's lock is held ("Could not get lock"), another
apt-get or package manager is running: wait for it to finish, then run make again. If it
says a package could not be fetched, check the network (or run `apt-get update`), then
run make again. Or install Graphviz another way (below).
MSG
    fi
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
