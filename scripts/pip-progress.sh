#!/usr/bin/env bash
# Shorten `pip install`'s output (read on stdin) to a progress line for `make setup`:
#
#   downloading: 10 20 30 ... 110        (a count every 10 packages pip collects)
#   installing 112 package(s) ...
#   done.
#
# so that a first install, a minute or more, does not look frozen, without printing pip's
# hundred-odd lines. Lines about a retry (a slow or broken network) are shown as they come;
# from pip's first error line on, everything is shown as it is, so its own error stays
# visible. (A bash loop, not awk: Debian's mawk reads a pipe in blocks, so its progress would
# come all at once at the end.)
set -uo pipefail

n=0
open=0     # the "downloading:" line is still open (no newline yet)
failed=0

end_line() {
    if [ "$open" = 1 ]; then
        echo
        open=0
    fi
}

while IFS= read -r line; do
    if [ "$failed" = 0 ] && [[ $line =~ ^(ERROR|error|[[:space:]]+error) ]]; then
        failed=1
        end_line
    fi
    if [ "$failed" = 1 ]; then
        printf '%s\n' "$line"
        continue
    fi
    case $line in
        "Collecting "* | "Processing "*)  # from an index; from a local file (find-links)
            n=$((n + 1))
            if [ "$n" = 1 ]; then
                printf '  downloading:'
                open=1
            fi
            if [ $((n % 10)) = 0 ]; then
                printf ' %d' "$n"
            fi
            ;;
        "Installing collected packages: "*)
            end_line
            names=${line#*: }
            commas=${names//[^,]/}
            echo "  installing $((${#commas} + 1)) package(s) ..."
            ;;
        "Successfully installed"*)
            end_line
            echo "  done."
            ;;
        *Retrying*)
            end_line
            printf '  %s\n' "$line"
            ;;
    esac
done
end_line
