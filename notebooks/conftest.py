"""nbval settings for the course notebooks (used by ``make test``).

nbval compares every stored output with a fresh run, except the keys in each notebook's
``skip_compare`` (metadata, tracebacks, execution counts, PNG/JPEG images). nbval has no
option for more, so this hook adds:

- ``image/svg+xml``: Graphviz drawings; their exact SVG text depends on the Graphviz
  version. The drawing's ``text/plain`` (which graph it is) is still compared.
- ``stderr``: warnings and log lines (e.g. from the kernel); stdout is still compared.

Memory addresses (``0x...``) are replaced by the sanitizer, nbval_sanitize.cfg.
"""
NOT_COMPARED = ("image/svg+xml", "stderr")


def pytest_collectstart(collector):
    skip = getattr(collector, "skip_compare", None)
    if isinstance(skip, tuple):
        collector.skip_compare = skip + tuple(k for k in NOT_COMPARED if k not in skip)
